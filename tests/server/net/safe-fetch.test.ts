import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress, safeFetch, SafeFetchError } from '../../../src/server/net/safe-fetch';

const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(() => undefined, (e: unknown) => e);
  if (!(err instanceof SafeFetchError)) throw new Error(`expected a SafeFetchError, got ${String(err)}`);
  return err;
};

// A local server standing in for the internet; the tests that reach it widen the address policy.
let server: http.Server;
let base: string;
let hits = 0;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits++;
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/ok') return res.end('HEADER    PLANT PROTEIN                           30-APR-81   1CRN');
    if (url.pathname === '/to-private') return res.writeHead(302, { location: 'http://10.1.2.3/x' }).end();
    if (url.pathname === '/to-file') return res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    if (url.pathname === '/hop') {
      const n = Number(url.searchParams.get('n'));
      return n > 0 ? res.writeHead(302, { location: `/hop?n=${n - 1}` }).end() : res.end('landed');
    }
    if (url.pathname === '/big') return res.end(Buffer.alloc(5000, 'x'));
    if (url.pathname === '/big-chunked') {
      res.write(Buffer.alloc(3000, 'x'));
      return setTimeout(() => res.end(Buffer.alloc(3000, 'x')), 5);
    }
    if (url.pathname === '/slow') return setTimeout(() => res.end('late'), 2000);
    res.writeHead(404).end('nope');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const loopbackOnly = (address: string) => address === '127.0.0.1';

describe('address policy', () => {
  it.each(['127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255'])(
    'refuses IPv4 %s',
    (a) => expect(isPublicAddress(a)).toBe(false),
  );
  it.each(['::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '64:ff9b::a00:1'])(
    'refuses IPv6 %s',
    (a) => expect(isPublicAddress(a)).toBe(false),
  );
  // Every IPv6 form of a reserved IPv4 address, and the translation prefixes themselves.
  it.each([
    '::127.0.0.1', '::7f00:1', '::a00:1', '::a9fe:a9fe', '0:0:0:0:0:0:127.0.0.1', '::ffff:0:127.0.0.1', '::ffff:169.254.169.254',
    '64:ff9b::127.0.0.1', '64:ff9b::8.8.8.8', '64:ff9b:1::1', '2002:7f00:1::1', '2002:a00:1::1', '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:80ff:fffe', '2001::1', '::ffff:7f00:1%eth0', 'not-an-address',
  ])('refuses the IPv6 form %s', (a) => expect(isPublicAddress(a, 6)).toBe(false));
  it.each(['8.8.8.8', '1.1.1.1', '132.249.210.1', '2606:4700:4700::1111'])('allows public %s', (a) => expect(isPublicAddress(a)).toBe(true));
});

describe('safeFetch with the default policy', () => {
  it('refuses 127.0.0.1 without connecting', async () => {
    const before = hits;
    const err = await refusal(safeFetch(`${base}/ok`));
    expect(err.code).toBe('blocked_address');
    expect(err.message).toContain('127.0.0.1');
    expect(hits).toBe(before);
  });

  it.each([
    'http://localhost:1/',
    'http://[::1]:1/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::127.0.0.1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[2002:7f00:1::1]/',
    'http://10.0.0.1/',
  ])('refuses %s', async (url) => {
    expect((await refusal(safeFetch(url))).code).toBe('blocked_address');
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/x', 'gopher://example.com/', 'data:text/plain,hi', 'javascript:alert(1)'])('refuses the scheme of %s', async (url) => {
    expect((await refusal(safeFetch(url))).code).toBe('blocked_scheme');
  });

  it('refuses malformed URLs and URLs with credentials', async () => {
    expect((await refusal(safeFetch('not a url'))).code).toBe('invalid_url');
    expect((await refusal(safeFetch('http://user:pw@example.com/'))).code).toBe('invalid_url');
  });
});

describe('safeFetch mechanics (policy widened to this test server only)', () => {
  const opts = { isAllowedAddress: loopbackOnly };

  it('fetches a body', async () => {
    const res = await safeFetch(`${base}/ok`, opts);
    expect(res.status).toBe(200);
    expect(res.text()).toContain('1CRN');
  });

  it('says in Chinese why a connection failed, with Node\'s code', async () => {
    const err = await refusal(safeFetch('http://127.0.0.1:1/x', opts));
    expect(err.code).toBe('network');
    expect(err.message).toBe('外部请求失败：连接被拒绝（服务未运行或端口错误）（ECONNREFUSED）');
  });

  it('returns other statuses as they are', async () => {
    expect((await safeFetch(`${base}/missing`, opts)).status).toBe(404);
  });

  it('follows up to 5 redirects and refuses a sixth', async () => {
    const res = await safeFetch(`${base}/hop?n=5`, opts);
    expect(res.text()).toBe('landed');
    expect(res.url).toBe(`${base}/hop?n=0`);
    expect((await refusal(safeFetch(`${base}/hop?n=6`, opts))).code).toBe('too_many_redirects');
  });

  it('checks every redirect target', async () => {
    expect((await refusal(safeFetch(`${base}/to-private`, opts))).code).toBe('blocked_address');
    expect((await refusal(safeFetch(`${base}/to-file`, opts))).code).toBe('blocked_scheme');
  });

  it('checks the resolved address of a host name', async () => {
    const port = new URL(base).port;
    const onlyOther = (address: string) => address === '192.0.2.1';
    expect((await refusal(safeFetch(`http://localhost:${port}/ok`, { isAllowedAddress: onlyOther }))).code).toBe('blocked_address');
  });

  it('caps the size, declared or streamed', async () => {
    expect((await refusal(safeFetch(`${base}/big`, { ...opts, maxBytes: 1000 }))).code).toBe('too_large');
    expect((await refusal(safeFetch(`${base}/big-chunked`, { ...opts, maxBytes: 4000 }))).code).toBe('too_large');
    expect((await safeFetch(`${base}/big`, { ...opts, maxBytes: 5000 })).body.length).toBe(5000);
  });

  it('caps the time', async () => {
    expect((await refusal(safeFetch(`${base}/slow`, { ...opts, timeoutMs: 50 }))).code).toBe('timeout');
  });
});
