import axe from 'axe-core';
import '../../../src/widgets/channels/channels.element';
import { expect, failOnConsoleErrors, part, waitFor } from '../harness';
import { channelRecord as channel, FakeAnswerStream, fakeCsaiPage, ok, questionRecord, typeInto, type Route } from '../ask/fake-csai';

const question = (id: string, over: Parameters<typeof questionRecord>[0] = {}) => questionRecord({ question_id: id, ...over });
const citation = { n: 1, docId: 'd1', title: '药理学.pdf', page: 3, bbox: [10, 20, 30, 40], text: '阿司匹林不可逆地抑制 COX' };

const HOSTILE = [
  '# 结果',
  '<script>window.__pwned = "script"</script>',
  '<img src="http://evil.example/a.png" onerror="window.__pwned = \'onerror\'">',
  '[点我](javascript:window.__pwned=1) [数据](data:text/html,<script>alert(1)</script>) [正常](https://example.org/paper)',
  '![远程图片](http://evil.example/track.png)',
  '<a href="#" onclick="window.__pwned = \'onclick\'">x</a> <iframe src="http://evil.example/frame"></iframe>',
  '<svg onload="window.__pwned=\'svg\'"><image href="http://evil.example/svg.png"/></svg>',
].join('\n\n');

describe('<csai-channels>', () => {
  failOnConsoleErrors();
  const page = fakeCsaiPage();
  beforeEach(() => {
    delete (window as { __pwned?: unknown }).__pwned;
  });

  const show = (attrs: string, questions: unknown[], extra: Route[] = [], channels = [channel('c1', '阿司匹林的作用机制？'), channel('c2', '布洛芬')], total = 2) =>
    page.conversation(questions, { attrs, extra, channels, total });
  const answers = (el: Element) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part~="answer"]')];

  describe('a hostile answer', () => {
    it('renders inert in history and while streaming: no script, no handlers, no javascript:/data: links, no remote request', async () => {
      const remote: string[] = [];
      const observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (e.name.includes('evil.example')) remote.push(e.name);
      });
      observer.observe({ type: 'resource', buffered: true });
      const el = await show('channel-id="c1"', [question('q2', { status: 'running', answer: '', last_event_id: 2 }), question('q1', { answer: HOSTILE })]);
      await waitFor(() => answers(el)[0]?.querySelector('h1'), 'the stored answer');
      const stream = await waitFor(() => FakeAnswerStream.all.find((s) => s.url.includes('/questions/q2/')), 'the stream');
      for (const [i, chunk] of HOSTILE.match(/[\s\S]{1,40}/g)!.entries()) stream.emit(3 + i, 'delta', { text: chunk });
      stream.emit(1000, 'done', { status: 'done' });
      await waitFor(() => answers(el)[1]?.querySelector('h1') && answers(el)[1]!.textContent?.includes('正常'), 'the streamed answer');

      for (const answer of answers(el)) {
        expect(answer.querySelectorAll('script, img, iframe, svg, image, object, embed, style').length, answer.innerHTML).to.equal(0);
        for (const node of answer.querySelectorAll('*')) {
          for (const attr of node.getAttributeNames()) expect(attr.startsWith('on'), `${node.tagName} ${attr}`).to.equal(false);
        }
        const hrefs = [...answer.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')!);
        expect(hrefs.every((h) => /^https?:\/\//.test(h)), hrefs.join(' ')).to.equal(true);
        const normal = [...answer.querySelectorAll('a')].find((a) => a.textContent === '正常')!;
        expect(normal.getAttribute('target')).to.equal('_blank');
        expect(normal.getAttribute('rel')).to.contain('noopener');
        const image = [...answer.querySelectorAll('a')].find((a) => a.textContent?.includes('远程图片'))!;
        expect(image.textContent).to.equal('图片：远程图片');
        // Raw HTML shows as text, never as markup.
        expect(answer.textContent).to.contain('<script>');
      }
      await new Promise((r) => setTimeout(r, 50)); // let any (wrongly) started load show up in resource timing
      observer.disconnect();
      const entries = performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('evil.example'));
      expect([...remote, ...entries]).to.deep.equal([]);
      expect(page.calls.filter((c) => c.url.includes('evil.example'))).to.deep.equal([]);
      expect((window as { __pwned?: unknown }).__pwned).to.equal(undefined);
    });
  });

  describe('an answer', () => {
    it('renders GFM tables, code, formulas as MathML and SMILES as <csai-molecule>', async () => {
      const md = ['| 药物 | 靶点 |', '|---|---|', '| 阿司匹林 | COX-1 |', '', '```python\nprint(1)\n```', '', '质能方程 $E=mc^2$，乙醇 `CCO`，命令 `npm`。'].join('\n');
      const el = await show('channel-id="c1"', [question('q1', { answer: md })]);
      const answer = await waitFor(() => answers(el)[0]?.querySelector('table') && answers(el)[0], 'the table');
      expect(answer.querySelector('td')!.textContent).to.equal('阿司匹林');
      expect(answer.querySelector('pre code')!.textContent).to.contain('print(1)');
      expect(answer.querySelector('math')).to.not.equal(null);
      const molecules = [...answer.querySelectorAll('csai-molecule')];
      expect(molecules.map((m) => m.getAttribute('smiles'))).to.deep.equal(['CCO']);
    });

    it('draws SMILES of a sentence below it, side by side, and those standing alone or in a table where they are', async () => {
      const md = ['阿司匹林（`CC(=O)Oc1ccccc1C(=O)O`）与乙醇 `CCO` 同在一句，再提一次 `CCO`。', '', '`c1ccccc1`', '', '| 名称 | 结构 |', '|---|---|', '| 乙醇 | `CCO` |'].join('\n');
      const el = await show('channel-id="c1"', [question('q1', { answer: md })]);
      const answer = await waitFor(() => answers(el)[0]?.querySelector('table') && answers(el)[0], 'the table');
      const [sentence, alone] = [...answer.querySelectorAll('p')];
      expect(sentence!.textContent).to.equal('阿司匹林（CC(=O)Oc1ccccc1C(=O)O）与乙醇 CCO 同在一句，再提一次 CCO。');
      expect(sentence!.querySelectorAll('csai-molecule').length, 'the sentence is not broken up').to.equal(0);
      const below = sentence!.nextElementSibling!;
      expect(below.className).to.equal('csai-structures');
      expect([...below.querySelectorAll('csai-molecule')].map((m) => m.getAttribute('smiles'))).to.deep.equal(['CC(=O)Oc1ccccc1C(=O)O', 'CCO']);
      expect(getComputedStyle(below).display).to.equal('flex');
      expect(alone!.querySelector('csai-molecule')!.getAttribute('smiles')).to.equal('c1ccccc1');
      expect(answer.querySelector('td csai-molecule')!.getAttribute('smiles')).to.equal('CCO');
    });

    it('shows thinking collapsed, tool steps, and citation chips that open the viewer at the cited page', async () => {
      const el = await show('channel-id="c1"', [
        question('q1', {
          answer: '阿司匹林抑制环氧合酶 [1]，未知引用 [7]。',
          thinking: '先检索文献',
          citations: [citation],
          steps: [
            { type: 'tool_call', call_id: 't1', name: 'admet', arguments: '{"smiles":["CCO"]}' },
            { type: 'tool_result', call_id: 't1', name: 'admet', ok: true, content: 'CCO 分子量 46.07' },
            { type: 'tool_call', call_id: 't2', name: 'name_to_smiles', arguments: '{"name":"未知物"}' },
            { type: 'tool_result', call_id: 't2', name: 'name_to_smiles', ok: false, content: '未找到名称“未知物”对应的结构' },
          ],
        }),
      ]);
      const chip = await waitFor(() => el.shadowRoot!.querySelector<HTMLAnchorElement>('a[data-cite="1"]'), 'the chip');
      expect(chip.textContent).to.equal('[1]');
      expect(chip.title).to.equal('药理学.pdf，第 3 页');
      expect(answers(el)[0]!.querySelector('a[data-cite="7"]'), 'unknown citations stay text').to.equal(null);
      const thinking = part(el, 'thinking') as HTMLDetailsElement;
      expect(thinking.open).to.equal(false);
      expect(thinking.textContent).to.contain('先检索文献');
      const cards = [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part~="tool-card"]')];
      expect(cards.map((c) => [c.dataset.tool, c.dataset.state])).to.deep.equal([['admet', 'ok'], ['name_to_smiles', 'failed']]);
      expect(cards[0]!.querySelector('header')!.textContent).to.equal('ADMET计算');
      expect(cards[1]!.querySelector('[part~="tool-error"]')!.textContent, 'a failed call shows its Chinese message').to.equal('未找到名称“未知物”对应的结构');
      expect(el.shadowRoot!.querySelectorAll('[part~="step"]').length, 'tool calls are cards, not steps').to.equal(0);
      const paths: string[] = [];
      el.addEventListener('csai-navigate', (e) => {
        e.preventDefault();
        paths.push(e.detail.path);
      });
      chip.click();
      expect(paths).to.have.length(1);
      const url = new URL(paths[0]!, location.href);
      expect(url.pathname).to.equal('/pdf_viewer');
      expect(Object.fromEntries(url.searchParams)).to.deep.equal({ docId: 'd1', page: '3', bbox: '10,20,30,40' });
    });

    it('a queued answer says so, then streams from the stored events on, ignoring repeats', async () => {
      const el = await show('channel-id="c1"', [question('q1', { status: 'queued', answer: '已有的开头', last_event_id: 4 })]);
      await waitFor(() => part(el, 'queued'), 'the queued notice');
      expect(part(el, 'queued')!.textContent).to.equal('排队中，请稍候…');
      const stream = await waitFor(() => FakeAnswerStream.all[0], 'the stream');
      expect(stream.url).to.contain('/channel/questions/q1/events');
      expect(stream.lastEventId).to.equal('4');
      stream.emit(5, 'status', { status: 'running' });
      await waitFor(() => part(el, 'running'), 'running');
      stream.emit(6, 'delta', { text: '，继续' });
      stream.emit(6, 'delta', { text: '，继续' });
      stream.emit(7, 'tool_call', { call_id: 'c1', name: 'admet', arguments: '{"smiles":["CCO"]}' });
      const card = await waitFor(() => el.shadowRoot!.querySelector<HTMLElement>('[part~="tool-card"]'), 'the running tool card');
      expect(card.dataset.state).to.equal('running');
      stream.emit(8, 'tool_result', { call_id: 'c1', name: 'admet', ok: false, content: '无法解析 SMILES：CC(' });
      await waitFor(() => el.shadowRoot!.querySelector<HTMLElement>('[part~="tool-card"]')?.dataset.state === 'failed', 'the failed card');
      stream.emit(9, 'citation', citation);
      stream.emit(10, 'delta', { text: ' [1]' });
      await waitFor(() => answers(el)[0]!.querySelector('a[data-cite="1"]'), 'the cited text');
      expect(answers(el)[0]!.textContent!.trim()).to.equal('已有的开头，继续 [1]');
      expect(part(el, 'stop')).to.not.equal(null);
      stream.emit(11, 'done', { status: 'done' });
      await waitFor(() => part(el, 'like'), 'the actions of a finished answer');
      expect(stream.closed).to.equal(true);
    });

    it('stop, like (toggles), copy and delete (after confirming) call the server', async () => {
      const el = await show('channel-id="c1"', [question('q1', { status: 'running', answer: '部分回答' })], [
        ['*', '/channel/answer/effect', (c) => ok({ question_id: 'q1', effect: (c.body as { effect: string }).effect === 'clear' ? null : 'like', effect_comment: null })],
        ['DELETE', '/channel/questions/q1', () => ok({ deleted: 1 })],
      ]);
      (await waitFor(() => part(el, 'stop'), 'stop')).click();
      await waitFor(() => page.calls.find((c) => c.method === 'PUT' && c.path === '/channel/stop_questions/q1'), 'the stop call');
      FakeAnswerStream.all[0]!.emit(3, 'done', { status: 'stopped' });
      (await waitFor(() => part(el, 'like'), 'like')).click();
      await waitFor(() => part(el, 'like')!.getAttribute('aria-pressed') === 'true', 'liked');
      part(el, 'like')!.click();
      await waitFor(() => part(el, 'like')!.getAttribute('aria-pressed') === 'false', 'cleared');
      expect(page.calls.filter((c) => c.path === '/channel/answer/effect').map((c) => c.body)).to.deep.equal([
        { question_id: 'q1', effect: 'like' },
        { question_id: 'q1', effect: 'clear' },
      ]);
      expect(part(el, 'stopped')!.textContent).to.equal('已停止回答');
      part(el, 'delete')!.click();
      const confirm = await waitFor(() => part(el, 'confirm'), 'the confirmation');
      expect(page.calls.some((c) => c.method === 'DELETE')).to.equal(false);
      confirm.querySelector('button')!.click();
      await waitFor(() => el.shadowRoot!.querySelectorAll('[part~="question"]').length === 0, 'the question gone');
    });
  });

  describe('the documents of the conversation', () => {
    const kbDoc = (docId: string, title: string, type: number) => ({
      docId, title, type, parseStatus: 2, parse_progress: 100, progress_texts: [], img_id: null, download_url: '', download_key: '', folder_id: 'f1',
      size: 1000, page_count: null, owner_id: 'u1', owner_name: '王化学', is_owner: true, created_at: '',
    });
    const routes: Route[] = [
      ['*', '/channel/channel_docs/c1', () => ok(['d1', 'gone', 'd2'])],
      ['*', '/knowledge_base/doc/d1', () => ok(kbDoc('d1', '药理学.pdf', 1))],
      ['*', '/knowledge_base/doc/d2', () => ok(kbDoc('d2', 'cdk2.sdf', 5))],
    ];

    it('lists the documents its questions used (those gone left out); each opens in the viewer', async () => {
      const el = await show('channel-id="c1"', [question('q1', { answer: '回答', docIdList: ['d1', 'gone', 'd2'] })], routes);
      const box = await waitFor(() => part(el, 'channel-docs') as HTMLDetailsElement | null, 'the documents');
      expect(page.calls.some((c) => c.path === '/channel/channel_docs/c1')).to.equal(true);
      expect(box.querySelector('summary')!.textContent).to.equal('本对话使用的文档（2）');
      const rows = [...box.querySelectorAll<HTMLElement>('[part~="channel-doc"]')];
      expect(rows.map((r) => r.textContent)).to.deep.equal(['PDF药理学.pdf', 'SDFcdk2.sdf']);
      const paths: string[] = [];
      el.addEventListener('csai-navigate', (e) => {
        e.preventDefault();
        paths.push(e.detail.path);
      });
      box.open = true;
      rows[0]!.querySelector('button')!.click();
      rows[1]!.querySelector('button')!.click();
      expect(paths).to.deep.equal(['/pdf_viewer?docId=d1&if_img=0', '/pdf_viewer?docId=d2&if_img=0&type=5']);
      const result = await axe.run(el);
      expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).to.deep.equal([]);
    });

    it('shows nothing for a conversation without documents', async () => {
      const el = await show('channel-id="c1"', [question('q1', { answer: '回答' })]);
      await waitFor(() => answers(el).length === 1, 'the answer');
      await waitFor(() => page.calls.some((c) => c.path === '/channel/channel_docs/c1'), 'the call');
      expect(part(el, 'channel-docs')).to.equal(null);
      expect(part(el, 'channel-docs-error')).to.equal(null);
    });
  });

  describe('the question', () => {
    it('draws the SMILES written in it as <csai-molecule> below the unchanged text, and nothing else', async () => {
      const text = '比较 CC(=O)OC1=CC=CC=C1C(O)=O 与 CCO、CNS、NMR、H2O 和 C1CC(( 的性质';
      const el = await show('channel-id="c1"', [question('q1', { question: text, answer: '回答' })]);
      const box = await waitFor(() => part(el, 'question-structures'), 'the structures');
      await waitFor(() => box.querySelectorAll('csai-molecule').length === 2, 'two molecules');
      expect([...box.querySelectorAll('csai-molecule')].map((m) => m.getAttribute('smiles'))).to.deep.equal(['CC(=O)OC1=CC=CC=C1C(O)=O', 'CCO']);
      expect(part(el, 'question-text')!.textContent).to.equal(text);
      expect(box.getAttribute('aria-label')).to.equal('问题中的结构');
    });

    it('renders markup in the question as text and a question without structures draws none', async () => {
      const hostile = '<img src=x onerror="window.__pwned=1"> `CCO` <csai-molecule smiles="C"></csai-molecule> [x](javascript:alert(1))';
      const el = await show('channel-id="c1"', [question('q1', { question: hostile, answer: '回答' }), question('q2', { question: '阿司匹林的作用机制？', answer: '回答' })]);
      const box = await waitFor(() => part(el, 'question-structures'), 'the structures');
      await waitFor(() => box.querySelector('csai-molecule'), 'a molecule');
      expect([...box.children].map((c) => `${c.tagName.toLowerCase()} ${c.getAttribute('smiles')} ${c.getAttributeNames().join(',')}`)).to.deep.equal(['csai-molecule CCO smiles']);
      expect(el.shadowRoot!.querySelectorAll('img, a[href^="javascript"]').length).to.equal(0);
      expect([...el.shadowRoot!.querySelectorAll('[part~="question-text"]')].map((q) => q.textContent)).to.include(hostile);
      expect(el.shadowRoot!.querySelectorAll('[part~="question-structures"]').length).to.equal(1);
      expect((window as { __pwned?: unknown }).__pwned).to.equal(undefined);
    });
  });

  describe('the layout', () => {
    it('keeps the conversation off the card border at desktop and phone widths', async () => {
      for (const width of [1200, 360]) {
        const el = await show('channel-id="c1"', [question('q1', { answer: '阿司匹林抑制环氧合酶，减少前列腺素的合成。' })]);
        (el as HTMLElement).style.cssText = `display:block;width:${width}px`;
        await waitFor(() => answers(el)[0]?.textContent, 'the answer');
        const card = part(el, 'base')!.getBoundingClientRect();
        for (const name of ['question-text', 'answer', 'toggle-history', 'search']) {
          const box = part(el, name)!.getBoundingClientRect();
          expect(box.left - card.left, `${name} left at ${width}px`).to.be.at.least(12);
          expect(card.right - box.right, `${name} right at ${width}px`).to.be.at.least(12);
        }
        expect(card.top, 'the history above the conversation on a phone').to.be.at.most(part(el, 'history')!.getBoundingClientRect().top - 12);
      }
    });
  });

  it('has no serious accessibility violations with a finished answer and the history', async () => {
    const el = await show('channel-id="c1"', [question('q1', { answer: '阿司匹林抑制环氧合酶 [1]。', thinking: '思考', citations: [citation] })]);
    await waitFor(() => el.shadowRoot!.querySelector('a[data-cite]'), 'the answer');
    await waitFor(() => el.shadowRoot!.querySelector('[part~="channel-name"]'), 'the history');
    const result = await axe.run(el.shadowRoot!.querySelector('.csai-root')!);
    const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${v.id}: ${v.help}`)).to.deep.equal([]);
  });

  describe('the history', () => {
    it('lists, searches, renames, deletes after confirming, and pages', async () => {
      const el = await show('', [], [
        ['PUT', '/channel/c2', (c) => ok(channel('c2', String((c.body as { name: string }).name)))],
        ['DELETE', '/channel/c2', () => ok({ deleted: 1 })],
      ], [channel('c1', '阿司匹林的作用机制？'), channel('c2', '布洛芬')], 45);
      const names = () => [...el.shadowRoot!.querySelectorAll('[part~="channel-name"]')].map((n) => n.textContent);
      await waitFor(() => names().length === 2, 'the list');
      expect(part(el, 'placeholder')).to.not.equal(null);
      typeInto(part(el, 'search') as HTMLInputElement, '布洛芬');
      await waitFor(() => page.calls.find((c) => c.path.includes('search=%E5%B8%83%E6%B4%9B%E8%8A%AC')), 'the search call');

      const item = el.shadowRoot!.querySelector('[data-channel-id="c2"]')!;
      const renameButton = item.querySelector<HTMLElement>('[part~="rename"]')!;
      renameButton.focus(); // as a person's click does
      renameButton.click();
      const field = await waitFor(() => el.shadowRoot!.querySelector<HTMLInputElement>('[part~="rename-input"]'), 'the name field');
      expect(el.shadowRoot!.activeElement, 'the name field has the focus').to.equal(field);
      typeInto(field, '布洛芬的副作用');
      field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      await waitFor(() => page.calls.find((c) => c.method === 'PUT' && c.path === '/channel/c2'), 'the rename');
      expect(page.calls.find((c) => c.method === 'PUT')!.body).to.deep.equal({ name: '布洛芬的副作用' });

      const again = await waitFor(() => el.shadowRoot!.querySelector('[data-channel-id="c2"] [part~="delete-channel"]'), 'the delete button');
      (again as HTMLElement).click();
      const confirm = await waitFor(() => el.shadowRoot!.querySelector('[data-channel-id="c2"] [part~="confirm"]'), 'the confirmation');
      expect(page.calls.some((c) => c.method === 'DELETE')).to.equal(false);
      confirm.querySelector('button')!.click();
      await waitFor(() => page.calls.find((c) => c.method === 'DELETE' && c.path === '/channel/c2'), 'the delete');

      const nav = part(el, 'pagination')!;
      expect(nav.textContent).to.contain('第 1 / 3 页');
      [...nav.querySelectorAll('button')].find((b) => b.textContent === '下一页')!.click();
      await waitFor(() => page.calls.find((c) => c.path.startsWith('/channel?page=2')), 'page 2');
    });

    it('shows when each conversation was last active: the last 7 days relative in Chinese, this year M月D日, else YYYY/M/D', async () => {
      const now = new Date();
      const local = (y: number, m: number, d: number, h: number, min: number) => new Date(y, m, d, h, min).toISOString();
      // Three hours ago, 1 January this year (unless that is within the last week), and an old one.
      const today = new Date(now.getTime() - 3 * 3600_000 - 60_000).toISOString();
      const thisYear = now.getMonth() === 0 && now.getDate() <= 8 ? undefined : local(now.getFullYear(), 0, 1, 12, 0);
      const dated = (id: string, name: string, at: string) => ({ ...channel(id, name), updated_at: at });
      const rows = [dated('c1', '今天的对话', today), ...(thisYear ? [dated('c2', '今年的对话', thisYear)] : []), dated('c3', '去年的对话', local(2024, 2, 9, 18, 30)), channel('c4', '没有时间的对话')];
      const el = await show('', [], [], rows, rows.length);
      await waitFor(() => el.shadowRoot!.querySelectorAll('[part~="channel"]').length === rows.length, 'the list');
      const time = (id: string) => el.shadowRoot!.querySelector<HTMLTimeElement>(`[data-channel-id="${id}"] [part~="channel-time"]`);
      const at = new Date(today);
      expect(time('c1')!.textContent).to.equal('3小时前');
      expect(time('c1')!.title).to.equal(`最近活动：${at.getFullYear()}年${at.getMonth() + 1}月${at.getDate()}日 ${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`);
      expect(time('c1')!.dateTime).to.equal(today);
      if (thisYear) expect(time('c2')!.textContent).to.equal('1月1日');
      expect(time('c3')!.textContent).to.equal('2024/3/9');
      expect(time('c3')!.title).to.equal('最近活动：2024年3月9日 18:30');
      expect(time('c4'), 'no time when the server sent none').to.equal(null);
      // The server's order (last activity first) is kept.
      expect([...el.shadowRoot!.querySelectorAll<HTMLElement>('[part~="channel"]')].map((r) => r.dataset.channelId)).to.deep.equal(rows.map((r) => r.id));
      const result = await axe.run(el);
      expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).to.deep.equal([]);
    });

    it('close-sider="true" starts with the history collapsed; a follow-up goes to the same channel', async () => {
      const el = await show('channel-id="c1" close-sider="true"', [question('q1', { answer: '回答' })]);
      expect(part(el, 'history')).to.equal(null);
      const ask = await waitFor(() => el.shadowRoot!.querySelector('csai-ask'), 'the follow-up box');
      expect(ask.getAttribute('channel-id')).to.equal('c1');
      expect(ask.getAttribute('navigate')).to.equal('false');
      part(el, 'toggle-history')!.click();
      await waitFor(() => part(el, 'history'), 'the history');
    });
  });

  it('says a search found nothing (not that there are no conversations), and lists them again when cleared', async () => {
    const noneFound: Route = ['GET', '/channel', (c) => (c.path.includes('search=') ? ok({ items: [], total: 0, page: 1, size: 20 }) : undefined)];
    const el = await show('channel-id="c1"', [question('q1', { answer: '回答' })], [noneFound]);
    await waitFor(() => el.shadowRoot!.querySelector('[data-channel-id="c2"]'), 'the history');
    const search = part(el, 'search') as HTMLInputElement;
    typeInto(search, '不存在的对话');
    await waitFor(() => part(el, 'empty')?.textContent === '没有找到匹配的对话', 'the no-match notice');
    typeInto(search, '');
    await waitFor(() => el.shadowRoot!.querySelector('[data-channel-id="c2"]'), 'the history again');
    expect(part(el, 'empty')).to.equal(null);
  });
});
