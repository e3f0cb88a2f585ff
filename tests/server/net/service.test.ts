import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeFetch, SafeFetchError } from '../../../src/server/net/safe-fetch';
import { failover, ServiceError, serviceJson } from '../../../src/server/net/service';

// A configured service on this machine: what an operator's intranet mirror looks like to the server.
let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (path === '/ok') return json(200, { answer: 42 });
    if (path === '/missing') return json(404, { error: 'not found' });
    if (path === '/key') return json(401, { detail: { error: 'invalid API key' } });
    if (path === '/busy') return json(429, { error: 'slow down' });
    if (path === '/down') return json(503, {});
    if (path === '/moved') return res.writeHead(302, { location: '/ok' }).end();
    if (path === '/broken') return res.writeHead(500, { 'content-type': 'text/html' }).end('<html>oops</html>');
    if (path === '/text') return res.end('not json');
    if (path === '/slow') return setTimeout(() => json(200, {}), 2000);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const call = (path: string, extra: Partial<Parameters<typeof serviceJson>[0]> = {}) =>
  serviceJson({ service: '测试服务', url: `${base}${path}`, signal: new AbortController().signal, timeoutMs: 500, ...extra });
const failureOf = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);

describe('the outbound policy', () => {
  it('public (the default) refuses this machine; operator reaches it', async () => {
    await expect(safeFetch(`${base}/ok`)).rejects.toBeInstanceOf(SafeFetchError);
    await expect(safeFetch(`${base}/ok`, { policy: 'public' })).rejects.toMatchObject({ code: 'blocked_address' });
    expect((await safeFetch(`${base}/ok`, { policy: 'operator' })).status).toBe(200);
  });

  it('a service call is the operator policy unless told public', async () => {
    expect(await call('/ok')).toEqual({ answer: 42 });
    const refused = await failureOf(call('/ok', { policy: 'public' }));
    expect(refused).toBeInstanceOf(ServiceError);
    expect(refused).toMatchObject({ failure: 'network', message: expect.stringMatching(/^无法连接 测试服务：拒绝访问内网或保留地址/) });
  });
});

describe('one JSON call, one error type', () => {
  it.each([
    ['/key', 'unauthorized', '测试服务 拒绝了请求（401），请检查 API 密钥或服务设置：invalid API key'],
    ['/busy', 'rate_limited', '测试服务 请求过于频繁或额度已用完（429），请稍后再试'],
    ['/down', 'unavailable', '测试服务 暂时不可用（503），请稍后再试'],
    ['/moved', 'redirect', '测试服务 返回了重定向，请检查配置的服务地址'],
    ['/broken', 'http', '测试服务 返回错误（500）'],
    ['/text', 'malformed', '测试服务 返回的数据不是有效的 JSON'],
    ['/slow', 'timeout', '测试服务 请求超时（超过 1 秒）'],
  ] as const)('%s is a ServiceError (%s) naming the service in Chinese', async (path, failure, message) => {
    const err = await failureOf(call(path));
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ service: '测试服务', failure, message });
  });

  it('a status meaning "nothing found" is undefined, not an error', async () => {
    expect(await call('/missing', { emptyOn: [404] })).toBeUndefined();
  });

  it('a stop through the signal is the stop, not a service failure', async () => {
    const stop = new AbortController();
    const running = call('/slow', { signal: stop.signal, timeoutMs: 5000 });
    setTimeout(() => stop.abort(new Error('stopped by the user')), 50);
    await expect(running).rejects.toThrow('stopped by the user');
  });
});

describe('failover', () => {
  const signal = () => new AbortController().signal;

  it('answers from the first service that works, telling each failure', async () => {
    const told: string[] = [];
    const found = await failover(
      '检索',
      [
        { service: 'A', ask: () => call('/busy') },
        { service: 'B', ask: () => Promise.reject(new Error('boom')) },
        { service: 'C', ask: () => call('/ok') },
      ],
      signal(),
      (f) => told.push(f.message),
    );
    expect(found).toEqual({ service: 'C', index: 2, value: { answer: 42 } });
    expect(told).toEqual(['测试服务 请求过于频繁或额度已用完（429），请稍后再试', 'B 出错：boom']);
  });

  it('when all fail, one ServiceError names what was searched and each reason', async () => {
    const err = await failureOf(failover('检索', [{ service: 'A', ask: () => call('/down') }, { service: 'B', ask: () => call('/text') }], signal()));
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ failure: 'all_failed', message: '检索失败：测试服务 暂时不可用（503），请稍后再试；测试服务 返回的数据不是有效的 JSON' });
    expect((err as ServiceError).failures).toHaveLength(2);
  });
});

describe('in English', () => {
  it('a service failure is said in English for a user who chose English', async () => {
    const { localizeMessage } = await import('../../../src/server/i18n');
    const err = await failureOf(failover('文献检索', [{ service: 'PubMed', ask: () => call('/busy', { service: 'PubMed' }) }, { service: '博查', ask: () => call('/broken', { service: '博查' }) }], new AbortController().signal));
    expect(localizeMessage((err as Error).message, 'en')).toBe(
      'Literature search failed: PubMed got too many requests or its quota is used up (429); try again later; Bocha answered with an error (500)',
    );
    expect(localizeMessage('测试服务 请求超时（超过 5 秒）', 'en')).toBe('测试服务 did not answer within 5 s');
  });
});
