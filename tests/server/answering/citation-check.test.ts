import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { makePdf, upload, waitParsed } from '../knowledge-helpers';
import { CH, answerText, ask, readEvents, startFakeLlm } from '../answering-helpers';
import { citationGuard, removedCitationsNotice, supports } from '../../../src/server/answering/citation-check';
import type { NumberedPassage } from '../../../src/server/answering/engine';

const KINASE = 'Compound X binds the kinase with nanomolar affinity; the measured IC50 was 4.2 nM in the enzyme assay.';
const ASPIRIN = 'Aspirin irreversibly acetylates cyclooxygenase enzymes in platelets, so one dose acts for the life of the platelet.';
const ASPIRIN_ZH = '阿司匹林通过不可逆地抑制环氧合酶（COX-1 和 COX-2）发挥解热镇痛作用，常用剂量为每日 75–100 mg。';
const IBUPROFEN_ZH = '布洛芬是一种非甾体抗炎药，口服后 1–2 小时达到血药浓度峰值。';

describe('whether a passage supports a sentence', () => {
  it('accepts a sentence whose words and numbers (with units) are in the passage', () => {
    expect(supports('Compound X binds the kinase with an IC50 of 4.2 nM', KINASE)).toEqual({ ok: true });
    expect(supports('阿司匹林不可逆地抑制环氧合酶 COX-1 和 COX-2', ASPIRIN_ZH)).toEqual({ ok: true });
    expect(supports('常用剂量为每日 75–100 mg', ASPIRIN_ZH)).toEqual({ ok: true });
    expect(supports('The assay ran at 37℃', 'The enzyme assay ran at 37 °C.')).toEqual({ ok: true });
    // List numbers, pages and table numbers are not claims about the passage.
    expect(supports('1. 阿司匹林抑制环氧合酶（见第 12 页表 3）', ASPIRIN_ZH)).toEqual({ ok: true });
  });

  it('refuses a number the passage does not hold, or holds with another unit', () => {
    expect(supports('Its IC50 was 42 nM', KINASE)).toEqual({ ok: false, reason: 'number_missing', value: '42 nM' });
    expect(supports('布洛芬口服后 3 小时达到峰值', IBUPROFEN_ZH)).toEqual({ ok: false, reason: 'number_missing', value: '3 小时' });
    expect(supports('常用剂量为每日 75–100 g', ASPIRIN_ZH)).toEqual({ ok: false, reason: 'number_missing', value: '100 g' });
  });

  it('refuses a sentence about something else', () => {
    expect(supports('Compound X binds the kinase with nanomolar affinity', ASPIRIN)).toEqual({ ok: false, reason: 'unsupported' });
    expect(supports('阿司匹林不可逆地抑制环氧合酶', IBUPROFEN_ZH)).toEqual({ ok: false, reason: 'unsupported' });
  });

  it('judges a Chinese sentence citing an English passage only by what can be compared (names, numbers)', () => {
    expect(supports('化合物 X 以纳摩尔级亲和力结合该激酶', KINASE)).toEqual({ ok: true });
    expect(supports('化合物 X 的 IC50 为 4.2 nM', KINASE)).toEqual({ ok: true });
    expect(supports('化合物 X 的 IC50 为 9 nM', KINASE)).toMatchObject({ ok: false, reason: 'number_missing' });
    expect(supports('布洛芬 ibuprofen 与 naproxen 的比较', KINASE)).toEqual({ ok: false, reason: 'unsupported' });
  });
});

const passage = (n: number, text: string): NumberedPassage => ({ n, docId: `d${n}`, title: `t${n}.pdf`, page: n, bbox: null, text, score: 1 });

describe('the citation guard over a streamed answer', () => {
  it('removes wrong and out-of-range markers, split across chunks, and leaves other brackets alone', () => {
    const out: string[] = [];
    const guard = citationGuard([passage(1, KINASE), passage(2, ASPIRIN_ZH), passage(3, IBUPROFEN_ZH)], (t) => out.push(t));
    const answer = '阿司匹林不可逆地抑制环氧合酶 [2]。布洛芬口服后 1–2 小时达到峰值 [2，3]。见 [9]。数组 a[i] 与 [Fe(CN)6]。阿司匹林抑制环氧合酶。[3] 结尾 [1';
    for (let i = 0; i < answer.length; i += 3) guard.push(answer.slice(i, i + 3));
    const problems = guard.end();
    expect(out.join('')).toBe('阿司匹林不可逆地抑制环氧合酶 [2]。布洛芬口服后 1–2 小时达到峰值 [3]。见。数组 a[i] 与 [Fe(CN)6]。阿司匹林抑制环氧合酶。 结尾 [1');
    expect(problems).toEqual([
      { n: 2, reason: 'unsupported' },
      { n: 9, reason: 'out_of_range' },
      { n: 3, reason: 'unsupported' },
    ]);
    expect(removedCitationsNotice(problems)).toBe('已移除模型回答中无法核实的引用：[2] 的段落不支持所在的句子；[9] 不是提供给模型的段落编号；[3] 的段落不支持所在的句子');
    expect(removedCitationsNotice([])).toBe('');
  });

  it('judges each marker by its own sentence however the answer is split into deltas', () => {
    // A full stop and the space after it may arrive in different deltas; a sentence then ends there.
    const answer = 'The measured IC50 was 4.2 nM in the enzyme assay. Aspirin acetylates cyclooxygenase in platelets [1]. Compound X binds the kinase [1]. 用法见 `a[1]` 结束';
    const results = new Set<string>();
    for (const size of [1, 2, 5, 17, answer.length]) {
      const out: string[] = [];
      const guard = citationGuard([passage(1, KINASE)], (t) => out.push(t));
      for (let i = 0; i < answer.length; i += size) guard.push(answer.slice(i, i + size));
      results.add(JSON.stringify([out.join(''), guard.end()]));
    }
    expect([...results]).toEqual([
      JSON.stringify(['The measured IC50 was 4.2 nM in the enzyme assay. Aspirin acetylates cyclooxygenase in platelets. Compound X binds the kinase [1]. 用法见 `a[1]` 结束', [{ n: 1, reason: 'unsupported' }]]),
    ]);
  });

  it('leaves brackets in code alone, inline or in a fenced block', () => {
    const out: string[] = [];
    const guard = citationGuard([passage(1, KINASE)], (t) => out.push(t));
    const answer = '取第一个元素用 `a[1]`，见 [9]。\n```python\nx = a[2]\ny = b[1, 2]\n```\n结束 [7]。';
    for (let i = 0; i < answer.length; i += 2) guard.push(answer.slice(i, i + 2));
    expect(guard.end()).toEqual([
      { n: 9, reason: 'out_of_range' },
      { n: 7, reason: 'out_of_range' },
    ]);
    expect(out.join('')).toBe('取第一个元素用 `a[1]`，见。\n```python\nx = a[2]\ny = b[1, 2]\n```\n结束。');
  });
});

let llm: Awaited<ReturnType<typeof startFakeLlm>>;
let server: TestServer;
let alice: Client;

beforeAll(async () => {
  llm = await startFakeLlm();
  server = await startServer({ LLM_BASE_URL: llm.url, LLM_API_KEY: 'test-key', LLM_MODEL: 'chat-model', LLM_IDLE_TIMEOUT_MS: '2000' });
  alice = (await signedInUser(server)).client;
});
afterAll(async () => {
  await server?.close();
  await llm?.close();
});

describe("a model's answer", () => {
  it('keeps the citations its passages support and removes the wrong and out-of-range ones before anyone sees them', async () => {
    const up = await upload(alice, [{ name: 'notes.pdf', data: makePdf([['Kinase assay', KINASE], ['Aspirin', ASPIRIN]]), type: 'application/pdf' }]);
    const docId = up.body.data.name_id[0]!.docId;
    await waitParsed(alice, docId);
    const { channelId, questionId } = await ask(alice, '[cites] What IC50 does compound X reach on the kinase, and how does aspirin act on cyclooxygenase?', { docIdList: [docId], tools_name: [] });
    const { events } = await readEvents(alice, questionId);
    const citations = events.filter((e) => e.event === 'citation').map((e) => e.data);
    const k = citations.find((c) => c.page === 1)!.n;
    const a = citations.find((c) => c.page === 2)!.n;
    expect(citations).toHaveLength(2);
    const expected = `Compound X binds the kinase with an IC50 of 4.2 nM [${String(k)}]. Aspirin irreversibly acetylates cyclooxygenase in platelets [${String(a)}]. `
      + 'Compound X binds the kinase with nanomolar affinity. Its IC50 was 42 nM. See also.';
    expect(answerText(events)).toBe(expected);
    const notice = events.find((e) => e.event === 'status' && typeof e.data.message === 'string' && e.data.message.startsWith('已移除'));
    expect(notice?.data.message).toContain(`[${String(a)}] 的段落不支持所在的句子`);
    expect(notice?.data.message).toContain(`[${String(k)}] 的段落中没有句中的“42 nM”`);
    expect(notice?.data.message).toMatch(/\[\d+\] 不是提供给模型的段落编号/);
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });

    // The stored answer is the checked one, with the notice among its steps.
    const list = await alice.get<{ items: Array<{ question_id: string; answer: string; steps: unknown[]; citations: Array<{ n: number }> }> }>(`${CH}/questions/${channelId}?size=100`);
    const q = list.body.data.items.find((x) => x.question_id === questionId)!;
    expect(q.answer).toBe(expected);
    expect(q.steps).toContainEqual({ type: 'notice', message: notice!.data.message });
    expect(q.citations.map((c) => c.n).sort()).toEqual([k, a].sort());
  });
});
