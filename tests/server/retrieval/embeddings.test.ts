import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knowledgePort } from '../../../src/server/retrieval/knowledge-port';
import { type Db } from '../../../src/server/db/database';
import { openTestDatabase } from '../postgres-harness';
import { loadConfig } from '../../../src/server/config';
import { EmbeddingError, embeddingClient, embeddingSettings, vectorSearch, type EmbeddingSettings } from '../../../src/server/retrieval/embeddings';
import { reciprocalRankFusion } from '../../../src/server/retrieval/fusion';
import { search } from '../../../src/server/retrieval/search';
import { ask, until } from '../answering-helpers';
import { deadUrl, hashEmbedding, startEmbeddingServer } from '../embedding-server';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { KB, makePdf, upload, waitParsed } from '../knowledge-helpers';

const MODEL = 'test-hash-256';

// A small paper about four topics, one per page. The question below paraphrases page 2 with
// related words whose English stems still differ ("catalytic hydrogenolysis of alkenyl" for
// "catalysts hydrogenate alkenes": catalyt/catalyst, hydrogenolysi/hydrogen, alkenyl/alken):
// BM25 over word stems finds only the pages sharing "of", while the n-gram embedding sees the
// shared letters.
const chemistryPdf = makePdf([
  ['Aspirin synthesis', 'Salicylic acid is acetylated with acetic anhydride to give aspirin.'],
  ['Reduction', 'Palladium catalysts hydrogenate alkenes rapidly under mild pressure.'],
  ['Crystal growth', 'Slow evaporation of the solvent gives large crystals of the product.'],
  ['Kinase assays', 'The inhibitor blocks the activity of the enzyme at low concentration.'],
]);
const PARAPHRASE = 'catalytic hydrogenolysis of alkenyl groups';
const polymerPdf = makePdf([
  ['Polymer chemistry', 'Polystyrene is made by radical polymerisation of styrene monomer.'],
  ['Processing', 'Extrusion of the polymer melt gives films and fibres.'],
]);

const settingsFor = (baseUrl: string, extra: Partial<EmbeddingSettings> = {}): EmbeddingSettings => ({
  baseUrl,
  model: MODEL,
  batchSize: 2,
  queryTimeoutMs: 3000,
  ...extra,
});

const embeddingEnv = (url: string) => ({
  EMBEDDING_BASE_URL: url,
  EMBEDDING_MODEL: MODEL,
  EMBEDDING_API_KEY: 'sk-embed-very-secret',
  EMBEDDING_BATCH_SIZE: '2',
});

async function uploadParsed(client: Client, name: string, data: Buffer) {
  const up = await upload(client, [{ name, data }]);
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const docId = up.body.data.name_id[0]!.docId;
  const doc = await waitParsed(client, docId, 60_000);
  expect(doc.parseStatus).toBe(2);
  return docId;
}

const vectorCount = async (db: Db, docId: string) =>
  Number((await db.selectFrom('kb_chunk_vectors').select((eb) => eb.fn.countAll().as('n')).where('doc_id', '=', docId).executeTakeFirstOrThrow()).n);
const chunkCount = async (db: Db, docId: string) =>
  Number((await db.selectFrom('kb_chunks').select((eb) => eb.fn.countAll().as('n')).where('doc_id', '=', docId).executeTakeFirstOrThrow()).n);
/** Waits until every passage of the document has its vector. */
const waitEmbedded = (db: Db, docId: string, timeoutMs = 20_000) =>
  until(async () => [await vectorCount(db, docId), await chunkCount(db, docId)], ([v, c]) => c! > 0 && v === c, timeoutMs);

describe('embedding configuration', () => {
  it('is off unless a base URL and a model are set, and names each bad variable', () => {
    expect(embeddingSettings(loadConfig({}))).toBeUndefined();
    expect(embeddingSettings(loadConfig({ EMBEDDING_BASE_URL: '', EMBEDDING_MODEL: '', EMBEDDING_DIMENSIONS: '' }))).toBeUndefined();
    expect(embeddingSettings(loadConfig({ EMBEDDING_BASE_URL: 'http://127.0.0.1:8000/v1', EMBEDDING_MODEL: 'BAAI/bge-m3', EMBEDDING_DIMENSIONS: '1024' }))).toEqual({
      baseUrl: 'http://127.0.0.1:8000/v1',
      apiKey: undefined,
      model: 'BAAI/bge-m3',
      dimensions: 1024,
      batchSize: 32,
      queryTimeoutMs: 3000,
    });
    expect(() => loadConfig({ EMBEDDING_BASE_URL: 'http://127.0.0.1:8000/v1' })).toThrowError(/EMBEDDING_MODEL: required when EMBEDDING_BASE_URL is set/);
    expect(() => loadConfig({ EMBEDDING_BASE_URL: 'not a url', EMBEDDING_DIMENSIONS: 'many', EMBEDDING_BATCH_SIZE: '0', EMBEDDING_QUERY_TIMEOUT_MS: '-1' })).toThrowError(
      /EMBEDDING_BASE_URL[\s\S]*EMBEDDING_DIMENSIONS[\s\S]*EMBEDDING_BATCH_SIZE[\s\S]*EMBEDDING_QUERY_TIMEOUT_MS/,
    );
  });
});

describe('reciprocal rank fusion', () => {
  it('puts items both lists agree on first and scores 1/(60 + rank) per list', () => {
    const fused = reciprocalRankFusion([['a', 'b', 'c'], ['c', 'd', 'a']], (x) => x);
    expect(fused.map((f) => f.item)).toEqual(['a', 'c', 'b', 'd']);
    expect(fused[0]!.score).toBeCloseTo(1 / 61 + 1 / 63, 10);
    expect(fused[2]!.score).toBeCloseTo(1 / 62, 10);
  });

  it('counts an item once per list, and keeps ties in first-seen order', () => {
    const fused = reciprocalRankFusion([['a', 'a', 'b'], ['b']], (x) => x);
    expect(fused.map((f) => [f.item, f.score])).toEqual([
      ['b', 1 / 63 + 1 / 61],
      ['a', 1 / 61],
    ]);
    expect(reciprocalRankFusion([['x'], ['y']], (x) => x).map((f) => f.item)).toEqual(['x', 'y']);
    expect(reciprocalRankFusion<string>([[], []], (x) => x)).toEqual([]);
  });
});

describe('the embeddings client', () => {
  let stub: Awaited<ReturnType<typeof startEmbeddingServer>>;
  beforeAll(async () => {
    stub = await startEmbeddingServer({ hugeBytes: 4 * 1024 * 1024 });
  });
  afterAll(async () => stub.close());
  const reset = () => {
    stub.state.mode = 'ok';
    stub.state.failNext = 0;
  };

  it('posts {model, input} with the key and returns unit vectors in the order of the texts', async () => {
    reset();
    const client = embeddingClient(settingsFor(stub.url, { apiKey: 'sk-abc' }));
    const vectors = await client.embed(['benzene ring', '苯环结构']);
    expect(vectors.map((v) => v.length)).toEqual([256, 256]);
    expect(Math.hypot(...vectors[0]!)).toBeCloseTo(1, 5);
    expect([...vectors[1]!].map((x) => +x.toFixed(5))).toEqual(hashEmbedding('苯环结构').map((x) => +x.toFixed(5)));
    const last = stub.state.requests.at(-1)!;
    expect(last).toMatchObject({ model: MODEL, input: ['benzene ring', '苯环结构'], authorization: 'Bearer sk-abc' });
  });

  it('puts vectors answered out of order back by their index', async () => {
    reset();
    stub.state.mode = 'shuffled';
    const [a, b] = await embeddingClient(settingsFor(stub.url)).embed(['alpha', 'beta']);
    expect([...a!].map((x) => +x.toFixed(5))).toEqual(hashEmbedding('alpha').map((x) => +x.toFixed(5)));
    expect([...b!].map((x) => +x.toFixed(5))).toEqual(hashEmbedding('beta').map((x) => +x.toFixed(5)));
    reset();
  });

  it.each([
    ['error500', /HTTP 500/],
    ['notjson', /other than JSON/],
    ['wrongdims', /different sizes/],
    ['wrongcount', /1 vectors for 2 texts/],
    ['repeatedindex', /bad or repeated indices/],
    ['notanobject', /malformed base64 vector/],
    ['huge', /too large/],
  ] as const)('refuses a %s answer with a clear EmbeddingError', async (mode, message) => {
    reset();
    stub.state.mode = mode;
    const err = await embeddingClient(settingsFor(stub.url)).embed(['one text', 'two text']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbeddingError);
    expect(String(err)).toMatch(message);
    reset();
  });

  it('refuses vectors of another size than EMBEDDING_DIMENSIONS', async () => {
    reset();
    const err = await embeddingClient(settingsFor(stub.url, { dimensions: 1024 })).embed(['x']).catch((e: unknown) => e);
    expect(String(err)).toMatch(/256 dimensions, 1024 configured/);
  });

  it('gives up on a service that does not answer within the timeout, and on one that is not there', async () => {
    reset();
    stub.state.mode = 'hang';
    const slow = await embeddingClient(settingsFor(stub.url)).embed(['x'], 200).catch((e: unknown) => e);
    expect(String(slow)).toMatch(/timed out after 200 ms/);
    reset();
    const dead = await embeddingClient(settingsFor(await deadUrl())).embed(['x']).catch((e: unknown) => e);
    expect(dead).toBeInstanceOf(EmbeddingError);
    expect(String(dead)).toMatch(/unreachable/);
  });
});

describe('indexing and fused search with an embeddings service', () => {
  let stub: Awaited<ReturnType<typeof startEmbeddingServer>>;
  let server: TestServer;
  let me: Client;
  let db: Db;
  let chemId: string;
  let polymerId: string;

  beforeAll(async () => {
    stub = await startEmbeddingServer();
    server = await startServer(embeddingEnv(stub.url));
    me = (await signedInUser(server)).client;
    chemId = await uploadParsed(me, 'chemistry.pdf', chemistryPdf);
    polymerId = await uploadParsed(me, 'polymer.pdf', polymerPdf);
    db = await openTestDatabase(server.dataDir);
    await waitEmbedded(db, chemId);
    await waitEmbedded(db, polymerId);
  }, 120_000);
  afterAll(async () => {
    await db?.destroy();
    await server?.close();
    await stub?.close();
  });

  it('stores one unit Float32 vector per passage after parsing, sent in batches with the key', async () => {
    const rows = await db
      .selectFrom('kb_chunk_vectors as v')
      .innerJoin('kb_chunks as c', 'c.id', 'v.chunk_id')
      .select(['v.model', 'v.dims', 'v.vector', 'c.doc_id', 'c.text'])
      .where('v.doc_id', '=', chemId)
      .execute();
    expect(rows.length).toBe(await chunkCount(db, chemId));
    for (const r of rows) {
      expect(r).toMatchObject({ model: MODEL, dims: 256, doc_id: chemId });
      expect(r.vector.byteLength).toBe(256 * 4);
      const v = new Float32Array(Uint8Array.from(r.vector).buffer);
      expect(Math.hypot(...v)).toBeCloseTo(1, 4);
    }
    const indexing = stub.state.requests.filter((r) => r.input.length > 0);
    expect(indexing.every((r) => r.input.length <= 2 && r.model === MODEL && r.authorization === 'Bearer sk-embed-very-secret')).toBe(true);
  });

  it('finds a paraphrased passage BM25 alone misses, with its document, page and box', async () => {
    const bm25 = await search(db, [chemId], PARAPHRASE, 5);
    expect(bm25.map((p) => p.page)).not.toContain(2);
    const port = knowledgePort(db, { embeddings: embeddingClient(settingsFor(stub.url)) });
    const fused = await port.search([chemId], PARAPHRASE, 5);
    const hit = fused.find((p) => p.page === 2);
    expect(hit, JSON.stringify(fused)).toBeDefined();
    expect(hit).toMatchObject({ docId: chemId, title: 'chemistry.pdf', page: 2 });
    expect(hit!.text).toContain('Palladium catalysts hydrogenate alkenes');
    expect(hit!.bbox).toHaveLength(4);
    // Whatever BM25 found is still there.
    for (const p of bm25) expect(fused.map((f) => f.text)).toContain(p.text);
  });

  it('returns nothing outside the chosen documents', async () => {
    const port = knowledgePort(db, { embeddings: embeddingClient(settingsFor(stub.url)) });
    const inChem = await port.search([chemId], 'radical polymerisation of styrene monomer', 8);
    expect(inChem.length).toBeGreaterThan(0);
    expect(inChem.every((p) => p.docId === chemId)).toBe(true);
    const [query] = await embeddingClient(settingsFor(stub.url)).embed(['radical polymerisation of styrene monomer']);
    const nearest = await vectorSearch(db, [chemId], query!, MODEL, 50);
    expect(nearest.complete).toBe(true);
    expect(nearest.hits.length).toBe(await chunkCount(db, chemId));
    expect(nearest.hits.every((p) => p.docId === chemId)).toBe(true);
    expect(await vectorSearch(db, [], query!, MODEL, 5)).toEqual({ hits: [], complete: false });
    const both = await port.search([chemId, polymerId], 'radical polymerisation of styrene monomer', 3);
    expect(both[0]).toMatchObject({ docId: polymerId, page: 1 });
  });

  it('falls back to BM25 when the question cannot be embedded (error, timeout, bad answer)', async () => {
    const bm25 = await search(db, [chemId], 'crystals of the product', 5);
    const port = knowledgePort(db, { embeddings: embeddingClient(settingsFor(stub.url)), queryTimeoutMs: 300 });
    for (const mode of ['error500', 'hang', 'notjson', 'huge'] as const) {
      stub.state.mode = mode;
      const got = await port.search([chemId], 'crystals of the product', 5);
      expect(got.map((p) => [p.docId, p.page, p.text]), mode).toEqual(bm25.map((p) => [p.docId, p.page, p.text]));
    }
    stub.state.mode = 'ok';
  });

  it('answers a question with citations to the chosen document while embeddings are on', async () => {
    const { channelId } = await ask(me, PARAPHRASE, { docIdList: [chemId] });
    const done = await until(
      () => me.get<{ items: Array<{ status: string; citations: unknown[] }> }>(`/api/v1/channel/questions/${channelId}`),
      (r) => r.body.data?.items?.[0]?.status === 'done',
    );
    const cited = done.body.data.items[0]!.citations;
    expect(cited.length).toBeGreaterThan(0);
    for (const c of cited) expect(c).toMatchObject({ docId: chemId, title: 'chemistry.pdf', page: expect.any(Number), bbox: expect.any(Array) });
    expect(JSON.stringify(done.body.data)).toContain(chemId);
  });

  it('copies the vectors of a file uploaded again instead of asking the service again', async () => {
    const before = stub.state.requests.length;
    const again = await uploadParsed(me, 'chemistry-again.pdf', chemistryPdf);
    await waitEmbedded(db, again);
    const original = await db.selectFrom('kb_chunk_vectors').select('vector').where('doc_id', '=', chemId).orderBy('chunk_id').execute();
    const copied = await db.selectFrom('kb_chunk_vectors').select('vector').where('doc_id', '=', again).orderBy('chunk_id').execute();
    expect(copied.map((r) => r.vector.toString('hex'))).toEqual(original.map((r) => r.vector.toString('hex')));
    expect(stub.state.requests.length).toBe(before);
  });

  it('shows embeddings and the model on the diagnostics page, never the key or address', async () => {
    const res = await me.get<Record<string, unknown>>('/api/v1/diagnostics');
    expect(res.body.data).toMatchObject({ embedding_model: MODEL, services: { embeddings: true } });
    const text = JSON.stringify(res.body);
    expect(text).not.toContain('sk-embed-very-secret');
    expect(text).not.toContain(stub.url);
  });
});

describe('when the embeddings service is down, misbehaves or is configured later', () => {
  let stub: Awaited<ReturnType<typeof startEmbeddingServer>>;
  let dataDir: string;
  let db: Db | undefined;
  const ids: Record<string, string> = {};
  let password: string;
  let email: string;

  beforeAll(async () => {
    stub = await startEmbeddingServer();
  });
  afterAll(async () => {
    await db?.destroy();
    await stub.close();
  });

  const signIn = async (server: TestServer) => {
    const client = server.client();
    const res = await client.post('/api/v1/auth/sign-in', { account: email, password });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return client;
  };

  it('parses and searches with BM25 when embeddings are not configured', async () => {
    const server = await startServer();
    dataDir = server.dataDir;
    try {
      const user = await signedInUser(server);
      email = user.email;
      password = user.password;
      ids.before = await uploadParsed(user.client, 'before.pdf', chemistryPdf);
    } finally {
      await server.close();
    }
  });

  it('still parses a document and searches it by BM25 when the service is down', async () => {
    const dead = await deadUrl();
    const server = await startServer(embeddingEnv(dead), dataDir);
    try {
      const client = await signIn(server);
      ids.down = await uploadParsed(client, 'down.pdf', polymerPdf);
      const local = await openTestDatabase(dataDir);
      try {
        // The attempt fails and is queued again for later, with the reason kept.
        const job = await until(
          () => local.selectFrom('jobs').selectAll().where('kind', '=', 'embed_document').where('error', 'is not', null).executeTakeFirst(),
          (j) => !!j,
        );
        expect(job!.error).toMatch(/unreachable/);
        expect(await vectorCount(local, ids.down)).toBe(0);
        const port = knowledgePort(local, { embeddings: embeddingClient(settingsFor(dead)) });
        const found = await port.search([ids.down], 'polymerisation of styrene', 3);
        expect(found[0]).toMatchObject({ docId: ids.down, page: 1 });
        const doc = await client.get<{ parseStatus: number }>(`${KB}/doc/${ids.down}`);
        expect(doc.body.data.parseStatus).toBe(2);
      } finally {
        await local.destroy();
      }
    } finally {
      await server.close();
    }
  });

  it('embeds documents parsed before or while it was unavailable once it is back', async () => {
    const server = await startServer(embeddingEnv(stub.url), dataDir);
    try {
      db = await openTestDatabase(dataDir);
      await waitEmbedded(db, ids.before!);
      await waitEmbedded(db, ids.down!);
    } finally {
      await server.close();
    }
  });

  it('retries a failed batch, and parses but leaves unembedded a document whose vectors are malformed', async () => {
    const server = await startServer(embeddingEnv(stub.url), dataDir);
    try {
      const client = await signIn(server);
      stub.state.failNext = 1;
      ids.retried = await uploadParsed(client, 'retried.pdf', makePdf([['Retry', 'Esterification of benzoic acid with methanol.']]));
      await waitEmbedded(db!, ids.retried);
      const job = await db!.selectFrom('jobs').selectAll().where('kind', '=', 'embed_document').where('payload', 'like', `%${ids.retried}%`).executeTakeFirstOrThrow();
      expect(job.attempts).toBe(2);

      stub.state.mode = 'wrongdims';
      ids.bad = await uploadParsed(client, 'bad.pdf', makePdf([['Bad vectors', 'Nitration of toluene gives nitrotoluene.'], ['More', 'Sulfonation of benzene.']]));
      const failed = await until(
        () => db!.selectFrom('jobs').select(['error']).where('kind', '=', 'embed_document').where('payload', 'like', `%${ids.bad}%`).where('error', 'is not', null).executeTakeFirst(),
        (j) => !!j,
      );
      expect(failed!.error).toMatch(/different sizes/);
      expect(await vectorCount(db!, ids.bad)).toBe(0);
      const doc = await client.get<{ parseStatus: number }>(`${KB}/doc/${ids.bad}`);
      expect(doc.body.data.parseStatus).toBe(2);
      // Documents not fully embedded are searched by BM25 alone, so the embedded one is not favoured.
      stub.state.mode = 'ok';
      const port = knowledgePort(db!, { embeddings: embeddingClient(settingsFor(stub.url)) });
      const mixed = await port.search([ids.bad, ids.retried], 'nitration of toluene', 3);
      const bm25 = await search(db!, [ids.bad, ids.retried], 'nitration of toluene', 3);
      expect(mixed.map((p) => p.text)).toEqual(bm25.map((p) => p.text));
      expect(mixed[0]).toMatchObject({ docId: ids.bad, page: 1 });
    } finally {
      stub.state.mode = 'ok';
      await server.close();
    }
  }, 60_000);
});
