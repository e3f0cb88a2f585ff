import { sql } from 'kysely';
import { engineOf, jsonText } from '../db/dialect';
import { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db, Executor } from '../db/database';
import { jobQueue, type Job } from '../jobs/queue';
import { jobRunner } from '../jobs/runner';
import { safeFetch, SafeFetchError } from '../net/safe-fetch';

/**
 * Optional embeddings (DESIGN §5): passages are embedded through any OpenAI-compatible
 * `POST {base}/embeddings` after parsing, stored as L2-normalised Float32 vectors per model, and a
 * question's vector ranks the chosen documents' passages by cosine similarity. Nothing here may
 * fail a parse or a question: without the service, retrieval is BM25 alone.
 */

export interface EmbeddingSettings {
  /** OpenAI-style base, e.g. `http://127.0.0.1:11434/v1`; `/embeddings` is appended. */
  baseUrl: string;
  apiKey?: string | undefined;
  model: string;
  dimensions?: number | undefined;
  batchSize: number;
  queryTimeoutMs: number;
}

/** The embedding settings of a configuration, or undefined when embeddings are off. */
export function embeddingSettings(config: Config): EmbeddingSettings | undefined {
  if (!config.EMBEDDING_BASE_URL || !config.EMBEDDING_MODEL) return undefined;
  return {
    baseUrl: config.EMBEDDING_BASE_URL,
    apiKey: config.EMBEDDING_API_KEY,
    model: config.EMBEDDING_MODEL,
    dimensions: config.EMBEDDING_DIMENSIONS,
    batchSize: config.EMBEDDING_BATCH_SIZE,
    queryTimeoutMs: config.EMBEDDING_QUERY_TIMEOUT_MS,
  };
}

export class EmbeddingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddingError';
  }
}

/** The most characters of one passage or question sent to the model (passages are ≤ ~2,100). */
const MAX_INPUT_CHARS = 4000;
/** Largest vector accepted from a model. */
const MAX_DIMS = 8192;
/** How long one indexing call may take. */
const BATCH_TIMEOUT_MS = 120_000;

const responseSchema = z.object({
  data: z
    .array(
      z.object({
        index: z.number().int().min(0).optional(),
        // `float` (the default) or `base64` (little-endian float32), both in the OpenAI format.
        embedding: z.union([z.array(z.number()).min(1).max(MAX_DIMS), z.string().min(1).max(MAX_DIMS * 6)]),
      }),
    )
    .min(1),
});

function toVector(embedding: number[] | string): Float32Array {
  if (typeof embedding !== 'string') return Float32Array.from(embedding);
  const bytes = Buffer.from(embedding, 'base64');
  if (bytes.length === 0 || bytes.length % 4 !== 0) throw new EmbeddingError('embedding service returned a malformed base64 vector');
  const out = new Float32Array(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

/** Scales a vector to unit length in place; throws for a zero or non-finite vector. */
export function normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  if (!Number.isFinite(sum) || sum === 0) throw new EmbeddingError('embedding service returned a zero or non-finite vector');
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i]! *= inv;
  return v;
}

export interface EmbeddingClient {
  readonly model: string;
  /** One vector per text, L2-normalised, in the texts' order. Throws EmbeddingError. */
  embed(texts: string[], timeoutMs?: number): Promise<Float32Array[]>;
}

/**
 * The client of the configured endpoint. Like the LLM client, it trusts the operator's address
 * (a local model on 127.0.0.1 or the LAN is the usual case); users never choose it.
 */
export function embeddingClient(settings: EmbeddingSettings, opts: { maxBytes?: number } = {}): EmbeddingClient {
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/embeddings`;
  return {
    model: settings.model,
    async embed(texts, timeoutMs = BATCH_TIMEOUT_MS) {
      if (!texts.length) return [];
      const input = texts.map((t) => (t.length > MAX_INPUT_CHARS ? t.slice(0, MAX_INPUT_CHARS) : t) || ' ');
      // ~12 bytes a number in JSON, with room to spare; at least 1 MiB.
      const maxBytes = opts.maxBytes ?? Math.max(1 << 20, texts.length * (settings.dimensions ?? 4096) * 24);
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
      const body = JSON.stringify({ model: settings.model, input, ...(settings.dimensions ? { dimensions: settings.dimensions } : {}) });
      let text: string;
      let status: number;
      try {
        // The operator's endpoint (like LLM_BASE_URL): any address; no redirect is followed.
        const res = await safeFetch(url, { policy: 'operator', method: 'POST', headers, body, timeoutMs, maxBytes });
        status = res.status;
        text = res.text();
      } catch (err) {
        if (!(err instanceof SafeFetchError)) throw err;
        if (err.code === 'timeout') throw new EmbeddingError(`embedding service timed out after ${timeoutMs} ms`);
        if (err.code === 'too_large') throw new EmbeddingError(`embedding service response too large (over ${maxBytes} bytes)`);
        throw new EmbeddingError(`embedding service unreachable: ${err.message}`);
      }
      if (status < 200 || status >= 300) throw new EmbeddingError(`embedding service answered HTTP ${status}: ${text.slice(0, 200)}`);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new EmbeddingError('embedding service answered with something other than JSON');
      }
      const parsed = responseSchema.safeParse(json);
      if (!parsed.success) throw new EmbeddingError('embedding service answered without data[].embedding in the OpenAI format');
      const rows = parsed.data.data;
      if (rows.length !== texts.length) throw new EmbeddingError(`embedding service returned ${rows.length} vectors for ${texts.length} texts`);
      const out: (Float32Array | undefined)[] = new Array<Float32Array | undefined>(texts.length);
      rows.forEach((row, position) => {
        const i = row.index ?? position;
        if (i >= texts.length || out[i]) throw new EmbeddingError('embedding service returned vectors with bad or repeated indices');
        out[i] = normalise(toVector(row.embedding));
      });
      const vectors = out.filter((v): v is Float32Array => v !== undefined);
      const dims = vectors[0]?.length ?? 0;
      if (vectors.length !== texts.length) throw new EmbeddingError('embedding service returned vectors with bad or repeated indices');
      if (settings.dimensions && dims !== settings.dimensions) throw new EmbeddingError(`embedding service returned ${dims} dimensions, ${settings.dimensions} configured`);
      if (vectors.some((v) => v.length !== dims)) throw new EmbeddingError('embedding service returned vectors of different sizes');
      return vectors;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Storage

const toBlob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

function fromBlob(b: Buffer): Float32Array {
  if (b.byteOffset % 4 === 0) return new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
  return new Float32Array(Uint8Array.from(b).buffer);
}

/** Passages of a document without a vector of this model (and size, when one is configured). */
function pendingChunks(db: Executor, docId: string, settings: EmbeddingSettings, limit: number) {
  return db
    .selectFrom('kb_chunks as c')
    .leftJoin('kb_chunk_vectors as v', (j) => {
      const on = j.onRef('v.chunk_id', '=', 'c.id').on('v.model', '=', settings.model);
      return settings.dimensions ? on.on('v.dims', '=', settings.dimensions) : on;
    })
    .select(['c.id', 'c.text'])
    .where('c.doc_id', '=', docId)
    .where('v.chunk_id', 'is', null)
    .orderBy('c.ordinal')
    .limit(limit)
    .execute();
}

/** Parsed documents with at least one passage lacking a vector of the current model. */
async function documentsToEmbed(db: Executor, settings: EmbeddingSettings): Promise<string[]> {
  const dims = settings.dimensions ? sql` and v.dims = ${settings.dimensions}` : sql``;
  const rows = await sql<{ doc_id: string }>`
    select d.id as doc_id from kb_documents d
    where d.parse_status = 2 and exists (
      select 1 from kb_chunks c where c.doc_id = d.id and not exists (
        select 1 from kb_chunk_vectors v where v.chunk_id = c.id and v.model = ${settings.model}${dims}))
    order by d.created_at`.execute(db);
  return rows.rows.map((r) => r.doc_id);
}

/** Stores vectors for passages that still exist (a re-parse may have replaced them meanwhile). */
async function storeVectors(db: Db, docId: string, model: string, rows: { chunkId: number; vector: Float32Array }[]) {
  if (!rows.length) return 0;
  return db.transaction().execute(async (tx) => {
    const alive = new Set(
      (await tx.selectFrom('kb_chunks').select('id').where('doc_id', '=', docId).where('id', 'in', rows.map((r) => r.chunkId)).execute()).map((r) => r.id),
    );
    const values = rows
      .filter((r) => alive.has(r.chunkId))
      .map((r) => ({ chunk_id: r.chunkId, doc_id: docId, model, dims: r.vector.length, vector: toBlob(r.vector) }));
    if (!values.length) return 0;
    await tx
      .insertInto('kb_chunk_vectors')
      .values(values)
      .onConflict((oc) => oc.column('chunk_id').doUpdateSet((eb) => ({ doc_id: eb.ref('excluded.doc_id'), model: eb.ref('excluded.model'), dims: eb.ref('excluded.dims'), vector: eb.ref('excluded.vector') })))
      .execute();
    return values.length;
  });
}

/**
 * The same file uploaded again (same bytes, so the same passages): its vectors are copied from the
 * copy embedded before instead of being asked for again. Returns how many were copied.
 */
async function copyFromTwins(db: Db, docId: string, settings: EmbeddingSettings): Promise<number> {
  const dims = settings.dimensions ? sql` and v.dims = ${settings.dimensions}` : sql``;
  const result = await sql`insert into kb_chunk_vectors (chunk_id, doc_id, model, dims, vector)
    select c.id, c.doc_id, v.model, v.dims, v.vector
    from kb_documents d
    join kb_documents t on t.sha256 = d.sha256 and t.id != d.id
    join kb_chunks c on c.doc_id = d.id
    join kb_chunks tc on tc.doc_id = t.id and tc.ordinal = c.ordinal and tc.text = c.text
    join kb_chunk_vectors v on v.chunk_id = tc.id and v.model = ${settings.model}${dims}
    where d.id = ${docId}
    on conflict (chunk_id) do nothing`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Embeds every passage of the document still missing a vector, batch by batch (each batch is
 * stored at once, so a retry resumes where the last attempt stopped).
 */
export async function embedDocument(db: Db, client: EmbeddingClient, settings: EmbeddingSettings, docId: string, heartbeat: () => Promise<void> = async () => {}) {
  let stored = await copyFromTwins(db, docId, settings);
  for (;;) {
    const batch = await pendingChunks(db, docId, settings, settings.batchSize);
    if (!batch.length) return stored;
    const vectors = await client.embed(batch.map((c) => c.text));
    const written = await storeVectors(db, docId, settings.model, batch.map((c, i) => ({ chunkId: c.id, vector: vectors[i]! })));
    // Nothing written means the passages were replaced meanwhile: the new ones are picked up next round,
    // or by a later job if the document went away.
    if (written === 0 && !(await db.selectFrom('kb_documents').select('id').where('id', '=', docId).executeTakeFirst())) return stored;
    stored += written;
    await heartbeat();
  }
}

// ---------------------------------------------------------------------------------------------
// Indexing jobs

export const EMBED_JOB = 'embed_document';
/** The payload key is not `docId`, so the parse pipeline's crash recovery never takes this job for a parse. */
export interface EmbedJobPayload {
  embedDocId: string;
}
/** How often parsed documents missing vectors are looked for (a model that was down, or configured later). */
const SWEEP_MS = 5 * 60_000;

function payloadOf(job: Job): EmbedJobPayload | undefined {
  try {
    const value: unknown = JSON.parse(job.payload);
    if (value && typeof value === 'object' && 'embedDocId' in value && typeof value.embedDocId === 'string') return { embedDocId: value.embedDocId };
  } catch {
    // fall through
  }
  return undefined;
}

export interface EmbeddingIndexer {
  /** Queues the document's passages for embedding (after a parse); never throws. */
  enqueue(docId: string): Promise<void>;
  /** Queues every parsed document missing vectors that has no embedding job yet. Returns how many. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Runs embedding jobs from the durable job queue, one at a time: retried with back-off when the
 * service fails, and swept for again every few minutes (documents parsed while it was down or
 * before it was configured). Start it after the parse pipeline has recovered the queue.
 */
export function startEmbeddingIndexer({ db, settings, log, client = embeddingClient(settings) }: { db: Db; settings: EmbeddingSettings; log: FastifyBaseLogger; client?: EmbeddingClient }): EmbeddingIndexer {
  const queue = jobQueue(db);
  const runner = jobRunner(
    db,
    log,
    {
      [EMBED_JOB]: async (job, { heartbeat }) => {
        const docId = payloadOf(job)?.embedDocId;
        if (!docId) throw new Error('bad embedding job payload');
        const stored = await embedDocument(db, client, settings, docId, heartbeat);
        if (stored) log.info({ docId, stored, model: settings.model }, 'passages embedded');
      },
    },
    { concurrency: 1, pollMs: 1000 },
  );

  const queued = async () =>
    new Set(
      (
        await sql<{ id: string | null }>`select ${jsonText(engineOf(db), 'payload', 'embedDocId')} as id from jobs
          where kind = ${EMBED_JOB} and state in ('queued', 'running')`.execute(db)
      ).rows.map((r) => r.id),
    );

  const sweep = async () => {
    const waiting = await queued();
    let n = 0;
    for (const docId of await documentsToEmbed(db, settings)) {
      if (waiting.has(docId)) continue;
      await queue.enqueue(EMBED_JOB, { embedDocId: docId } satisfies EmbedJobPayload, { maxAttempts: 5 });
      n++;
    }
    if (n) {
      log.info({ documents: n, model: settings.model }, 'documents queued for embedding');
      runner.wake();
    }
    return n;
  };

  let stopped = false;
  const sweepSafely = () => sweep().catch((err: unknown) => (log.warn({ err }, 'embedding sweep failed'), 0));
  const timer = setInterval(() => void sweepSafely(), SWEEP_MS);
  timer.unref();
  runner.start();
  void sweepSafely();

  return {
    async enqueue(docId) {
      if (stopped) return;
      try {
        if ((await queued()).has(docId)) return;
        await queue.enqueue(EMBED_JOB, { embedDocId: docId } satisfies EmbedJobPayload, { maxAttempts: 5 });
        runner.wake();
      } catch (err) {
        log.warn({ err, docId }, 'could not queue embedding');
      }
    },
    sweep,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await runner.stop();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Query

export interface VectorHit {
  chunkId: number;
  docId: string;
  page: number | null;
  bbox: [number, number, number, number] | null;
  text: string;
  /** Cosine similarity to the question. */
  score: number;
}

/** One document's vectors of one model as a matrix (row i is chunk ids[i]), with what it was read at. */
interface DocMatrix {
  count: number;
  maxId: number;
  dims: number;
  ids: Float64Array;
  matrix: Float32Array;
}

/** Bytes of vectors kept in memory per database (least recently used documents go first). */
const CACHE_BYTES = 256 * 1024 * 1024;
const caches = new WeakMap<Executor, { entries: Map<string, DocMatrix>; bytes: number }>();

function cacheOf(db: Executor) {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = { entries: new Map(), bytes: 0 }));
  return cache;
}

/** Reads one document's vectors, from memory when its vector count and newest id are unchanged. */
async function docMatrix(db: Executor, docId: string, model: string, dims: number, count: number, maxId: number): Promise<DocMatrix> {
  const cache = cacheOf(db);
  const key = `${model}\u0000${docId}`;
  const hit = cache.entries.get(key);
  if (hit && hit.count === count && hit.maxId === maxId && hit.dims === dims) {
    cache.entries.delete(key); // most recently used last
    cache.entries.set(key, hit);
    return hit;
  }
  if (hit) {
    cache.entries.delete(key);
    cache.bytes -= hit.matrix.byteLength;
  }
  const rows = await db
    .selectFrom('kb_chunk_vectors')
    .select(['chunk_id', 'vector'])
    .where('doc_id', '=', docId)
    .where('model', '=', model)
    .where('dims', '=', dims)
    .execute();
  const ids = new Float64Array(rows.length);
  const matrix = new Float32Array(rows.length * dims);
  rows.forEach((r, i) => {
    ids[i] = r.chunk_id;
    matrix.set(fromBlob(r.vector), i * dims);
  });
  const entry = { count, maxId, dims, ids, matrix };
  if (matrix.byteLength <= CACHE_BYTES / 4) {
    cache.entries.set(key, entry);
    cache.bytes += matrix.byteLength;
    for (const [k, old] of cache.entries) {
      if (cache.bytes <= CACHE_BYTES) break;
      cache.entries.delete(k);
      cache.bytes -= old.matrix.byteLength;
    }
  }
  return entry;
}

/** Dot product of row `row` of a matrix with a unit query vector. */
function rowDot(m: Float32Array, row: number, q: Float32Array): number {
  const dims = q.length;
  const base = row * dims;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const n = dims - (dims % 4);
  let i = 0;
  for (; i < n; i += 4) {
    s0 += m[base + i]! * q[i]!;
    s1 += m[base + i + 1]! * q[i + 1]!;
    s2 += m[base + i + 2]! * q[i + 2]!;
    s3 += m[base + i + 3]! * q[i + 3]!;
  }
  for (; i < dims; i++) s0 += m[base + i]! * q[i]!;
  return s0 + s1 + s2 + s3;
}

export interface VectorSearchResult {
  hits: VectorHit[];
  /**
   * Whether every passage of the documents has a vector of this model. Fusing a ranking that
   * covers only some documents would favour those (a document still waiting for its vectors would
   * lose to embedded ones), so callers search with BM25 alone until then.
   */
  complete: boolean;
}

/**
 * The k passages of the given documents closest to the question's vector (cosine), from the
 * stored vectors of the same model and size (kept in memory per document while unchanged). The
 * caller must have checked access to the documents.
 */
export async function vectorSearch(db: Executor, docIds: string[], query: Float32Array, model: string, k: number): Promise<VectorSearchResult> {
  if (!docIds.length || k <= 0) return { hits: [], complete: false };
  // Both counts come from indexes alone (chunk_id is the rowid, so part of every index).
  const [signatures, chunks] = await Promise.all([
    sql<{ doc_id: string; n: number; m: number }>`select doc_id, count(*) as n, max(chunk_id) as m from kb_chunk_vectors
      where doc_id in (${sql.join(docIds)}) and model = ${model} group by doc_id`.execute(db),
    sql<{ n: number }>`select count(*) as n from kb_chunks where doc_id in (${sql.join(docIds)})`.execute(db),
  ]);
  const vectors = signatures.rows.reduce((sum, r) => sum + r.n, 0);
  const complete = vectors > 0 && vectors >= (chunks.rows[0]?.n ?? 0);
  // Keep the best k in a small array sorted best-first.
  const best: { id: number; score: number }[] = [];
  for (const sig of signatures.rows) {
    const { ids, matrix } = await docMatrix(db, sig.doc_id, model, query.length, sig.n, sig.m);
    for (let row = 0; row < ids.length; row++) {
      const score = rowDot(matrix, row, query);
      if (best.length === k && score <= best[k - 1]!.score) continue;
      let at = best.length;
      while (at > 0 && best[at - 1]!.score < score) at--;
      best.splice(at, 0, { id: ids[row]!, score });
      if (best.length > k) best.pop();
    }
  }
  if (!best.length) return { hits: [], complete };
  const rows = new Map(
    (await db.selectFrom('kb_chunks').select(['id', 'doc_id', 'page', 'bbox', 'text']).where('id', 'in', best.map((b) => b.id)).execute()).map((c) => [c.id, c]),
  );
  const hits = best.flatMap((b) => {
    const c = rows.get(b.id);
    if (!c) return [];
    return [{ chunkId: c.id, docId: c.doc_id, page: c.page, bbox: c.bbox ? (JSON.parse(c.bbox) as [number, number, number, number]) : null, text: c.text, score: b.score }];
  });
  return { hits, complete };
}
