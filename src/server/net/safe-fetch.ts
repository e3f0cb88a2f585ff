import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupFunction } from 'node:net';

/**
 * The one outbound HTTP client (DESIGN §9): http(s) only, at most 5 redirects, size and time caps,
 * and an explicit policy for where it may connect:
 * - `public` (the default): an address a user or a document gave. The resolved address is checked
 *   at connect time on every hop (no DNS rebinding between check and use); private, loopback,
 *   link-local, multicast and reserved ranges are refused.
 * - `operator`: a service the operator configured (search services, literature and patent APIs,
 *   the embedding endpoint), trusted like LLM_BASE_URL: it may be on the intranet or this machine.
 * `guardedFetch` (./guarded-fetch.ts) is the same client in the shape of WHATWG `fetch` for
 * libraries that take one; `llmFetch` (./llm-fetch.ts) the model API's keep-alive stream.
 * Calls of a service's JSON API go through ./service.ts.
 */

/** Whose address a request goes to: anyone's (public addresses only) or the operator's (any address). */
export type OutboundPolicy = 'public' | 'operator';

export type SafeFetchErrorCode = 'invalid_url' | 'blocked_scheme' | 'blocked_address' | 'too_many_redirects' | 'too_large' | 'timeout' | 'network';

export class SafeFetchError extends Error {
  constructor(
    readonly code: SafeFetchErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SafeFetchError';
  }
}

/** Node's network error codes, said in Chinese (the code kept for whoever debugs it). */
const NETWORK_REASONS: Record<string, string> = {
  ENOTFOUND: '找不到该主机名（域名无法解析）',
  EAI_AGAIN: '域名暂时无法解析',
  ECONNREFUSED: '连接被拒绝（服务未运行或端口错误）',
  ECONNRESET: '连接被对方重置',
  ETIMEDOUT: '连接超时',
  EHOSTUNREACH: '主机不可达',
  ENETUNREACH: '网络不可达',
  EPIPE: '连接已断开',
  CERT_HAS_EXPIRED: '对方的 HTTPS 证书已过期',
  DEPTH_ZERO_SELF_SIGNED_CERT: '对方使用自签名的 HTTPS 证书',
  SELF_SIGNED_CERT_IN_CHAIN: '对方的 HTTPS 证书链中有自签名证书',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: '无法验证对方的 HTTPS 证书',
  ERR_TLS_CERT_ALTNAME_INVALID: '对方的 HTTPS 证书与域名不符',
};

/** "外部请求失败：…" for a network error, in Chinese where Node gave a known code. */
export function networkFailure(err: Error & { code?: unknown }): string {
  const code = typeof err.code === 'string' ? err.code : '';
  const reason = NETWORK_REASONS[code];
  return `外部请求失败：${reason ? `${reason}（${code}）` : code ? `网络错误（${code}）` : '网络错误'}`;
}

export interface SafeFetchOptions {
  /** Bytes of the body at most (default 10 MiB). */
  maxBytes?: number;
  /** Milliseconds for the whole fetch, redirects included (default 15 s). */
  timeoutMs?: number;
  /** Redirects followed at most (default and upper bound 5). */
  maxRedirects?: number;
  headers?: Record<string, string>;
  /** Where the request may go (default `public`). */
  policy?: OutboundPolicy;
  /** Which resolved addresses may be connected to, instead of the policy's (tests narrow or widen it). */
  isAllowedAddress?: (address: string, family: 4 | 6) => boolean;
  /** GET (default) or POST with `body` (a JSON API); a POST follows no redirect. */
  method?: 'GET' | 'POST';
  body?: string;
  /** The caller's own stop (a tool call's signal); the time cap applies as well. */
  signal?: AbortSignal;
  /** Name resolution (default `dns.lookup`); tests give a stub that answers like a DNS server would. */
  resolve?: Resolver;
}

/** Resolves a host name to every address it has, as `dns.lookup` with `all: true` does. */
export type Resolver = (hostname: string, family: number | undefined, callback: (err: NodeJS.ErrnoException | null, addresses: Array<{ address: string; family: number }>) => void) => void;

const systemResolver: Resolver = (hostname, family, callback) => dns.lookup(hostname, { all: true, ...(family ? { family } : {}) }, callback);

export interface SafeFetchResponse {
  status: number;
  /** The final URL after redirects. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text(): string;
}

const blocked = new net.BlockList();
for (const [net4, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net4, prefix, 'ipv4');
for (const [net6, prefix] of [
  ['::', 128], ['::1', 128], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
  ['2001::', 23], ['2002::', 16],
] as const) blocked.addSubnet(net6, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail and `::` expanded); undefined if it is not one. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase().replace(/%.*$/, '');
  if (!net.isIPv6(text)) return undefined;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') as [string, string] : [text, undefined];
  const part = (s: string) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const groups = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 ? groups : undefined;
}

const v4Of = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');

/**
 * The IPv4 address an IPv6 address stands for, in every form a host may route to IPv4:
 * IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d (deprecated, some stacks still route it),
 * SIIT ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002:AABB:CCDD::/16 and Teredo 2001:0::/32 (its
 * client address stored inverted). `::` and `::1` themselves are handled as IPv6.
 */
function embeddedIpv4(groups: number[]): string | undefined {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const zero = (...gs: number[]) => gs.every((g) => g === 0);
  if (zero(g0, g1, g2, g3, g4) && g5 === 0xffff) return v4Of(g6, g7);
  if (zero(g0, g1, g2, g3) && g4 === 0xffff && g5 === 0) return v4Of(g6, g7);
  if (zero(g0, g1, g2, g3, g4, g5) && !(g6 === 0 && g7 <= 1)) return v4Of(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && zero(g2, g3, g4, g5)) return v4Of(g6, g7);
  if (g0 === 0x2002) return v4Of(g1, g2);
  if (g0 === 0x2001 && g1 === 0) return v4Of(g6 ^ 0xffff, g7 ^ 0xffff);
  return undefined;
}

/** True for a public unicast address; false for private, loopback, link-local, multicast, reserved. */
export function isPublicAddress(address: string, family: 4 | 6 = net.isIPv6(address) ? 6 : 4): boolean {
  if (family === 6) {
    const groups = ipv6Groups(address);
    if (!groups) return false;
    const v4 = embeddedIpv4(groups);
    // Every IPv6 form of an IPv4 address is judged as that address; the translation and
    // tunnelling ranges themselves stay refused below (a relay reached through them is not ours to judge).
    if (v4 && !isPublicAddress(v4, 4)) return false;
    // IPv4-compatible (deprecated) and SIIT forms are never a public host's address; NAT64's
    // local-use prefix 64:ff9b:1::/48 (RFC 8215) translates to whatever the site chooses.
    // (Not in the BlockList: its IPv6 rules on ::/96 would match every IPv4 address checked.)
    if (groups.slice(0, 6).every((g) => g === 0) || (groups.slice(0, 4).every((g) => g === 0) && groups[4] === 0xffff && groups[5] === 0)) return false;
    if (groups[0] === 0x64 && groups[1] === 0xff9b) return false;
    return !blocked.check(groups.map((g) => g.toString(16)).join(':'), 'ipv6');
  }
  return net.isIPv4(address) && !blocked.check(address, 'ipv4');
}

const refused = (address: string) => new SafeFetchError('blocked_address', `拒绝访问内网或保留地址：${address}`);

export function guardedLookup(allowed: (address: string, family: 4 | 6) => boolean, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    resolve(hostname, family, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses.filter((a) => a.family === 4 || a.family === 6);
      const bad = list.find((a) => !allowed(a.address, a.family === 6 ? 6 : 4));
      if (bad || list.length === 0) return callback(refused(bad?.address ?? hostname), '', 0);
      if (options.all) return callback(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}

export function checkUrl(raw: string | URL, allowed: (address: string, family: 4 | 6) => boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SafeFetchError('invalid_url', `无效的网址：${String(raw).slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SafeFetchError('blocked_scheme', `只允许 http 或 https 网址，拒绝 ${url.protocol.replace(/:$/, '')}`);
  }
  if (url.username || url.password) throw new SafeFetchError('invalid_url', '网址中不能包含用户名或密码');
  // Literal IP hosts skip DNS lookup, so they are checked here.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = net.isIP(host);
  if (family && !allowed(host, family === 6 ? 6 : 4)) throw refused(host);
  return url;
}

function once(url: URL, opts: Required<Pick<SafeFetchOptions, 'maxBytes' | 'isAllowedAddress' | 'resolve'>> & { headers: Record<string, string>; signal: AbortSignal; method: 'GET' | 'POST'; body?: string | undefined }) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: opts.method,
      headers: { 'user-agent': 'CSAI/1.0', accept: '*/*', ...opts.headers, ...(opts.body !== undefined ? { 'content-length': String(Buffer.byteLength(opts.body)) } : {}) },
      lookup: guardedLookup(opts.isAllowedAddress, opts.resolve),
      signal: opts.signal,
      agent: false,
    });
    req.on('error', (err) => {
      if (err instanceof SafeFetchError) reject(err);
      else if (opts.signal.aborted) reject(new SafeFetchError('timeout', '外部请求超时'));
      else reject(new SafeFetchError('network', networkFailure(err)));
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        res.resume();
        resolve({ status, headers: res.headers, body: Buffer.alloc(0) });
        return;
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        res.destroy();
        reject(new SafeFetchError('too_large', `外部响应过大（超过 ${opts.maxBytes} 字节）`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > opts.maxBytes) {
          res.destroy();
          reject(new SafeFetchError('too_large', `外部响应过大（超过 ${opts.maxBytes} 字节）`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', (err) => reject(opts.signal.aborted ? new SafeFetchError('timeout', '外部请求超时') : new SafeFetchError('network', networkFailure(err))));
    });
    req.end(opts.body);
  });
}

const anyAddress = () => true;

/** GET a URL through the guards above. Throws SafeFetchError; any HTTP status is returned as it is. */
export async function safeFetch(input: string | URL, options: SafeFetchOptions = {}): Promise<SafeFetchResponse> {
  const maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
  const isAllowedAddress = options.isAllowedAddress ?? (options.policy === 'operator' ? anyAddress : (a: string, f: 4 | 6) => isPublicAddress(a, f));
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 15_000);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const method = options.method ?? 'GET';
  const maxRedirects = method === 'POST' ? 0 : Math.min(options.maxRedirects ?? 5, 5);
  const resolve = options.resolve ?? systemResolver;
  let url = checkUrl(input, isAllowedAddress);
  for (let hop = 0; ; hop++) {
    if (signal.aborted) throw new SafeFetchError('timeout', '外部请求超时');
    const res = await once(url, { maxBytes, isAllowedAddress, resolve, headers: options.headers ?? {}, signal, method, body: options.body });
    const location = res.headers.location;
    if (res.status >= 300 && res.status < 400 && location) {
      if (hop >= maxRedirects) throw new SafeFetchError('too_many_redirects', `重定向次数过多（超过 ${maxRedirects} 次）`);
      url = checkUrl(new URL(location, url), isAllowedAddress);
      continue;
    }
    const body = res.body;
    return { status: res.status, url: url.href, headers: res.headers, body, text: () => body.toString('utf8') };
  }
}
