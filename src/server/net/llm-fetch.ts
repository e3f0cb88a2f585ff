import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * The `fetch` the OpenAI SDK is given: node:http(s) with keep-alive connections. The SDK builds,
 * times out, retries and maps errors exactly as with the built-in fetch; what differs is the body
 * of a streamed answer, which the engine reads through `nodeBody(response)` as a Node stream
 * ('data' events, one per network read). The built-in fetch (undici) hands it out as a web
 * ReadableStream, at several promises and buffer copies per chunk: with thousands of answers
 * streaming that was, after the socket writes to the browsers, the largest share of the server's
 * work per token. `response.body` still works (a web stream made on first read), so the SDK reads
 * error bodies as usual.
 *
 * Not done here, as no model API needs it: redirects are returned, not followed; request bodies
 * are strings or bytes (the SDK sends JSON). No compression is asked for (it delays a stream's
 * chunks); a server that compresses anyway is decoded.
 */
export const llmFetch: typeof fetch = (input, init = {}) =>
  new Promise<Response>((resolve, reject) => {
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return reject(abortReason(signal));
    let url: URL;
    let body: string | Uint8Array | undefined;
    try {
      if (input instanceof Request) throw new TypeError('llmFetch takes a URL and options, not a Request');
      url = new URL(String(input));
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`unsupported protocol ${url.protocol}`);
      body = requestBody(init.body);
    } catch (err) {
      return reject(err);
    }
    const headers = Object.fromEntries(new Headers(init.headers));
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const secure = url.protocol === 'https:';
    const req = (secure ? https : http).request(url, { method: init.method ?? 'GET', headers, agent: secure ? httpsAgent : httpAgent });
    let stream: Readable | undefined;
    const onAbort = () => {
      const reason = abortReason(signal!);
      stream?.destroy(reason);
      req.destroy(reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const release = () => signal?.removeEventListener('abort', onAbort);
    req.on('error', (err) => {
      release();
      // After the response started, the body stream carries the error to its reader.
      if (!stream) reject(signal?.aborted ? abortReason(signal) : new TypeError('fetch failed', { cause: err }));
    });
    req.on('response', (res) => {
      stream = decoded(res);
      stream.once('close', release);
      // Its reader listens for errors; until it does (or if nobody reads), one must not crash the process.
      stream.on('error', () => undefined);
      const responseHeaders = new Headers();
      for (let i = 0; i < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      const status = res.statusCode ?? 0;
      try {
        const response = new Response(NULL_BODY.has(status) ? null : webBody(stream), { status, statusText: res.statusMessage ?? '', headers: responseHeaders });
        if (NULL_BODY.has(status)) stream.resume();
        else nodeBodies.set(response, stream);
        resolve(response);
      } catch (err) {
        stream.destroy();
        reject(new TypeError('fetch failed: the response could not be read', { cause: err }));
      }
    });
    req.end(body);
  });

/** The body of a response from `llmFetch` as a Node stream (read it this way or through `body`, not both). */
export const nodeBody = (response: Response): Readable | undefined => nodeBodies.get(response);

const nodeBodies = new WeakMap<Response, Readable>();
const httpAgent = new http.Agent({ keepAlive: true });
const httpsAgent = new https.Agent({ keepAlive: true });
const NULL_BODY = new Set([101, 204, 205, 304]);

/** Why the request was aborted: the signal's reason, else an AbortError (which the SDK recognises). */
const abortReason = (signal: AbortSignal): Error => (signal.reason instanceof Error ? signal.reason : new DOMException('This operation was aborted', 'AbortError'));

function requestBody(body: RequestInit['body']): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (body instanceof URLSearchParams) return body.toString();
  throw new TypeError('llmFetch sends string or byte bodies only');
}

/** The response body, decompressed when the server compressed it. */
function decoded(res: http.IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip' ? zlib.createGunzip() : encoding === 'deflate' ? zlib.createInflate() : encoding === 'br' ? zlib.createBrotliDecompress() : undefined;
  if (!decoder) return res;
  res.on('error', (err) => decoder.destroy(err));
  return res.pipe(decoder);
}

/** A web stream over the Node stream, attached only when someone reads it (so it costs nothing otherwise). */
function webBody(stream: Readable): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        reader ??= (Readable.toWeb(stream) as ReadableStream<Uint8Array>).getReader();
        const { value, done } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: async (reason) => (reader ? reader.cancel(reason) : void stream.destroy()),
    },
    { highWaterMark: 0 },
  );
}
