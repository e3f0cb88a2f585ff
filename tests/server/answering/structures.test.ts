import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Citation } from '../../../src/contract/channel';
import type { AnswerInput, AnswerSink } from '../../../src/server/answering/engine';
import { localEngine, NO_MODEL_LINE, NO_MODEL_NO_SOURCES, NO_MODEL_STRUCTURES } from '../../../src/server/answering/local-engine';
import { questionStructures } from '../../../src/server/answering/question-structures';
import { createChemService } from '../../../src/server/chem/service';
import { createToolRegistry } from '../../../src/server/tools/registry';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { CH, answerText, ask, readEvents } from '../answering-helpers';

// The local engine (no language model) shows the structures written in a question, checked by RDKit.
let server: TestServer;
let alice: Client;
const chem = createChemService({ workers: 1 });

beforeAll(async () => {
  server = await startServer();
  alice = (await signedInUser(server, { name: 'Alice' })).client;
});
afterAll(async () => {
  await server?.close();
  await chem.close();
});

const answerOf = async (question: string) => {
  const { questionId, channelId } = await ask(alice, question);
  const { events } = await readEvents(alice, questionId);
  const list = await alice.get<{ items: Array<{ status: string }> }>(`${CH}/questions/${channelId}`);
  return { text: answerText(events), status: list.body.data.items[0]!.status };
};

describe('structures in the question, with no document chosen', () => {
  it('lists a drawn structure with its canonical SMILES, formula and heavy atoms, keeping the no-model line', async () => {
    // Aspirin as Ketcher writes it (Kekulé form).
    const { text, status } = await answerOf('CC(=O)OC1=CC=CC=C1C(O)=O 的作用机制是什么？');
    expect(status).toBe('done');
    const lines = text.split('\n');
    // Never "无法直接回答" before an answer: the headline says the structure is RDKit's reading.
    expect(lines[0]).toBe(NO_MODEL_STRUCTURES);
    expect(text).not.toContain('无法直接回答');
    expect(text).toContain('**问题中的结构**');
    expect(text).toContain('- 分子式 C9H8O4，重原子 13 个（问题中写作 CC\\(\\=O\\)OC1\\=CC\\=CC\\=C1C\\(O\\)\\=O），规范 SMILES：`CC(=O)Oc1ccccc1C(=O)O`');
    expect(text).toContain('请在输入框的“文件”或“知识库”标签中选择文档后再提问');
  });

  it('lists several structures once each, in the order written', async () => {
    const { text } = await answerOf('比较 c1ccccc1、CCO 和 C1=CC=CC=C1 与乙醇 OCC');
    const listed = [...text.matchAll(/^- .*`([^`]+)`$/gm)].map((m) => m[1]);
    expect(listed).toEqual(['c1ccccc1', 'CCO']);
  });

  it('ignores words, acronyms and formulas that are not structures', async () => {
    const { text } = await answerOf('What is the IC50 of CNS drugs measured by HPLC and NMR in H2O or CO2? Is PCB toxic?');
    expect(text.split('\n')[0]).toBe(NO_MODEL_NO_SOURCES);
    expect(text).not.toContain('问题中的结构');
    expect(text).not.toContain('`');
  });

  it('ignores SMILES-like tokens RDKit refuses (pentavalent carbon, a five-membered benzene, an open branch)', async () => {
    const { text, status } = await answerOf('CC(C)(C)(C)(C)C 和 c1cccc1 还有 C1CC(( 以及 CCN');
    expect(status).toBe('done');
    const listed = [...text.matchAll(/^- .*`([^`]+)`$/gm)].map((m) => m[1]);
    expect(listed).toEqual(['CCN']);
  });

  it('answers a 20,000-character question full of candidates without stalling, listing at most five', async () => {
    const words = Array.from({ length: 2500 }, (_, i) => `C${'C'.repeat(i % 40)}O`);
    const question = `${words.join(' ')} ${'C'.repeat(600)}`.slice(0, 20_000);
    expect(question.length).toBe(20_000);
    const { text, status } = await answerOf(question);
    expect(status).toBe('done');
    const listed = [...text.matchAll(/^- .*`([^`]+)`$/gm)].map((m) => m[1]);
    expect(listed).toEqual(['CCO', 'CCCO', 'CCCCO', 'CCCCCO', 'CCCCCCO']);
  });
});

describe('the local engine with passages', () => {
  const sinkFor = () => {
    const out = { text: '', citations: [] as Citation[] };
    const sink: AnswerSink = {
      notice: () => {},
      thinking: () => {},
      delta: (t) => (out.text += t),
      toolCall: () => {},
      toolResult: () => {},
      citation: (c) => out.citations.push(c),
      researchStep: () => {},
    };
    return { out, sink };
  };
  const input = (question: string): AnswerInput => ({
    question,
    history: [],
    hasSources: true,
    passages: [{ n: 1, docId: 'd1', title: 'aspirin.pdf', page: 3, bbox: null, text: '阿司匹林 CC(=O)Oc1ccccc1C(=O)O 抑制环氧合酶。', score: 4 }],
    options: { if_search_online: false, search_type: 'all', if_thinking: false, deepresearch: false, tools_name: [] },
    viewer: { userId: 'u1' },
    docIds: [],
    signal: new AbortController().signal,
  });

  it('puts the structures after the no-model line and before the cited passages', async () => {
    const { out, sink } = sinkFor();
    await localEngine({ chem }).answer(input('CC(=O)Oc1ccccc1C(=O)O 抑制什么酶？'), sink, createToolRegistry([], { restricted: false, log: { error: () => {} } }));
    const lines = out.text.split('\n');
    expect(lines[0]).toBe(NO_MODEL_LINE);
    expect(lines.indexOf('**问题中的结构**')).toBe(2);
    expect(lines[3]).toBe('- 分子式 C9H8O4，重原子 13 个，规范 SMILES：`CC(=O)Oc1ccccc1C(=O)O`');
    expect(out.text.indexOf('问题中的结构')).toBeLessThan(out.text.indexOf('《aspirin.pdf》'));
    expect(out.citations.map((c) => c.n)).toEqual([1]);
  });

  it('answers without the section when the chemistry service never replies or is busy', async () => {
    const silent = { describe: () => new Promise<never>(() => {}) };
    expect(await questionStructures('CCO 和 CCN', { chem: silent, budgetMs: 50 })).toEqual([]);
    const busy = { describe: () => Promise.reject(new Error('化学计算服务繁忙，请稍后再试')) };
    const { out, sink } = sinkFor();
    await localEngine({ chem: busy }).answer(input('CCO 是什么？'), sink, createToolRegistry([], { restricted: false, log: { error: () => {} } }));
    expect(out.text.split('\n')[0]).toBe(NO_MODEL_LINE);
    expect(out.text).not.toContain('问题中的结构');
  });

  it('lists the rest of retrieval’s top five after its quotes, each cited, so no page retrieval found is lost', async () => {
    // Reranked passages as the knowledge port gives them (coverage: the share of the question each
    // covers): the second covers little and shares no word of the question, like a list of
    // collections answering a question about 乐谱; the fourth is a contents page.
    const passage = (n: number, page: number, text: string, coverage: number) => ({ n, docId: 'd1', title: 'tlmgr.pdf', page, bbox: null, text, score: 5 - n, coverage });
    const passages = [
      passage(1, 19, '安装方案与集合：用 tlmgr info collections 获得所有集合的名称和信息。', 0.4),
      passage(2, 20, 'collection-music: Music packages\ncollection-pictures: Graphics, pictures, diagrams', 0.05),
      passage(3, 7, 'tlmgr install 安装集合或宏包，安装前先确认镜像。', 0.3),
      passage(4, 2, '1 简介 . . . . . . . . . . . . 1\n2 安装 . . . . . . . . . . . 3\n3 集合 . . . . . . . . . . . 9', 0.2),
      passage(5, 14, '排版乐谱需要先装好字体。', 0.02),
      passage(6, 30, '第六段不在前五之列。', 0.5),
    ];
    const { out, sink } = sinkFor();
    const question = { ...input('想用 TeX 排乐谱，需要装哪个集合'), passages };
    await localEngine({ chem }).answer(question, sink, createToolRegistry([], { restricted: false, log: { error: () => {} } }));
    const [quoted, listed] = out.text.split('**检索排在前面的其他段落**');
    expect(quoted).toContain('第19页');
    expect(quoted).toContain('第7页');
    expect(quoted).not.toContain('第20页');
    // The weak passages of the top five are listed with their page, each cited; the contents page and the sixth are not.
    expect(listed).toMatch(/第20页：“collection-music[^”]*” \[\d\]/);
    expect(out.citations.map((c) => ('page' in c ? c.page : null)).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([7, 14, 19, 20]);
    expect(out.text).not.toContain('第2页');
    expect(out.text).not.toContain('第30页');
  });
});
