import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import { Client, signedInUser, startServer, type TestServer } from '../helpers';
import { KB } from '../knowledge-helpers';
import { suiteOnPostgres, testDatabaseUrl } from '../postgres-harness';

// The vulnerability classes of tests/security/README.md that no other suite proves.
let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startServer();
  ({ client } = await signedInUser(server));
});
afterAll(() => server.close());

interface Folder {
  id: string;
  name: string;
}

describe('SQL injection', () => {
  it('SQL in names, search terms and ids is stored and matched as text: every table stays whole', async () => {
    const tables = () => {
      const db = server.sqlite();
      try {
        const tables = suiteOnPostgres() ? `select tablename as name from pg_tables where schemaname = 'public' order by name` : `select name from sqlite_master where type = 'table' order by name`;
        return (db.prepare(tables).all() as Array<{ name: string }>).map((t) => t.name);
      } finally {
        db.close();
      }
    };
    const before = tables();
    const evil = `a'); drop table kb_folders; --`;
    const made = await client.post<Folder>(`${KB}/folder`, { name: evil });
    expect(made.status).toBe(200);
    expect(made.body.data.name).toBe(evil);
    await client.post<Folder>(`${KB}/folder`, { name: 'plain' });
    // A search is literal: quotes, OR 1=1 and LIKE wildcards find only names that hold them.
    for (const [search, expected] of [
      [`' or '1'='1`, []],
      ['%', []],
      ['_', [evil]], // the name holds kb_folders; as a LIKE wildcard it would match 'plain' too
      [`drop table`, [evil]],
    ] as const) {
      const res = await client.get<{ items: Folder[] }>(`${KB}/folder?search=${encodeURIComponent(search)}`);
      expect(res.status, search).toBe(200);
      expect(res.body.data.items.map((f) => f.name), search).toEqual(expected);
    }
    // SQL as an id is an unknown id.
    for (const id of [`' or '1'='1`, `1; drop table users`, `x' union select * from users --`]) {
      const res = await client.get(`${KB}/doc/${encodeURIComponent(id)}`);
      expect([400, 404], id).toContain(res.status);
    }
    expect(tables()).toEqual(before);
  });
});

describe('reflected XSS', () => {
  it('echoes request text only inside JSON: every refusal and unknown path is application/json, never a page', async () => {
    const payload = '<script>alert(1)</script><img src=x onerror=alert(1)>';
    const urls = [
      `/api/v1/${encodeURIComponent(payload)}`,
      `${KB}/doc/${encodeURIComponent(payload)}`,
      `${KB}/folder?search=${encodeURIComponent(payload)}&page=${encodeURIComponent(payload)}`,
      `/api/v1/search_person_department?keyword=${encodeURIComponent(payload)}`,
      `/api/v1/mol/get_pdb_string?pdb_id=${encodeURIComponent(payload)}`,
    ];
    for (const url of urls) {
      const res = await client.get(url);
      expect(res.status, url).toBeLessThan(500);
      expect(res.headers.get('content-type'), url).toMatch(/^application\/json/);
    }
    const posted = await client.post('/api/v1/auth/sign-in', { account: payload, password: payload });
    expect(posted.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('prototype pollution', () => {
  it('refuses __proto__ and constructor.prototype in JSON bodies with 400, and Object.prototype stays clean', async () => {
    const bodies = [
      '{"__proto__": {"polluted": "yes"}, "name": "x"}',
      '{"name": "x", "constructor": {"prototype": {"polluted": "yes"}}}',
      '{"question": "q", "channel_id": "c", "__proto__": {"is_admin": 1, "polluted": "yes"}}',
    ];
    for (const route of [`${KB}/folder`, '/api/v1/channel', '/api/v1/channel/init_questions', '/api/v1/auth/sign-in']) {
      for (const body of bodies) {
        const res = await client.post(route, body);
        expect(res.status, `${route} ${body}`).toBe(400);
      }
    }
    // Query strings: bracket keys are not expanded into objects.
    const q = await client.get(`${KB}/folder?__proto__[polluted]=yes&constructor[prototype][polluted]=yes`);
    expect(q.status).toBeLessThan(500);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.prototype).not.toHaveProperty('is_admin');
  });
});

describe('log injection', () => {
  it('writes every request as one JSON line: a newline and a forged record in a URL or a field stay inside their string', async () => {
    const lines: string[] = [];
    let pending = '';
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        pending += chunk.toString();
        const parts = pending.split('\n');
        pending = parts.pop() ?? '';
        lines.push(...parts);
        done();
      },
    });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-log-'));
    const databaseUrl = await testDatabaseUrl(dataDir);
    const config = loadConfig({ ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), CSAI_DATA_DIR: dataDir, CSAI_WEB_DIR: path.join(dataDir, 'no-web'), CSAI_PASSWORD_COST: '12', CSAI_TRUST_PROXY: '1', PORT: '0' });
    const app = await buildApp({ config, version: 'test', logger: { level: 'info', stream } });
    try {
      const forged = '\n{"level":60,"msg":"forged","time":0}\r\n';
      await app.inject({ method: 'GET', url: `/api/v1/${encodeURIComponent(forged)}` });
      await app.inject({ method: 'GET', url: `/api/v1/knowledge_base/doc/${encodeURIComponent(forged)}` });
      await app.inject({ method: 'GET', url: '/api/v1/', headers: { 'user-agent': 'x\u2028{"msg":"forged"}' } });
      await app.inject({ method: 'POST', url: '/api/v1/auth/sign-in', headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' }, payload: JSON.stringify({ account: forged, password: forged }) });
    } finally {
      await app.close();
    }
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) {
      const record = JSON.parse(line) as { msg?: string; level?: number };
      expect(record.msg).not.toBe('forged');
    }
    expect(lines.some((l) => l.includes('forged'))).toBe(true); // the text is there, as data
  });
});

describe('ReDoS and unbounded input', () => {
  it('every string a route accepts has a length limit, so no pattern or parser sees more than that', async () => {
    const doc = (await server.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as OpenApi;
    const unbounded: string[] = [];
    const walk = (schema: Schema | undefined, where: string): void => {
      if (!schema) return;
      if (schema.$ref) return walk(doc.components?.schemas?.[schema.$ref.split('/').pop() ?? ''], where);
      const types = [schema.type].flat();
      if (types.includes('string') && schema.maxLength === undefined && !schema.enum && schema.const === undefined) unbounded.push(where);
      for (const list of [schema.anyOf, schema.oneOf, schema.allOf]) list?.forEach((s, i) => walk(s, `${where}|${i}`));
      if (schema.items) walk(schema.items, `${where}[]`);
      for (const [k, v] of Object.entries(schema.properties ?? {})) walk(v, `${where}.${k}`);
      if (typeof schema.additionalProperties === 'object') walk(schema.additionalProperties, `${where}.*`);
    };
    let strings = 0;
    const count = (s: Schema | undefined) => JSON.stringify(s ?? {}).split('"string"').length - 1;
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const param of op.parameters ?? []) {
          walk(param.schema, `${method.toUpperCase()} ${p} ${param.in} ${param.name}`);
          strings += count(param.schema);
        }
        const body = op.requestBody?.content?.['application/json']?.schema;
        walk(body, `${method.toUpperCase()} ${p} body`);
        strings += count(body);
      }
    }
    expect(strings).toBeGreaterThan(50);
    expect(unbounded).toEqual([]);
  });
});

interface Schema {
  $ref?: string;
  type?: string | string[];
  maxLength?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
}
interface OpenApi {
  paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string; schema?: Schema }>; requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
  components?: { schemas?: Record<string, Schema> };
}
