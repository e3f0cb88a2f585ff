import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config';
import { guardedFetch, hostAllowList, isAllowListEntry } from '../../../src/server/net/guarded-fetch';
import { SafeFetchError } from '../../../src/server/net/safe-fetch';

let server: http.Server;
let port = 0;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.url === '/echo') return res.writeHead(200, { 'content-type': 'application/json', 'x-seen': req.method ?? '' }).end(JSON.stringify({ method: req.method, body, type: req.headers['content-type'] }));
      if (req.url === '/redirect') return res.writeHead(302, { location: 'http://10.1.2.3/' }).end();
      if (req.url === '/big') return res.end(Buffer.alloc(5000, 'x'));
      if (req.url === '/empty') return res.writeHead(204).end();
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(() => undefined, (e: unknown) => e);
  if (!(err instanceof SafeFetchError)) throw new Error(`expected a SafeFetchError, got ${String(err)}`);
  return err;
};

describe('guardedFetch', () => {
  it('refuses loopback and private addresses by default, and non-http schemes', async () => {
    const fetch = guardedFetch();
    expect((await refusal(fetch(`http://127.0.0.1:${port}/echo`))).code).toBe('blocked_address');
    expect((await refusal(fetch(`http://localhost:${port}/echo`))).message).toMatch(/^拒绝访问内网或保留地址/);
    expect((await refusal(fetch('file:///etc/passwd'))).code).toBe('blocked_scheme');
  });

  it('with the allow-list: POSTs a body, streams the answer, keeps headers; never follows a redirect', async () => {
    const fetch = guardedFetch({ isAllowed: hostAllowList(['127.0.0.1']) });
    const res = await fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-seen')).toBe('POST');
    expect(await res.json()).toEqual({ method: 'POST', body: '{"a":1}', type: 'application/json' });
    const moved = await fetch(`http://127.0.0.1:${port}/redirect`);
    expect(moved.status).toBe(302);
    expect((await fetch(`http://127.0.0.1:${port}/empty`)).status).toBe(204);
  });

  it('the operator policy reaches a configured service on this machine', async () => {
    const res = await guardedFetch({ policy: 'operator' })(`http://127.0.0.1:${port}/echo`);
    expect(await res.json()).toMatchObject({ method: 'GET' });
    expect((await refusal(guardedFetch({ policy: 'public' })(`http://127.0.0.1:${port}/echo`))).code).toBe('blocked_address');
  });

  it('caps the body', async () => {
    const fetch = guardedFetch({ isAllowed: () => true, maxBytes: 1000 });
    const res = await fetch(`http://127.0.0.1:${port}/big`);
    await expect(res.text()).rejects.toThrow('外部响应过大');
  });

  it('the allow-list takes host names, addresses and CIDR ranges; everything else must be public', () => {
    const allowed = hostAllowList(['mcp.corp.local', '10.1.0.0/16', '192.168.1.5']);
    expect(allowed('10.9.9.9', 4, 'mcp.corp.local')).toBe(true);
    expect(allowed('10.1.2.3', 4, 'other.local')).toBe(true);
    expect(allowed('192.168.1.5', 4, 'x')).toBe(true);
    expect(allowed('192.168.1.6', 4, 'x')).toBe(false);
    expect(allowed('8.8.8.8', 4, 'dns.google')).toBe(true);
    expect(['mcp.corp.local', '10.0.0.0/8', '::1', 'fd00::/8'].every(isAllowListEntry)).toBe(true);
    expect(['10.0.0.0/33', 'a/b/c', '-bad-', ''].some(isAllowListEntry)).toBe(false);
    expect(loadConfig({ CSAI_MCP_ALLOWED_HOSTS: ' mcp.corp.local , 10.1.0.0/16' }).CSAI_MCP_ALLOWED_HOSTS).toEqual(['mcp.corp.local', '10.1.0.0/16']);
    expect(() => loadConfig({ CSAI_MCP_ALLOWED_HOSTS: '10.0.0.0/33' })).toThrow(/CSAI_MCP_ALLOWED_HOSTS/);
  });
});
