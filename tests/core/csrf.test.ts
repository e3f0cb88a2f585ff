import { afterEach, describe, expect, it } from 'vitest';
import { csrfToken, readCookie } from '../../src/core/csrf';
import { fakeFetch, jsonResponse, restoreFetch } from '../fake-fetch';

function fakeServer(opts: { token?: string; setCookie?: () => void } = {}) {
  const server = fakeFetch((url) => {
    if (url.endsWith('/auth/csrf')) return jsonResponse(200, { success: true, data: { token: opts.token ?? 't.k' }, message: '' });
    opts.setCookie?.();
    return jsonResponse(200, {});
  });
  /** Each request's URL and credentials mode. */
  const calls = () => server.calls.map((c) => ({ url: c.url, credentials: c.init.credentials }));
  return { calls, fetch: server.fetch };
}

describe('csrfToken', () => {
  afterEach(restoreFetch);

  it('on the API’s own origin, uses the XSRF-TOKEN cookie without asking the server', async () => {
    const server = fakeServer();
    const token = await csrfToken('/api/v1', { fetch: server.fetch, cookies: () => 'a=1; XSRF-TOKEN=abc.def' });
    expect(token).toBe('abc.def');
    expect(server.calls()).toEqual([]);
  });

  it('on its own origin without the cookie, pings first so the server sets it', async () => {
    let jar = '';
    const server = fakeServer({ setCookie: () => (jar = 'XSRF-TOKEN=new.one') });
    const token = await csrfToken(`${location.origin}/api/v1`, { fetch: server.fetch, cookies: () => jar });
    expect(token).toBe('new.one');
    expect(server.calls()).toEqual([{ url: `${location.origin}/api/v1/`, credentials: 'same-origin' }]);
  });

  it('on another origin, where the cookie cannot be read, asks the server with credentials', async () => {
    const server = fakeServer({ token: 'cross.origin' });
    const token = await csrfToken('https://csai.example.com/api/v1', { fetch: server.fetch, cookies: () => 'XSRF-TOKEN=page-cookie' });
    expect(token).toBe('cross.origin');
    expect(server.calls()).toEqual([{ url: 'https://csai.example.com/api/v1/auth/csrf', credentials: 'include' }]);
  });

  it('gives an empty token, not an exception, when the server cannot be reached', async () => {
    const { fetch } = fakeFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await csrfToken('https://csai.example.com/api/v1', { fetch, cookies: () => '' })).toBe('');
    expect(await csrfToken('/api/v1', { fetch, cookies: () => '' })).toBe('');
  });

  it('reads cookies with encoded values and ignores look-alike names', () => {
    expect(readCookie('XSRF-TOKEN2=x; XSRF-TOKEN=a%2Eb', 'XSRF-TOKEN')).toBe('a.b');
    expect(readCookie('other=1', 'XSRF-TOKEN')).toBeUndefined();
  });
});
