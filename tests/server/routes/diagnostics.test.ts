import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type TestServer } from '../helpers';
import { SUITE_SERVER_ENV } from '../postgres-harness';

describe('GET /api/v1/diagnostics', () => {
  describe('with no optional service configured', () => {
    let server: TestServer;
    beforeAll(async () => { server = await startServer(); });
    afterAll(async () => { await server.close(); });

    it('refuses a signed-out visitor with 401', async () => {
      const res = await server.client().get('/api/v1/diagnostics');
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('请先登录');
    });

    // The database the suite runs on (this file also runs on PostgreSQL): what it says must be true.
    const kind = process.env[SUITE_SERVER_ENV] ? 'postgresql' : 'sqlite';

    it('tells a signed-in user the version, the local engine, the database and no services, but not where the data lives', async () => {
      const { client } = await signedInUser(server);
      const res = await client.get<Record<string, unknown>>('/api/v1/diagnostics');
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        version: 'test',
        answer_engine: 'local',
        llm_model: null,
        storage: { kind, data_dir: null },
        services: { smtp: false, llm: false, dev_outbox: false },
        mcp_path: '/mcp',
      });
      expect(JSON.stringify(res.body)).not.toContain(server.dataDir);
    });

    it('shows an administrator the data folder too', async () => {
      const { client, email } = await signedInUser(server);
      const db = server.sqlite();
      db.prepare('update users set is_admin = 1 where email = ?').run(email);
      db.close();
      const res = await client.get<{ storage: unknown }>('/api/v1/diagnostics');
      expect(res.body.data.storage).toEqual({ kind, data_dir: server.dataDir });
    });

    it('shows every tool of SPEC §9 with its state; one not usable says why', async () => {
      const { client } = await signedInUser(server);
      const res = await client.get<{ tools: Array<{ value: string; label: string; group: string; enabled: boolean; description: string }> }>('/api/v1/diagnostics');
      expect(res.body.data.tools).toHaveLength(10);
      const web = res.body.data.tools.find((t) => t.value === 'web_search')!;
      expect(web).toMatchObject({ label: '联网搜索', group: '检索', enabled: false });
      expect(web.description).toContain('不可用：');
    });
  });

  describe('with an LLM and SMTP configured', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer({
        LLM_BASE_URL: 'http://127.0.0.1:9/v1',
        LLM_API_KEY: 'sk-very-secret-key',
        LLM_MODEL: 'deepseek-chat',
        SMTP_URL: 'smtp://user:smtp-secret-pass@127.0.0.1:2525',
      });
    });
    afterAll(async () => { await server.close(); });

    it('names the OpenAI-compatible engine and model but never a secret', async () => {
      const { client } = await signedInUser(server);
      const res = await client.get<Record<string, unknown>>('/api/v1/diagnostics');
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ answer_engine: 'openai', llm_model: 'deepseek-chat', services: { smtp: true, llm: true } });
      const text = JSON.stringify(res.body);
      expect(text).not.toContain('sk-very-secret-key');
      expect(text).not.toContain('smtp-secret-pass');
      expect(text).not.toContain('127.0.0.1:9');
    });
  });
});
