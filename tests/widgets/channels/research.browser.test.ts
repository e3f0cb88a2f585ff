import axe from 'axe-core';
import '../../../src/widgets/channels/channels.element';
import { expect, failOnConsoleErrors, part, waitFor } from '../harness';
import { channelRecord, FakeAnswerStream, fakeCsaiPage, questionRecord } from '../ask/fake-csai';

// Deep research in the conversation view: the plan, the current step and the progress.
const question = (id: string, over: Parameters<typeof questionRecord>[0] = {}) =>
  questionRecord({ question_id: id, question: '乱数假文是什么？以及阿司匹林的用途有哪些？', docIdList: ['d1'], if_thinking: false, deepresearch: true, ...over });
const PLAN = ['乱数假文是什么', '阿司匹林的用途有哪些', '乱数假文是什么？以及阿司匹林的用途有哪些？'];
const planStep = { step: 'plan', title: '拆解问题', detail: '拆解为 3 个子问题', plan: PLAN, progress: { current: 1, total: 6 } };
const searchStep = (index: number) => ({ step: 'search', index, title: `检索子问题 ${index}/3`, detail: `${PLAN[index - 1]} —— 找到 2 个相关段落`, progress: { current: index + 1, total: 6 } });

describe('<csai-channels> deep research', () => {
  failOnConsoleErrors();
  const page = fakeCsaiPage();

  const show = (questions: unknown[]) => page.conversation(questions, { channels: [channelRecord('c1', '深度研究')] });
  const all = (el: Element, name: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(`[part~="${name}"]`)];

  it('follows a running research: the plan with the sub-question being searched, the current step and the progress', async () => {
    const el = await show([question('q1', { status: 'running', last_event_id: 2, steps: [{ type: 'research_step', ...planStep }] })]);
    await waitFor(() => part(el, 'research-plan'), 'the plan');
    expect(all(el, 'research-sub-question').map((li) => li.textContent)).to.deep.equal(PLAN.map((q, i) => `${i === 0 ? '… 检索中：' : '○ 待检索：'}${q}`));
    expect(all(el, 'research-sub-question').map((li) => li.dataset.state)).to.deep.equal(['current', 'pending', 'pending']);
    expect(part(el, 'research-progress')!.textContent).to.equal('第 1 / 6 步');
    expect(part(el, 'research-current')!.textContent).to.equal('正在进行：拆解问题：拆解为 3 个子问题');
    expect(part(el, 'research')!.textContent).to.contain('深度研究约需 10–20 分钟');
    // Research steps are not repeated in the plain step list.
    expect(part(el, 'steps')).to.equal(null);
    const result = await axe.run(el.shadowRoot!.querySelector('.csai-root')!);
    expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.html).join(" ")}`)).to.deep.equal([]);

    const stream = await waitFor(() => FakeAnswerStream.all.find((s) => s.url.includes('/questions/q1/')), 'the stream');
    stream.emit(3, 'research_step', searchStep(1));
    await waitFor(() => part(el, 'research-progress')?.textContent === '第 2 / 6 步', 'the next step');
    expect(all(el, 'research-sub-question').map((li) => li.dataset.state)).to.deep.equal(['done', 'current', 'pending']);
    expect(part(el, 'research-current')!.textContent).to.equal(`正在进行：检索子问题 1/3：${PLAN[0]} —— 找到 2 个相关段落`);
    const bar = part(el, 'research-bar') as HTMLProgressElement;
    expect([bar.value, bar.max]).to.deep.equal([2, 6]);

    stream.emit(4, 'research_step', searchStep(2));
    stream.emit(5, 'research_step', searchStep(3));
    stream.emit(6, 'research_step', { step: 'read', title: '阅读与筛选', detail: '去重后保留 4 个段落，来自 1 篇文档', progress: { current: 5, total: 6 } });
    stream.emit(7, 'research_step', { step: 'write', title: '撰写报告', detail: '引言、3 个子问题各一节、结论，引用 4 个段落', progress: { current: 6, total: 6 } });
    stream.emit(8, 'delta', { text: '## 深度研究报告\n\n### 引言\n正文' });
    stream.emit(9, 'done', { status: 'done' });
    await waitFor(() => el.shadowRoot!.querySelector('[part~="question"][data-status="done"]'), 'the end');
    // Once done: every sub-question searched, no "now" line, all steps listed in the collapsed details.
    expect(all(el, 'research-sub-question').map((li) => li.dataset.state)).to.deep.equal(['done', 'done', 'done']);
    expect(part(el, 'research-current')).to.equal(null);
    expect(part(el, 'research-progress')!.textContent).to.equal('第 6 / 6 步');
    expect(all(el, 'research-step').map((li) => li.dataset.step)).to.deep.equal(['plan', 'search', 'search', 'search', 'read', 'write']);
    expect((part(el, 'research-steps') as HTMLDetailsElement).open).to.equal(false);
  });

  it('adds the sub-questions of a follow-up round to the plan, in the order they are searched', async () => {
    const steps = [planStep, searchStep(1), searchStep(2), searchStep(3)].map((s) => ({ type: 'research_step', ...s }));
    const el = await show([question('q2', { status: 'running', last_event_id: 4, steps })]);
    await waitFor(() => part(el, 'research-plan'), 'the plan');
    const stream = await waitFor(() => FakeAnswerStream.all.find((s) => s.url.includes('/questions/q2/')), 'the stream');
    stream.emit(5, 'research_step', { step: 'follow_up', index: 1, title: '补充检索（第 1 轮）', detail: '根据已读到的资料追加 1 个子问题', plan: ['阿司匹林的不良反应'] });
    await waitFor(() => all(el, 'research-sub-question').length === 4, 'the follow-up sub-question');
    expect(all(el, 'research-sub-question').map((li) => li.dataset.state)).to.deep.equal(['done', 'done', 'done', 'current']);
    expect(all(el, 'research-sub-question')[3]!.textContent).to.equal('… 检索中：阿司匹林的不良反应');
    stream.emit(6, 'research_step', { step: 'search', index: 4, title: '检索子问题 4/4', detail: '阿司匹林的不良反应 —— 找到 1 个相关段落', progress: { current: 5, total: 7 } });
    await waitFor(() => all(el, 'research-sub-question')[3]?.dataset.state === 'done', 'the follow-up searched');
  });

  it('shows nothing of it for an ordinary answer, and other steps as before', async () => {
    const el = await show([question('q1', { deepresearch: false, steps: [{ type: 'notice', message: '未配置联网搜索服务，本次回答没有进行联网搜索' }] })]);
    await waitFor(() => part(el, 'steps'), 'the steps');
    expect(part(el, 'research')).to.equal(null);
    expect(all(el, 'step').map((s) => s.textContent)).to.deep.equal(['未配置联网搜索服务，本次回答没有进行联网搜索']);
  });
});
