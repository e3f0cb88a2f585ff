import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localizeMessage } from '../../../src/server/i18n';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { answerText, ask, readEvents } from '../answering-helpers';
import { KB } from '../knowledge-helpers';
import { testTools } from '../tool-stand-ins';

// Issue 32 §2: what the server writes into an English user's page is English — the answer the
// no-model engine writes after running tools (each tool's line), the question folder's name and a
// path id's refusal — while a Chinese user keeps the Chinese, as written before.
const HAN = /\p{Script=Han}/u;
const ASPIRIN = 'CC(=O)Oc1ccccc1C(=O)O';
const ASPIRIN_KEY = 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N';

let server: TestServer;
let zh: Client;
let en: Client;

beforeAll(async () => {
  server = await startServer({}, undefined, { tools: testTools() });
  zh = (await signedInUser(server)).client;
  en = (await signedInUser(server)).client;
  expect((await en.request('PUT', '/api/v1/auth/me/language', { body: { language: 'en' } })).status).toBe(200);
});
afterAll(async () => server?.close());

const answerOf = async (client: Client, question: string) => {
  const { questionId } = await ask(client, question);
  const { events } = await readEvents(client, questionId);
  expect(events.at(-1)).toMatchObject({ event: 'done' });
  return { text: answerText(events), tools: events.filter((e) => e.event === 'tool_call').map((e) => e.data.name) };
};

describe('the no-model answer after the tools it ran', () => {
  it('an ADMET question of an English user: the headline, each tool’s line and its result in English', async () => {
    const { text, tools } = await answerOf(en, 'What are the ADMET properties of aspirin?');
    expect(tools).toEqual(['name_to_smiles', 'admet']);
    expect(text).toContain('No language model is configured: the results below were computed by the tools, not summarised by a model.');
    expect(text).toContain('**Tool results**');
    expect(text).toContain(`Chemical name to SMILES: done, see the result card above. aspirin: SMILES ${ASPIRIN}, InChIKey ${ASPIRIN_KEY} (source: the built-in dictionary of drugs and reagents)`);
    expect(text).toMatch(/ADMET calculation: done, see the result card above\. \S+: Ghose \d.*; Veber \d.*; Egan \d.*; Muegge \d.*; lead-likeness \d/);
    expect(text).not.toMatch(HAN);
  });

  it('the same question of a Chinese user stays as it was written', async () => {
    const { text, tools } = await answerOf(zh, '阿司匹林的 ADMET 性质是什么？');
    expect(tools).toEqual(['name_to_smiles', 'admet']);
    expect(text).toContain('未配置大语言模型，以下结果由工具直接计算，未经模型归纳。');
    expect(text).toContain('**工具结果**');
    expect(text).toContain(`化学名转SMILES：已完成，详见上方结果卡片。阿司匹林：SMILES ${ASPIRIN}，InChIKey ${ASPIRIN_KEY}（来源：内置药物与试剂词典）`);
    expect(text).toMatch(/ADMET计算：已完成，详见上方结果卡片。\S+：Ghose \d.*；Veber \d.*；Egan \d.*；Muegge \d.*；先导化合物相似性 \d/);
  });

  it('a name → structure question in each language', async () => {
    const english = await answerOf(en, 'What is the structure of ibuprofen?');
    expect(english.tools).toEqual(['name_to_smiles']);
    expect(english.text).toMatch(/Chemical name to SMILES: done, see the result card above\. ibuprofen: SMILES \S+, InChIKey HEFNNWSXXWATRW-UHFFFAOYSA-N \(source: /);
    expect(english.text).not.toMatch(HAN);
    const chinese = await answerOf(zh, '布洛芬的结构式');
    expect(chinese.tools).toEqual(['name_to_smiles']);
    expect(chinese.text).toMatch(/化学名转SMILES：已完成，详见上方结果卡片。布洛芬：SMILES \S+，InChIKey HEFNNWSXXWATRW-UHFFFAOYSA-N（来源：/);
  });

  it('a name with no structure, and a structure search, for an English user', async () => {
    const missing = await answerOf(en, 'What is the structure of zorblaxamine?');
    expect(missing.tools).toEqual(['name_to_smiles']);
    expect(missing.text).toContain('No structure was found for “zorblaxamine”');
    expect(missing.text).not.toMatch(HAN);
    const search = await answerOf(en, 'Search molecules with the substructure c1ccccc1C(=O)O');
    expect(search.tools).toEqual(['intelligence_search']);
    expect(search.text).toMatch(/Intelligence database search: done, see the result card above\. Searched “.+” in the \d+ documents you may read\./);
    expect(search.text).not.toMatch(HAN);
  });
});

describe('server texts shown on pages', () => {
  it('names the question folder in the reader’s language (not stored: named when shown)', async () => {
    const zhFolder = await zh.get<{ name: string }>(`${KB}/get_folder/folder_for_question_channel`);
    expect(zhFolder.body.data.name).toBe('问答文件');
    const enFolder = await en.get<{ name: string }>(`${KB}/get_folder/folder_for_question_channel`);
    expect(enFolder.body.data.name).toBe('Files uploaded with questions');
  });

  it('refuses a blank id in the reader’s language', async () => {
    const zhRes = await zh.get(`${KB}/doc/%20/sar`);
    expect(zhRes.status).toBe(400);
    expect(zhRes.body.message).toBe('请提供编号');
    const enRes = await en.get(`${KB}/doc/%20/sar`);
    expect(enRes.status).toBe(400);
    expect(enRes.body.message).toBe('An id is required');
  });
});

describe('tools’ first lines in English (what the no-model answer quotes)', () => {
  it('keeps values and says the Chinese parts in English', () => {
    expect(localizeMessage('联网搜索“aspirin”找到 3 条结果：', 'en')).toBe('The web search for “aspirin” found 3 results:');
    expect(localizeMessage('联网搜索“aspirin”没有找到结果。', 'en')).toBe('The web search for “aspirin” found nothing.');
    expect(localizeMessage(`与结构 ${ASPIRIN} 相关的专利 2 件：`, 'en')).toBe(`2 patents related to the structure ${ASPIRIN}:`);
    expect(localizeMessage('未找到与“aspirin”相关的专利（部分来源失败：PubChem 检索失败）', 'en')).toBe('No patent related to “aspirin” was found (some sources failed: PubChem search failed)');
    expect(localizeMessage('《Aspirin》（example.org，https://example.org/a，抓取于 2026-01-02 03:04，PDF 共 3 页）', 'en')).toBe('“Aspirin” (example.org, https://example.org/a, read at 2026-01-02 03:04, a PDF of 3 pages)');
    expect(localizeMessage('运行完成（退出码 0，用时 1.2 秒）', 'en')).toBe('Run finished (exit code 0, 1.2 s)');
    expect(localizeMessage('任务 t1（对接：aspirin → 5DPV）：运行中，进度 40%', 'en')).toBe('Task t1 (docking: aspirin → 5DPV): running, 40% done');
    expect(localizeMessage('批次 b1（CDK2）：运行中，5 个分子中已完成 2 个、失败 1 个、排队 2 个。', 'en')).toBe('Batch b1 (CDK2): running, 2 of 5 molecules done, 1 failed, 2 queued.');
    expect(localizeMessage('SMILES 无效，找到 2 个可能的补全', 'en')).toBe('Invalid SMILES; 2 possible completions found');
    expect(localizeMessage('你还没有提交过后台任务。', 'en')).toBe('You have not submitted any background task yet.');
    // A Chinese reader gets the line as the tool wrote it.
    expect(localizeMessage('联网搜索“aspirin”找到 3 条结果：', 'zh')).toBe('联网搜索“aspirin”找到 3 条结果：');
  });
});
