import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostZh } from '../../../src/host/locales';
import { hostEn } from '../../../src/host/locales-en';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { answerText, ask, readEvents, startFakeLlm } from '../answering-helpers';

// The home page's examples are questions this server answers. Without a language
// model they are questions the tools answer (a molecule's ADMET, a name's structure, a structure
// and a structure search); the ping says which set to offer.
let server: TestServer;
let alice: Client;

beforeAll(async () => {
  server = await startServer();
  alice = (await signedInUser(server)).client;
});
afterAll(async () => server?.close());

describe('with no model configured', () => {
  it('the ping says so', async () => {
    const ping = await alice.get<{ model: boolean }>('/api/v1/');
    expect(ping.body.data.model).toBe(false);
  });

  it.each([...hostZh.home.examples_local, ...hostEn.home.examples_local].map((q) => [q]))('the example “%s” is answered by the tools, not refused', async (question) => {
    const { questionId } = await ask(alice, question, { if_search_online: false });
    const { events } = await readEvents(alice, questionId);
    const text = answerText(events);
    expect(events.at(-1)).toMatchObject({ event: 'done' });
    expect(text).not.toContain('无法直接回答');
    const results = events.filter((e) => e.event === 'tool_result');
    // Every tool called succeeded; a question without a tool call listed its structure.
    for (const r of results) expect(r.data.ok, String(r.data.content)).toBe(true);
    expect(results.length > 0 || text.includes('**问题中的结构**')).toBe(true);
    expect(text).not.toMatch(/来源：(dictionary|opsin|pubchem)/);
    expect(text).not.toContain('未配置联网搜索服务');
  });

  it('a structure search runs the mode the question names on the structure it writes', async () => {
    const { questionId } = await ask(alice, hostZh.home.examples_local[3]!, { if_search_online: false });
    const { events } = await readEvents(alice, questionId);
    const call = events.find((e) => e.event === 'tool_call' && e.data.name === 'intelligence_search');
    expect(JSON.parse(String(call?.data.arguments))).toMatchObject({ structure: 'c1ccccc1C(=O)O', mode: 'substructure' });
  });
});

describe('with a model configured', () => {
  it('the ping says so (the home page offers the SPEC examples)', async () => {
    const llm = await startFakeLlm();
    const withModel = await startServer({ LLM_BASE_URL: llm.url, LLM_API_KEY: 'test-key', LLM_MODEL: 'chat-model' });
    try {
      const ping = await withModel.client().get<{ model: boolean }>('/api/v1/');
      expect(ping.body.data.model).toBe(true);
    } finally {
      await withModel.close();
      await llm.close();
    }
  });
});
