import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { checkUrl, guardedLookup, isPublicAddress, networkFailure, SafeFetchError, type OutboundPolicy } from './safe-fetch';

/**
 * A WHATWG-`fetch`-shaped client over the same guards as `safeFetch` (DESIGN §9): for callers that
 * need other methods than GET or a streamed body (the MCP SDK's transports, JSON POST APIs). The
 * resolved address is checked at connect time; redirects are never followed (a 3xx is returned as
 * is); the body is streamed with a size cap.
 */
export type GuardedFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface GuardedFetchOptions {
  /** Where requests may go (default `public`), as for `safeFetch`. */
  policy?: OutboundPolicy;
  /** Which resolved addresses may be connected to, given the URL's host name, instead of the policy's (an allow-list). */
  isAllowed?: (address: string, family: 4 | 6, hostname: string) => boolean;
  /** Bytes of one response body at most (default 32 MiB); a longer body errors the stream. */
  maxBytes?: number;
  /** Milliseconds until the response headers arrive (default 30 s); the body is then bounded by `init.signal`. */
  headersTimeoutMs?: number;
}

const NULL_BODY = new Set([101, 204, 205, 304]);

/** Headers of `init` as a plain record (Headers, arrays of pairs or a record). */
function headerRecord(init: RequestInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

function bodyBuffer(body: RequestInit['body']): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  throw new SafeFetchError('invalid_url', '不支持的请求正文类型');
}

/** Builds the guarded fetch. */
export function guardedFetch(options: GuardedFetchOptions = {}): GuardedFetch {
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  const headersTimeoutMs = options.headersTimeoutMs ?? 30_000;
  const isAllowed = options.isAllowed ?? (options.policy === 'operator' ? () => true : (address: string, family: 4 | 6) => isPublicAddress(address, family));

  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      let url: URL;
      let payload: Buffer | undefined;
      try {
        const hostname = new URL(input).hostname.replace(/^\[|\]$/g, '');
        const allowed = (address: string, family: 4 | 6) => isAllowed(address, family, hostname);
        url = checkUrl(input, allowed);
        payload = bodyBuffer(init?.body);
        const headers = headerRecord(init);
        if (payload && !headers['content-length']) headers['content-length'] = String(payload.length);
        const signal = init?.signal ?? undefined;
        if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
        const client = url.protocol === 'https:' ? https : http;
        const req = client.request(url, {
          method: init?.method ?? 'GET',
          headers: { 'user-agent': 'CSAI/1.0', ...headers },
          lookup: guardedLookup(allowed),
          agent: false,
          ...(signal ? { signal } : {}),
        });
        const waiting = setTimeout(() => req.destroy(new SafeFetchError('timeout', '外部请求超时')), headersTimeoutMs);
        req.on('error', (err) => {
          clearTimeout(waiting);
          if (err instanceof SafeFetchError) reject(err);
          else if (signal?.aborted) reject(signal.reason instanceof Error ? signal.reason : err);
          else reject(new SafeFetchError('network', networkFailure(err)));
        });
        req.on('response', (res) => {
          clearTimeout(waiting);
          const status = res.statusCode ?? 0;
          const responseHeaders = new Headers();
          for (const [key, value] of Object.entries(res.headers)) {
            if (Array.isArray(value)) for (const v of value) responseHeaders.append(key, v);
            else if (value !== undefined) responseHeaders.set(key, value);
          }
          if (NULL_BODY.has(status) || (init?.method ?? 'GET') === 'HEAD') {
            res.resume();
            resolve(new Response(null, { status, statusText: res.statusMessage ?? '', headers: responseHeaders }));
            return;
          }
          // A web stream over the response by hand: Node 20's Readable.toWeb throws from a 'data'
          // handler once the reader has cancelled (the MCP SSE client does), which would crash the process.
          let size = 0;
          let finished = false;
          const body = new ReadableStream<Uint8Array>({
            start(controller) {
              const finish = (end: () => void) => {
                if (finished) return;
                finished = true;
                end();
              };
              res.on('data', (chunk: Buffer) => {
                if (finished) return;
                size += chunk.length;
                if (size > maxBytes) {
                  finish(() => controller.error(new SafeFetchError('too_large', `外部响应过大（超过 ${maxBytes} 字节）`)));
                  res.destroy();
                  return;
                }
                controller.enqueue(new Uint8Array(chunk));
                if ((controller.desiredSize ?? 1) <= 0) res.pause();
              });
              res.on('end', () => finish(() => controller.close()));
              res.on('error', (err) => finish(() => controller.error(signal?.aborted ? err : new SafeFetchError('network', networkFailure(err)))));
              res.on('close', () => finish(() => controller.error(new SafeFetchError('network', '外部请求失败：连接已关闭'))));
            },
            pull() {
              res.resume();
            },
            cancel() {
              finished = true;
              res.destroy();
            },
          });
          resolve(new Response(body, { status: status < 200 || status > 599 ? 502 : status, statusText: res.statusMessage ?? '', headers: responseHeaders }));
        });
        req.end(payload);
      } catch (err) {
        reject(err);
      }
    });
}

/**
 * An allow-list of intranet hosts (SPEC DESIGN §9): entries are host names (`mcp.corp.local`), IP
 * addresses or CIDR ranges (`10.1.0.0/16`). A URL whose host is listed, or whose address is in a
 * listed range, may reach a private address; every other address must be public.
 */
export function hostAllowList(entries: readonly string[]): (address: string, family: 4 | 6, hostname: string) => boolean {
  const names = new Set<string>();
  const ranges = new net.BlockList();
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const [base, prefix] = entry.split('/');
    const family = net.isIP(base ?? '');
    if (family && prefix !== undefined) ranges.addSubnet(base!, Number(prefix), family === 6 ? 'ipv6' : 'ipv4');
    else if (family) ranges.addAddress(base!, family === 6 ? 'ipv6' : 'ipv4');
    else names.add(entry);
  }
  return (address, family, hostname) =>
    isPublicAddress(address, family) || names.has(hostname.toLowerCase()) || ranges.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** Whether one allow-list entry is well formed (host name, IP address, or CIDR range). */
export function isAllowListEntry(entry: string): boolean {
  const [base, prefix, extra] = entry.split('/');
  if (extra !== undefined || !base) return false;
  const family = net.isIP(base);
  if (prefix !== undefined) {
    const n = Number(prefix);
    return family !== 0 && Number.isInteger(n) && n >= 0 && n <= (family === 6 ? 128 : 32);
  }
  return family !== 0 || /^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)*$/i.test(base);
}

/**
 * The address check of a guarded fetch on its own, before any protocol is spoken: the URL's
 * scheme and credentials, then every address its host resolves to. Callers whose client library
 * wraps a fetch's errors in its own (the MCP SDK's SSE transport says "SSE error: …") check first,
 * so a refused address is said as such whatever the transport.
 */
export function checkDestination(input: string | URL, isAllowed: (address: string, family: 4 | 6, hostname: string) => boolean): Promise<URL> {
  return new Promise<URL>((resolve, reject) => {
    let url: URL;
    let allowed: (address: string, family: 4 | 6) => boolean;
    try {
      const hostname = new URL(input).hostname.replace(/^\[|\]$/g, '');
      allowed = (address, family) => isAllowed(address, family, hostname);
      url = checkUrl(input, allowed);
    } catch (err) {
      reject(err instanceof SafeFetchError ? err : new SafeFetchError('invalid_url', `无效的网址：${String(input).slice(0, 200)}`));
      return;
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host)) return resolve(url);
    guardedLookup(allowed)(host, { all: true }, (err) => {
      if (err instanceof SafeFetchError) reject(err);
      else if (err) reject(new SafeFetchError('network', networkFailure(err)));
      else resolve(url);
    });
  });
}
