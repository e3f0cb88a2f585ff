import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { makePdf, upload, waitParsed } from '../knowledge-helpers';
import { ask, readEvents, startFakeLlm } from '../answering-helpers';
import { enumerationOf, withEnumeration } from '../../../src/server/answering/enumeration';

describe('a list in a deep-research question', () => {
  it('becomes one sub-question per item, the list replaced by the item', () => {
    expect(enumerationOf('系统总结 LaTeX 中插图、表格和浮动体的用法与常见问题')).toEqual({
      items: ['插图', '表格', '浮动体'],
      subQuestions: ['系统总结 LaTeX 中插图的用法与常见问题', '系统总结 LaTeX 中表格的用法与常见问题', '系统总结 LaTeX 中浮动体的用法与常见问题'],
    });
    // The comparing words belong to the whole question, not to an item's sub-question.
    expect(enumerationOf('比较阿司匹林、布洛芬和对乙酰氨基酚的作用机制与副作用')?.subQuestions).toEqual(['阿司匹林的作用机制与副作用', '布洛芬的作用机制与副作用', '对乙酰氨基酚的作用机制与副作用']);
    expect(enumerationOf('甲醇、乙醇、丙酮分别的沸点是多少')?.subQuestions).toEqual(['甲醇的沸点是多少', '乙醇的沸点是多少', '丙酮的沸点是多少']);
    expect(enumerationOf('CTeX 套装和 CTeX 宏包有什么区别？')?.items).toEqual(['CTeX 套装', 'CTeX 宏包']);
    expect(enumerationOf('Compare aspirin, ibuprofen and naproxen in terms of COX selectivity')?.subQuestions).toEqual([
      'aspirin in terms of COX selectivity',
      'ibuprofen in terms of COX selectivity',
      'naproxen in terms of COX selectivity',
    ]);
    expect(enumerationOf('What are the differences between pdfLaTeX and XeLaTeX?')?.items).toEqual(['pdfLaTeX', 'XeLaTeX']);
  });

  it('is not found where there is none: two joined clauses, a question without items, a pair not compared', () => {
    expect(enumerationOf('阿司匹林的作用机制是什么？以及布洛芬的主要副作用有哪些？')).toBeNull();
    expect(enumerationOf('How does aspirin inhibit COX enzymes, and what are the side effects of ibuprofen?')).toBeNull();
    expect(enumerationOf('文档中提到了哪些溶剂？')).toBeNull();
    expect(enumerationOf('阿司匹林与环氧合酶的结合方式')).toBeNull();
    expect(enumerationOf('')).toBeNull();
  });

  it("merges with a plan: the plan's question about one item is kept for it, the missing items added, the rest after", () => {
    const q = '比较阿司匹林、布洛芬和萘普生的作用机制';
    expect(withEnumeration(q, ['布洛芬如何抑制 COX', '三种药物的临床用途'], 5)).toEqual(['阿司匹林的作用机制', '布洛芬如何抑制 COX', '萘普生的作用机制', '三种药物的临床用途']);
    // A long list keeps every item (up to eight) and one more sub-question.
    const many = withEnumeration('甲、乙、丙、丁、戊、己和庚的熔点', ['熔点的测定方法', '另一个问题'], 5);
    expect(many).toEqual(['甲的熔点', '乙的熔点', '丙的熔点', '丁的熔点', '戊的熔点', '己的熔点', '庚的熔点', '熔点的测定方法']);
    expect(withEnumeration('阿司匹林的用途', ['阿司匹林的用途'], 5)).toEqual(['阿司匹林的用途']);
  });
});

let llm: Awaited<ReturnType<typeof startFakeLlm>>;
let server: TestServer;
let alice: Client;

beforeAll(async () => {
  llm = await startFakeLlm();
  server = await startServer({ LLM_BASE_URL: llm.url, LLM_MODEL: 'chat-model', LLM_IDLE_TIMEOUT_MS: '2000' });
  alice = (await signedInUser(server)).client;
});
afterAll(async () => {
  await server?.close();
  await llm?.close();
});

describe('deep research over a list, with a model', () => {
  it('searches each item on its own and gives the writer a section per item with its passages', async () => {
    const up = await upload(alice, [
      {
        name: 'nsaids.pdf',
        data: makePdf([
          ['Aspirin', 'Aspirin irreversibly acetylates COX-1 and COX-2; its COX selectivity favours COX-1.'],
          ['Ibuprofen', 'Ibuprofen is a reversible inhibitor without COX selectivity.'],
          ['Naproxen', 'Naproxen inhibits both isoforms; its COX selectivity is close to one.'],
          ['Celecoxib', 'Celecoxib has high COX selectivity for COX-2, and COX selectivity explains its gastric safety.'],
        ]),
        type: 'application/pdf',
      },
    ]);
    const docId = up.body.data.name_id[0]!.docId;
    await waitParsed(alice, docId);
    // The fake planner answers with the question itself as its only sub-question.
    const { questionId } = await ask(alice, '[deepenum] Compare aspirin, ibuprofen and naproxen in terms of COX selectivity', { docIdList: [docId], deepresearch: true });
    const { events } = await readEvents(alice, questionId);
    const plan = events.find((e) => e.event === 'research_step' && e.data.step === 'plan')!.data.plan as string[];
    expect(plan).toEqual([
      '[deepenum] aspirin in terms of COX selectivity',
      '[deepenum] ibuprofen in terms of COX selectivity',
      '[deepenum] naproxen in terms of COX selectivity',
      'Compare aspirin, ibuprofen and naproxen in terms of COX selectivity',
    ]);
    expect(events.filter((e) => e.event === 'research_step' && e.data.step === 'search')).toHaveLength(4);
    // Each item's section of the writer's prompt starts with that item's passage.
    const writer = llm.requests.filter((r) => r.messages.some((m) => (m.content ?? '').includes('[deepenum]'))).at(-1)!.messages[0]!.content ?? '';
    for (const [i, drug] of ['Aspirin', 'Ibuprofen', 'Naproxen'].entries()) {
      const section = writer.split(`## 子问题 ${i + 1}：`)[1]!.split('## 子问题')[0]!;
      expect(section).toMatch(new RegExp(`^\\[deepenum\\] ${drug.toLowerCase()} in terms of COX selectivity\\n\\[\\d+\\] 《nsaids\\.pdf》 第${i + 1}页\\n${drug} ${drug}`));
    }
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
  });
});
