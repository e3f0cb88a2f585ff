import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config';
import { startServer, type TestServer } from '../helpers';

const portal = 'https://eln.example.com';

describe('CORS', () => {
  let server: TestServer;
  let webDir: string;
  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-web-'));
    fs.mkdirSync(path.join(webDir, 'widgets'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>CSAI</title>');
    fs.writeFileSync(path.join(webDir, 'widgets', 'csai.js'), 'export {};');
    fs.writeFileSync(path.join(webDir, 'assets', 'Status-abc123.js'), 'export {};');
    server = await startServer({ CSAI_CORS_ORIGINS: `${portal}, http://127.0.0.1:9999/`, CSAI_WEB_DIR: webDir });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  describe('when a page on another origin loads the embed script', () => {
    it('serves the loader and its chunks to any origin, without credentials', async () => {
      for (const file of ['/widgets/csai.js', '/assets/Status-abc123.js']) {
        const res = await fetch(server.url + file, { headers: { Origin: 'https://anywhere.example.org' } });
        expect(res.status).toBe(200);
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        expect(res.headers.get('access-control-allow-credentials')).toBeNull();
        expect(res.headers.get('content-type')).toMatch(/javascript/);
      }
    });

    it('does not open the site page itself to other origins', async () => {
      const res = await fetch(server.url + '/', { headers: { Origin: portal, Accept: 'text/html' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  describe('when an allowed portal calls the API', () => {
    it('answers with its origin and credentials allowed', async () => {
      const res = await fetch(`${server.url}/api/v1/`, { headers: { Origin: portal } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(portal);
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expect(res.headers.get('vary')).toMatch(/origin/i);
    });

    it('accepts an origin listed with a trailing slash', async () => {
      const res = await fetch(`${server.url}/api/v1/`, { headers: { Origin: 'http://127.0.0.1:9999' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:9999');
    });

    it('answers the preflight of a state-changing call with the CSRF headers allowed', async () => {
      const res = await fetch(`${server.url}/api/v1/auth/sign-in`, {
        method: 'OPTIONS',
        headers: { Origin: portal, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,x-csrf-token,x-requested-with' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(portal);
      expect(res.headers.get('access-control-allow-methods')).toMatch(/POST/);
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-csrf-token');
    });
  });

  describe('when another origin calls the API', () => {
    it('gets no CORS headers, so the browser withholds the answer', async () => {
      const res = await fetch(`${server.url}/api/v1/`, { headers: { Origin: 'https://evil.example.net' } });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    });

    it('gets no CORS headers on a preflight either', async () => {
      const res = await fetch(`${server.url}/api/v1/auth/sign-in`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://evil.example.net', 'Access-Control-Request-Method': 'POST' },
      });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('does not mistake a look-alike origin for an allowed one', async () => {
      const res = await fetch(`${server.url}/api/v1/`, { headers: { Origin: `${portal}.evil.net` } });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    });
  });
});

describe('CSAI_CORS_ORIGINS', () => {
  it('defaults to no origin', () => {
    expect(loadConfig({}).CSAI_CORS_ORIGINS).toEqual([]);
  });

  it('splits a comma-separated list and trims it', () => {
    expect(loadConfig({ CSAI_CORS_ORIGINS: ' https://a.example.com ,http://b.example.com:8443/,' }).CSAI_CORS_ORIGINS).toEqual([
      'https://a.example.com',
      'http://b.example.com:8443',
    ]);
  });

  it.each(['eln.example.com', 'https://eln.example.com/path', 'ftp://eln.example.com', '*'])('refuses %s with a message naming the variable', (value) => {
    expect(() => loadConfig({ CSAI_CORS_ORIGINS: value })).toThrow(/CSAI_CORS_ORIGINS.*https:\/\/host/);
  });
});
