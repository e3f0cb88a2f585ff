// The code_execution card of an answer and the 运行 button of its Python blocks
// (POST /code/run), against the fake server: status, stdout/stderr, pictures fetched with the
// element's credentials, and a refused run's Chinese message.
import '../../../src/widgets/channels/channels.element';
import { expect, failOnConsoleErrors, waitFor } from '../harness';
import { untranslated } from '../untranslated';
import { channelRecord, fail, fakeCsaiPage, ok, questionRecord, type Route } from '../ask/fake-csai';

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 31, 21, 196, 137, 0, 0, 0, 13, 73, 68, 65, 84, 120, 156, 99, 96, 0, 0, 0, 2, 0, 1, 84, 162, 79, 158, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130]);
const question = (over: Parameters<typeof questionRecord>[0]) =>
  questionRecord({ question: '画分子量分布', docIdList: ['d1'], if_thinking: false, tools_name: ['code_execution'], ...over });
const result = (over: Record<string, unknown> = {}) => ({
  status: 'ok', exit_code: 0, message: '运行完成', stdout: '47 molecules\n', stderr: '', stdout_truncated: false, stderr_truncated: false,
  inputs: ['cdk2.sdf'], artifacts: [{ id: 'art-png-0001', name: 'mw.png', mime: 'image/png', size: PNG.length, kind: 'image' }, { id: 'art-csv-0001', name: 'mw.csv', mime: 'text/plain; charset=utf-8', size: 20, kind: 'file' }],
  skipped_files: [], duration_ms: 1234, ...over,
});

describe('code execution in <csai-channels>', () => {
  failOnConsoleErrors();
  const page = fakeCsaiPage();

  const show = (questions: unknown[], extra: Route[] = [], lang?: 'en') =>
    page.conversation(questions, {
      attrs: `channel-id="c1"${lang ? ` lang="${lang}"` : ''}`,
      channels: [channelRecord('c1', '代码')],
      extra: [['GET', /^\/code\/artifacts\/art-png/, () => new Response(PNG, { status: 200, headers: { 'Content-Type': 'image/png' } })], ...extra],
    });

  it('shows a code_execution result: how it ended, stdout, the picture and the file', async () => {
    const steps = [
      { type: 'tool_call', call_id: 'local_1', name: 'code_execution', arguments: '{"code":"print(1)"}' },
      { type: 'tool_result', call_id: 'local_1', name: 'code_execution', ok: true, content: '运行完成', data: result() },
    ];
    const el = await show([question({ steps, answer: '完成' })]);
    const card = await waitFor(() => el.shadowRoot!.querySelector('[part~="code-run"]'), 'the code card');
    expect(card.getAttribute('data-status')).to.equal('ok');
    expect(card.querySelector('[part~="code-status"]')!.textContent).to.contain('运行完成');
    expect(card.querySelector('[part~="code-stdout"]')!.textContent).to.equal('47 molecules\n');
    expect(card.textContent).to.contain('/input/cdk2.sdf');
    const img = await waitFor(() => card.querySelector<HTMLImageElement>('[part~="code-image"] img'), 'the picture');
    expect(img.src.startsWith('blob:')).to.equal(true);
    expect(img.alt).to.contain('mw.png');
    await waitFor(() => img.complete && img.naturalWidth === 1, 'the picture decoded');
    expect(page.calls.some((c) => c.path === '/code/artifacts/art-png-0001')).to.equal(true);
    expect(card.querySelector('[part~="code-file"]')!.textContent).to.equal('mw.csv');
  });

  it('has no untranslated words in the code card, Chinese or English (issue 32 §2): its output and file names are data', async () => {
    const steps = [
      { type: 'tool_call', call_id: 'local_1', name: 'code_execution', arguments: '{"code":"print(1)"}' },
      { type: 'tool_result', call_id: 'local_1', name: 'code_execution', ok: true, content: '运行完成', data: result({ stderr: 'warning\n' }) },
    ];
    const el = await show([question({ steps, answer: '完成' })]);
    const card = await waitFor(() => el.shadowRoot!.querySelector('[part~="code-run"]'), 'the code card');
    await waitFor(() => card.querySelector('[part~="code-image"] img'), 'the picture');
    const data = 'pre, code, img, figcaption, [part~="code-file"], [part~="code-stdout"], [part~="code-stderr"], [data-field]';
    expect(untranslated(card, 'zh', data)).to.deep.equal([]);
    const english = [{ ...steps[0] }, { ...steps[1], content: 'Finished', data: result({ message: 'Finished', stderr: 'warning\n' }) }];
    const en = await show([question({ steps: english, answer: 'Done', question: 'Plot the weights' })], [], 'en');
    const enCard = await waitFor(() => en.shadowRoot!.querySelector('[part~="code-run"]'), 'the English code card');
    await waitFor(() => enCard.querySelector('[part~="code-image"] img') && !/[\u4e00-\u9fff]/.test(enCard.textContent ?? ''), 'its English strings');
    expect(untranslated(enCard, 'en', data)).to.deep.equal([]);
  });

  it('runs a Python block of an answer with 运行 and shows the result under that block', async () => {
    let posted: unknown;
    const el = await show([question({ answer: '可以这样做：\n\n```python\nprint("hi")\n```\n\n```text\nnot code\n```' })], [
      ['POST', '/code/run', (c) => {
        posted = c.body;
        return ok(result({ stdout: 'hi\n', artifacts: [] }), '运行完成');
      }],
    ]);
    const button = await waitFor(() => el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="answer"] [part~="run-code"]'), 'the 运行 button');
    expect(el.shadowRoot!.querySelectorAll('[part~="run-code"]').length).to.equal(1); // only the Python block
    expect(button.textContent).to.equal('运行');
    button.click();
    const run = await waitFor(() => el.shadowRoot!.querySelector('[part~="code-runs"] [part~="code-stdout"]'), 'the run result');
    expect(run.textContent).to.equal('hi\n');
    // Right under the block's button, inside the answer (before the text block that follows).
    expect(button.nextElementSibling!.contains(run)).to.equal(true);
    expect(posted).to.deep.equal({ code: 'print("hi")\n', doc_ids: ['d1'], question_id: 'q1', block: 0 });
  });

  it('after a reload shows the last kept run of each block under it, and a new run replaces it', async () => {
    const answer = '第一段：\n\n```python\nprint("a")\n```\n\n第二段：\n\n```python\nprint("b")\n```';
    const kept = result({ stdout: 'b from before\n', artifacts: [{ id: 'art-png-0002', name: 'plot.png', mime: 'image/png', size: PNG.length, kind: 'image' }] });
    let posted: unknown;
    const el = await show([question({ answer, code_runs: [{ block: 1, code: 'print("b")\n', result: kept, created_at: '2026-11-25T10:00:00Z' }] })], [
      ['GET', '/code/artifacts/art-png-0002', () => new Response(PNG, { status: 200, headers: { 'Content-Type': 'image/png' } })],
      ['POST', '/code/run', (c) => {
        posted = c.body;
        return ok(result({ stdout: 'b again\n', artifacts: [] }), '运行完成');
      }],
    ]);
    const buttons = await waitFor(() => {
      const found = el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part~="answer"] [part~="run-code"]');
      return found.length === 2 ? [...found] : null;
    }, 'two 运行 buttons');
    // Nothing was run here: the kept run of the second block is shown under it, none under the first.
    const second = await waitFor(() => buttons[1]!.nextElementSibling!.querySelector('[part~="code-run"]'), 'the kept run under block 2');
    expect(second.querySelector('[part~="code-stdout"]')!.textContent).to.equal('b from before\n');
    expect(buttons[0]!.nextElementSibling!.querySelector('[part~="code-run"]')).to.equal(null);
    const img = await waitFor(() => second.querySelector<HTMLImageElement>('[part~="code-image"] img'), 'the kept picture');
    await waitFor(() => img.complete && img.naturalWidth === 1, 'the kept picture decoded');
    expect(page.calls.some((c) => c.path === '/code/artifacts/art-png-0002')).to.equal(true);
    expect(page.calls.some((c) => c.path === '/code/run')).to.equal(false);
    // Running the block again replaces what was shown.
    buttons[1]!.click();
    await waitFor(() => buttons[1]!.nextElementSibling!.querySelector('[part~="code-stdout"]')?.textContent === 'b again\n', 'the new run in place of the kept one');
    expect(el.shadowRoot!.querySelectorAll('[part~="code-run"]').length).to.equal(1);
    expect(posted).to.deep.equal({ code: 'print("b")\n', doc_ids: ['d1'], question_id: 'q1', block: 1 });
  });

  it('shows why a run was refused (sandbox unavailable)', async () => {
    const el = await show([question({ answer: '```python\nprint(1)\n```' })], [
      ['POST', '/code/run', () => fail(503, '“代码生成与执行”不可用：未找到 bubblewrap（bwrap），代码不会在沙箱外运行。', 'tool_disabled')],
    ]);
    const button = await waitFor(() => el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="run-code"]'), 'the 运行 button');
    button.click();
    const error = await waitFor(() => el.shadowRoot!.querySelector('[part~="code-runs"] [part~="tool-error"]'), 'the refusal');
    expect(error.textContent).to.contain('未找到 bubblewrap');
  });
});
