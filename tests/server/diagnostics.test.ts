import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type TestServer } from './helpers';

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

    it('tells a signed-in user the version, the local engine, SQLite storage and no services', async () => {
      const { client } = await signedInUser(server);
      const res = await client.get<Record<string, unknown>>('/api/v1/diagnostics');
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        version: 'test',
        answer_engine: 'local',
        llm_model: null,
        storage: { kind: 'sqlite', data_dir: server.dataDir },
        services: { smtp: false, llm: false, dev_outbox: true },
      });
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
