import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_MODEL_TOOLS } from '../../../src/server/answering/local-engine';
import { nameInQuestion } from '../../../src/server/answering/local-tools';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { CH, answerText, ask, readEvents, type SseEvent } from '../answering-helpers';
import { aspirinSdf, upload, waitParsed } from '../knowledge-helpers';
import { testTools } from '../tool-stand-ins';

// The local engine (no model) runs the tool a question plainly asks for. These tests run with the
// real tools once they are merged in (else small stand-ins under the same names): they check the
// dispatch — which tool, with which arguments, its events and the short text — not a tool's figures.
let server: TestServer;
let alice: Client;
let enabled: Set<string>;

beforeAll(async () => {
  server = await startServer({}, undefined, { tools: testTools() });
  alice = (await signedInUser(server)).client;
  const tools = await alice.get<Array<{ tools: Array<{ value: string; enabled: boolean }> }>>('/api/v1/tools');
  enabled = new Set(tools.body.data.flatMap((g) => g.tools).filter((t) => t.enabled).map((t) => t.value));
});
afterAll(async () => server?.close());

const calls = (events: SseEvent[]) => events.filter((e) => e.event === 'tool_call').map((e) => ({ name: e.data.name, arguments: JSON.parse(String(e.data.arguments)) as unknown }));
const results = (events: SseEvent[]) => events.filter((e) => e.event === 'tool_result').map((e) => e.data);

describe('the local engine runs the tool a question names', () => {
  it('a SMILES with "ADMET" → admet on that molecule, its result card and a short text', async () => {
    const { channelId, questionId } = await ask(alice, 'CC(=O)Oc1ccccc1C(=O)O 的ADMET性质');
    const { events } = await readEvents(alice, questionId);
    expect(calls(events)).toEqual([{ name: 'admet', arguments: { molecules: ['CC(=O)Oc1ccccc1C(=O)O'] } }]);
    const [result] = results(events);
    expect(result).toMatchObject({ call_id: 'local_1', name: 'admet', ok: true });
    expect(result!.data).toBeDefined();
    const text = answerText(events);
    expect(text).toContain(NO_MODEL_TOOLS);
    expect(text).toContain('ADMET计算：已完成');
    expect(events.at(-1)).toMatchObject({ event: 'done' });
    // After a reload the steps carry the same result, data included.
    const list = await alice.get<{ items: Array<{ steps: Array<Record<string, unknown>> }> }>(`${CH}/questions/${channelId}`);
    expect(list.body.data.items[0]!.steps.find((s) => s.type === 'tool_result')).toEqual({ type: 'tool_result', ...result });
  });

  it('honours the tools toggle: with tools off nothing is called', async () => {
    const { questionId } = await ask(alice, 'CCO 的ADMET性质', { tools_name: [] });
    const { events } = await readEvents(alice, questionId);
    expect(calls(events)).toEqual([]);
    expect(answerText(events)).not.toContain(NO_MODEL_TOOLS);
  });

  it('a question without a molecule or a tool word calls nothing', async () => {
    const { questionId } = await ask(alice, '今天天气怎么样？');
    const { events } = await readEvents(alice, questionId);
    expect(calls(events)).toEqual([]);
  });

  it('a broken SMILES → smiles_completion', async () => {
    const { questionId } = await ask(alice, '帮我补全 CC(=O)Oc1ccccc1C(=O');
    const { events } = await readEvents(alice, questionId);
    expect(calls(events)).toEqual([{ name: 'smiles_completion', arguments: { smiles: 'CC(=O)Oc1ccccc1C(=O' } }]);
    expect(results(events)[0]).toMatchObject({ name: 'smiles_completion', ok: true });
  });

  it('an attached SDF with "ADMET" → admet over its molecules', async () => {
    const up = await upload(alice, [{ name: 'aspirin.sdf', data: Buffer.from(aspirinSdf), type: 'chemical/x-mdl-sdfile' }]);
    const docId = up.body.data.name_id[0]!.docId;
    await waitParsed(alice, docId);
    const { questionId } = await ask(alice, '计算这些分子的ADMET', { docIdList: [docId] });
    const { events } = await readEvents(alice, questionId);
    const [call] = calls(events);
    expect(call?.name).toBe('admet');
    // The tool reads the attached SDF itself (names kept, its limit applied once).
    expect(call?.arguments).toEqual({ molecules: [] });
    expect(results(events)[0]).toMatchObject({ name: 'admet', ok: true });
  });

  it('a 200-molecule SDF: the first 50 are computed and the note says so (issue 32 §2)', async (t) => {
    if (!enabled.has('admet')) t.skip();
    const records = Array.from({ length: 200 }, (_, i) => aspirinSdf.replace('> <NAME>\nAspirin', `> <NAME>\nmol-${i + 1}`)).join('');
    const up = await upload(alice, [{ name: 'library-200.sdf', data: Buffer.from(records), type: 'chemical/x-mdl-sdfile' }]);
    const docId = up.body.data.name_id[0]!.docId;
    await waitParsed(alice, docId);
    const { questionId } = await ask(alice, '计算这些分子的ADMET性质', { docIdList: [docId] });
    const { events } = await readEvents(alice, questionId);
    const [result] = results(events) as Array<{ ok: boolean; content: string; data: { molecules: Array<{ name: string }>; notes: string[] } }>;
    expect(result!.ok, result!.content).toBe(true);
    expect(result!.data.molecules).toHaveLength(50);
    expect(result!.data.molecules[0]!.name).toBe('mol-1');
    expect(result!.data.notes).toEqual(['附带的 SDF 文件共有 200 个分子，单次最多计算 50 个，本次计算了其中 50 个。']);
  }, 120_000);

  it('"检索 …" → intelligence_search with the subject of the question', async () => {
    const { questionId } = await ask(alice, '检索 阿司匹林 的合成路线');
    const { events } = await readEvents(alice, questionId);
    expect(calls(events)).toEqual([{ name: 'intelligence_search', arguments: { query: '阿司匹林 的合成路线' } }]);
    expect(results(events)[0]).toMatchObject({ name: 'intelligence_search', ok: true });
  });

  it('a name with "ADMET" when names cannot be resolved: says so, invents no structure', async (t) => {
    if (enabled.has('name_to_smiles')) t.skip();
    const { questionId } = await ask(alice, '阿司匹林的ADMET性质');
    const { events } = await readEvents(alice, questionId);
    expect(calls(events)).toEqual([]);
    expect(answerText(events)).toContain('无法识别“阿司匹林”的结构');
  });

  it('a name with "ADMET" is resolved first (needs the name resolver)', async (t) => {
    if (!enabled.has('name_to_smiles')) t.skip();
    const { questionId } = await ask(alice, '阿司匹林的ADMET性质');
    const { events } = await readEvents(alice, questionId);
    const names = calls(events).map((c) => c.name);
    expect(names).toContain('admet');
    expect(results(events).find((r) => r.name === 'admet')).toMatchObject({ ok: true });
  });
});

describe('the name in a question', () => {
  it.each([
    ['阿司匹林的ADMET性质', '阿司匹林'],
    ['布洛芬的SMILES是什么？', '布洛芬'],
    ['What are the ADMET properties of imatinib?', 'imatinib'],
    ['计算ADMET', undefined],
  ])('%s → %s', (question, name) => {
    expect(nameInQuestion(question)).toBe(name);
  });
});
