import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { llmFetch, nodeBody } from '../../../src/server/net/llm-fetch';
import { readSseData } from '../../../src/server/answering/openai-engine';

// The fetch the OpenAI SDK is given (the engine's tests drive it through the SDK); here its own
// contract against a real HTTP server on 127.0.0.1.
let server: http.Server;
let base: string;
const seen: Array<{ method: string; headers: http.IncomingHttpHeaders; body: string; socket: number }> = [];
const sockets = new WeakMap<object, number>();
let nextSocket = 0;
let release: (() => void) | undefined;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      if (!sockets.has(req.socket)) sockets.set(req.socket, ++nextSocket);
      seen.push({ method: req.method ?? '', headers: req.headers, body, socket: sockets.get(req.socket)! });
      switch (req.url) {
        case '/echo':
          res.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'r1' });
          return res.end(JSON.stringify({ method: req.method, body }));
        case '/error':
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
          return res.end('{"error":{"message":"rate limited"}}');
        case '/gzip':
          res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
          return res.end(zlib.gzipSync('data: 压缩的\n\n'));
        case '/sse':
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('data: {"n":1}\n\n');
          return setTimeout(() => res.end('data: [DONE]\n\n'), 5);
        case '/empty':
          res.writeHead(204);
          return res.end();
        case '/slow':
          // The first chunk now, the rest only when the test says so.
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('data: first\n\n');
          release = () => res.end('data: last\n\n');
          return;
        default:
          res.writeHead(404);
          res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const readAll = (body: NodeJS.ReadableStream) =>
  new Promise<string>((resolve, reject) => {
    let text = '';
    body.setEncoding('utf8');
    body.on('data', (c: string) => (text += c));
    body.on('end', () => resolve(text));
    body.on('error', reject);
  });

describe('llmFetch', () => {
  it('sends the method, headers and body, and answers with status, headers and the body both ways', async () => {
    const res = await llmFetch(`${base}/echo`, { method: 'POST', headers: new Headers({ authorization: 'Bearer k', 'content-type': 'application/json' }), body: '{"q":"中文"}' });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-request-id')).toBe('r1');
    expect(await res.json()).toEqual({ method: 'POST', body: '{"q":"中文"}' });
    const sent = seen.at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer k');
    expect(sent.headers['content-length']).toBe(String(Buffer.byteLength('{"q":"中文"}')));
    // No compression is asked for: it would hold a stream's chunks back.
    expect(sent.headers['accept-encoding']).toBeUndefined();

    const again = await llmFetch(`${base}/echo`, { method: 'POST', body: 'x' });
    expect(JSON.parse(await readAll(nodeBody(again)!))).toEqual({ method: 'POST', body: 'x' });
    // Kept alive: the second request went over the first one's connection.
    expect(seen.at(-1)!.socket).toBe(sent.socket);
  });

  it('hands an error status over with its body, for the SDK to read', async () => {
    const res = await llmFetch(`${base}/error`, { method: 'POST', body: '{}' });
    expect(res.ok).toBe(false);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.text()).toBe('{"error":{"message":"rate limited"}}');
  });

  it('streams the body as it arrives, before the server has ended it', async () => {
    const res = await llmFetch(`${base}/slow`, { method: 'POST', body: '{}' });
    const body = nodeBody(res)!;
    body.setEncoding('utf8');
    const first = await new Promise<string>((resolve) => body.once('data', resolve));
    expect(first).toBe('data: first\n\n');
    const rest = readAll(body);
    release!();
    expect(await rest).toBe('data: last\n\n');
  });

  it('reuses the connection of a stream read to [DONE]; one that goes on after a stop is dropped', async () => {
    const streamed = async () => {
      const got: string[] = [];
      await readSseData(nodeBody(await llmFetch(`${base}/sse`, { method: 'POST', body: '{}' }))!, (d) => (got.push(d), d !== '[DONE]'));
      return got;
    };
    expect(await streamed()).toEqual(['{"n":1}', '[DONE]']);
    const first = seen.at(-1)!.socket;
    await new Promise((resolve) => setTimeout(resolve, 50)); // the socket goes back to the pool at the body's end
    expect(await streamed()).toEqual(['{"n":1}', '[DONE]']);
    expect(seen.at(-1)!.socket).toBe(first);

    // /slow says nothing more after its first event: stopped there, its body is destroyed within a second.
    const body = nodeBody(await llmFetch(`${base}/slow`, { method: 'POST', body: '{}' }))!;
    await readSseData(body, () => false);
    expect(body.destroyed).toBe(false);
    await new Promise((resolve) => body.once('close', resolve));
    expect(body.readableEnded).toBe(false);
  });

  it('decodes a body the server compressed anyway', async () => {
    expect(await readAll(nodeBody(await llmFetch(`${base}/gzip`))!)).toBe('data: 压缩的\n\n');
    expect(await (await llmFetch(`${base}/gzip`)).text()).toBe('data: 压缩的\n\n');
  });

  it('gives a body-less status no body', async () => {
    const res = await llmFetch(`${base}/empty`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expect(nodeBody(res)).toBeUndefined();
  });

  it('rejects with an AbortError when aborted before the answer, and ends the body when aborted during it', async () => {
    const before = new AbortController();
    before.abort();
    await expect(llmFetch(`${base}/echo`, { signal: before.signal })).rejects.toMatchObject({ name: 'AbortError' });

    const during = new AbortController();
    const res = await llmFetch(`${base}/slow`, { method: 'POST', body: '{}', signal: during.signal });
    const reading = readAll(nodeBody(res)!);
    during.abort();
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    release!();
  });

  it('rejects what it cannot send without sending anything, and a refused connection as a fetch failure', async () => {
    const count = seen.length;
    await expect(llmFetch(new Request(`${base}/echo`))).rejects.toThrow(TypeError);
    await expect(llmFetch('ftp://127.0.0.1/x')).rejects.toThrow(/unsupported protocol/);
    await expect(llmFetch(`${base}/echo`, { method: 'POST', body: new FormData() })).rejects.toThrow(/string or byte bodies/);
    expect(seen.length).toBe(count);

    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(llmFetch(`http://127.0.0.1:${port}/`)).rejects.toThrow('fetch failed');
  });
});
