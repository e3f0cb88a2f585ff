import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A deterministic, purely lexical embedding for tests and the retrieval bench: character n-grams
 * (trigrams of each Latin word with boundary marks, single characters and bigrams of each Han
 * run) hashed into `dims` signed buckets (FNV-1a), log-scaled counts, L2-normalised. Words sharing
 * a stem ("catalysts" / "catalytic") land close, which BM25 over whole words cannot see; it knows
 * nothing of meaning, so figures with it show that the fusion pipeline works, not a model's quality.
 */
export function hashEmbedding(text: string, dims = 256): number[] {
  const counts = new Map<number, number>();
  const add = (gram: string) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < gram.length; i++) {
      h ^= gram.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    const bucket = h % dims;
    const sign = (h >>> 31) & 1 ? -1 : 1;
    counts.set(bucket, (counts.get(bucket) ?? 0) + sign);
  };
  const normalised = text.normalize('NFKC').toLowerCase();
  for (const word of normalised.match(/[a-z0-9]+/g) ?? []) {
    const w = `#${word}#`;
    for (let i = 0; i + 3 <= w.length; i++) add(w.slice(i, i + 3));
  }
  for (const run of normalised.match(/\p{Script=Han}+/gu) ?? []) {
    const chars = [...run];
    chars.forEach((c, i) => {
      add(c);
      if (i + 1 < chars.length) add(c + chars[i + 1]!);
    });
  }
  const v = new Array<number>(dims).fill(0);
  for (const [bucket, count] of counts) v[bucket] = Math.sign(count) * Math.log1p(Math.abs(count));
  const norm = Math.hypot(...v);
  if (norm === 0) return v.map((_, i) => (i === 0 ? 1 : 0)); // no n-gram at all: a fixed unit vector
  return v.map((x) => x / norm);
}

/** What the stub does with the next requests. */
export type EmbeddingMode = 'ok' | 'error500' | 'notjson' | 'wrongdims' | 'wrongcount' | 'repeatedindex' | 'notanobject' | 'huge' | 'hang' | 'shuffled';

/**
 * A small OpenAI-compatible embeddings server on 127.0.0.1 (an OS-picked port): POST
 * /v1/embeddings {model, input} → {data: [{index, embedding}]}. `mode` switches to a failure;
 * `failNext` fails that many calls with HTTP 500 first. Every request's inputs are recorded.
 */
export async function startEmbeddingServer(opts: { dims?: number; hugeBytes?: number } = {}) {
  const dims = opts.dims ?? 256;
  const state = { mode: 'ok' as EmbeddingMode, failNext: 0, requests: [] as { model: string; input: string[]; authorization?: string | undefined }[] };
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      let body: { model?: unknown; input?: unknown };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model?: unknown; input?: unknown };
      } catch {
        res.writeHead(400).end('bad json');
        return;
      }
      const input = Array.isArray(body.input) ? body.input.map(String) : [String(body.input)];
      state.requests.push({ model: String(body.model), input, authorization: req.headers.authorization });
      if (state.failNext > 0) {
        state.failNext--;
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"temporarily overloaded"}}');
        return;
      }
      const send = (data: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(data));
      const vectors = input.map((t) => hashEmbedding(t, dims));
      switch (state.mode) {
        case 'error500':
          res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"model crashed"}}');
          return;
        case 'notjson':
          res.writeHead(200, { 'content-type': 'text/html' }).end('<html>502 Bad Gateway</html>');
          return;
        case 'wrongdims':
          send({ object: 'list', data: vectors.map((v, index) => ({ object: 'embedding', index, embedding: index % 2 ? v.slice(0, dims / 2) : v })) });
          return;
        case 'wrongcount':
          send({ object: 'list', data: vectors.slice(1).map((embedding, index) => ({ object: 'embedding', index, embedding })) });
          return;
        case 'repeatedindex':
          send({ object: 'list', data: vectors.map((embedding) => ({ object: 'embedding', index: 0, embedding })) });
          return;
        case 'notanobject':
          send({ data: vectors.map(() => ({ embedding: 'not base64 floats!' })) });
          return;
        case 'huge': {
          // A valid-looking answer far larger than any real one; streamed without a length.
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"data":[{"index":0,"embedding":[');
          const piece = Buffer.from('0.1,'.repeat(16_384));
          let sent = 0;
          const limit = opts.hugeBytes ?? 64 * 1024 * 1024;
          const pump = () => {
            while (sent < limit && !res.destroyed) {
              sent += piece.length;
              if (!res.write(piece)) return void res.once('drain', pump);
            }
            if (!res.destroyed) res.end('0.1]}]}');
          };
          pump();
          return;
        }
        case 'hang':
          return; // never answers; the client's timeout must end it
        case 'shuffled':
          send({ object: 'list', data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })).reverse() });
          return;
        default:
          send({ object: 'list', model: body.model, data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })), usage: { prompt_tokens: 0, total_tokens: 0 } });
      }
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    dims,
    state,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A base URL on 127.0.0.1 where nothing listens (connections are refused). */
export async function deadUrl() {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}
