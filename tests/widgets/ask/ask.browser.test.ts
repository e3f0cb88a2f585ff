import axe from 'axe-core';
import '../../../src/widgets/ask/ask.element';
import type { CsaiAskElement } from '../../../src/widgets/ask/ask.element';
import { statusStore } from '../../../src/core/status-store';
import { toastStore } from '../../../src/core/toast';
import { expect, failOnConsoleErrors, nextFrame, part, waitFor } from '../harness';
import { chooseFiles, doc, fail, FakeAnswerStream, fakeCsaiPage, FakeXhr, ok, pdf, png, typeInto, type Route } from './fake-csai';

const shadow = (el: Element) => el.shadowRoot!;
const input = (el: Element) => part(el, 'input') as HTMLTextAreaElement;
const lastToast = () => toastStore().$toasts.value[0];
/** A pointer moving onto `el` as a browser reports it: mouseover (what React's onMouseEnter follows), then mouseenter. */
const hover = (el: Element) => {
  el.dispatchEvent(new MouseEvent('mouseover', { bubbles: true, composed: true }));
  el.dispatchEvent(new MouseEvent('mouseenter'));
};
/** The pointer leaving `el` for `to`: mouseout, then mouseleave. */
const unhover = (el: Element, to: Element) => {
  el.dispatchEvent(new MouseEvent('mouseout', { bubbles: true, composed: true, relatedTarget: to }));
  el.dispatchEvent(new MouseEvent('mouseleave', { relatedTarget: to }));
};
const key = (el: Element, init: KeyboardEventInit) => el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true, cancelable: true, ...init }));

describe('<csai-ask>', () => {
  failOnConsoleErrors();
  const page = fakeCsaiPage();

  beforeEach(() => {
    const ask = statusStore().ask;
    ask.$isThinking.value = true;
    ask.$isDeepResearch.value = false;
    ask.$isOnline.value = true;
    ask.$searchType.value = 'all';
    toastStore().remove();
  });

  const show = async (attrs = 'navigate="false"', extra: Route[] = []) => {
    page.serve(extra);
    const el = page.mount<CsaiAskElement>(`<csai-ask ${attrs}></csai-ask>`);
    await waitFor(() => input(el), 'the question box');
    await waitFor(() => part(el, 'toggle-tools')?.getAttribute('aria-pressed') === 'true', 'the tools');
    return el;
  };
  const sent = () => page.calls.find((c) => c.path === '/channel/init_questions');
  const fileInput = (el: Element) => shadow(el).querySelector<HTMLInputElement>('input[type=file]')!;

  describe('language', () => {
    it('speaks English from its first render with lang="en" (its English strings load on demand), Chinese otherwise', async () => {
      const el = await show('navigate="false" lang="en"');
      // The first box on screen is already English: no Chinese placeholder flashed before it.
      expect(input(el).placeholder).to.equal('Ask a question. Enter sends, Shift+Enter adds a line');
      expect(part(el, 'send')!.textContent).to.contain('Send');
      el.setAttribute('lang', 'zh-CN');
      await waitFor(() => input(el).placeholder === '输入问题，Enter 发送，Shift+Enter 换行', 'the Chinese placeholder');
      el.setAttribute('lang', 'en-GB');
      await waitFor(() => input(el).placeholder.startsWith('Ask a question'), 'the English placeholder again');
    });
  });

  describe('toggles', () => {
    it('start with thinking on, deep research off, online search on, every usable tool on, search type all', async () => {
      const el = await show();
      expect(part(el, 'toggle-thinking')!.getAttribute('aria-pressed')).to.equal('true');
      expect(part(el, 'toggle-deep-research')!.getAttribute('aria-pressed')).to.equal('false');
      expect(part(el, 'toggle-online')!.getAttribute('aria-pressed')).to.equal('true');
      expect((part(el, 'search-type') as HTMLSelectElement).value).to.equal('all');
      expect(page.calls.some((c) => c.path === '/tools'), 'the tool list loads on first use').to.equal(false);
      typeInto(input(el), '布洛芬的作用机制');
      key(input(el), {});
      await waitFor(sent, 'the question');
      expect(sent()!.body).to.deep.include({ if_thinking: true, deepresearch: false, if_search_online: true, search_type: 'all' });
      expect((sent()!.body as { tools_name: string[] }).tools_name).to.have.members(['web_search', 'crawl']);
    });

    it('deep research says it takes about 10–20 minutes; the tools button switches every tool off and on', async () => {
      const el = await show();
      part(el, 'toggle-deep-research')!.click();
      await waitFor(() => part(el, 'deep-research-hint'), 'the hint');
      expect(part(el, 'deep-research-hint')!.textContent).to.contain('10–20 分钟');
      part(el, 'toggle-tools')!.click();
      await waitFor(() => part(el, 'toggle-tools')!.getAttribute('aria-pressed') === 'false', 'tools off');
      part(el, 'toggle-thinking')!.click();
      part(el, 'toggle-online')!.click();
      await nextFrame();
      typeInto(input(el), '问题');
      await nextFrame(); // the send button enables on the next render, before a person could click it
      part(el, 'send')!.click();
      await waitFor(sent, 'the question');
      expect(sent()!.body).to.deep.include({ if_thinking: false, deepresearch: true, if_search_online: false, tools_name: [] });
    });

    it('the tools panel lists tools by group on hover, greys ldap_disabled ones, and closes after the pointer leaves', async () => {
      const el = await show();
      const wrap = part(el, 'toggle-tools')!.parentElement!;
      hover(wrap);
      const panel = await waitFor(() => part(el, 'tools-panel')?.querySelector('[part~="tool-group"]') && part(el, 'tools-panel'), 'the panel with its tools');
      const groups = [...panel.querySelectorAll('[part~="tool-group"] legend')].map((l) => l.textContent);
      expect(groups).to.deep.equal(['搜索', '小分子与蛋白']);
      const admet = [...panel.querySelectorAll<HTMLElement>('[part~="tool"]')].find((t) => t.textContent?.includes('ADMET'))!;
      expect(admet.dataset.disabled).to.equal('true');
      expect(admet.querySelector('input')!.disabled).to.equal(true);
      unhover(wrap, document.body);
      expect(part(el, 'tools-panel'), 'still open right after leaving').to.not.equal(null);
      await waitFor(() => part(el, 'tools-panel') === null, 'the panel to close');
    });

    it('with no usable tool on the server, the tools toggle turns off and the panel says none is available', async () => {
      const unusable = [{ id: 'chem', label: '小分子与蛋白', tools: [{ id: 'admet', label: 'ADMET计算', value: 'admet', description: '', icon: '', enabled: false, ldap_disabled: false }] }];
      const el = await show(undefined, [['*', '/tools', () => ok(unusable)]]);
      hover(part(el, 'toggle-tools')!.parentElement!);
      const none = await waitFor(() => part(el, 'tools-none'), 'the no-tools note');
      expect(none.textContent).to.contain('暂未提供可用的工具');
      expect(part(el, 'toggle-tools')!.getAttribute('aria-pressed')).to.equal('false');
      part(el, 'toggle-tools')!.click();
      await new Promise((r) => setTimeout(r, 50));
      expect(part(el, 'toggle-tools')!.getAttribute('aria-pressed'), 'a click cannot turn on nothing').to.equal('false');
    });
  });

  describe('keyboard', () => {
    it('Enter sends; Shift+Enter and Ctrl+Enter add a newline; nothing is sent while composing', async () => {
      const el = await show();
      typeInto(input(el), '第一行');
      key(input(el), { shiftKey: true });
      await nextFrame();
      expect(input(el).value).to.equal('第一行\n');
      key(input(el), { ctrlKey: true });
      await nextFrame();
      expect(input(el).value).to.equal('第一行\n\n');
      input(el).dispatchEvent(new CompositionEvent('compositionstart', { bubbles: true }));
      key(input(el), { isComposing: true });
      await nextFrame();
      expect(sent()).to.equal(undefined);
      input(el).dispatchEvent(new CompositionEvent('compositionend', { bubbles: true }));
      key(input(el), {});
      await waitFor(sent, 'the question');
      expect((sent()!.body as { question: string }).question).to.equal('第一行');
    });

    it('a key typed right after Shift+Enter, before the next frame, goes after the new line (a loaded machine)', async () => {
      const el = await show();
      const box = input(el);
      typeInto(box, '这段代码做什么？');
      key(box, { shiftKey: true });
      await Promise.resolve();
      // Keys as the browser types them: at the caret, before any frame was drawn.
      const press = (s: string) => {
        box.setRangeText(s, box.selectionStart, box.selectionEnd, 'end');
        box.dispatchEvent(new Event('input', { bubbles: true }));
      };
      press('p');
      await nextFrame();
      await nextFrame();
      press('rint(1)');
      await nextFrame();
      expect(box.value).to.equal('这段代码做什么？\nprint(1)');
      key(box, {});
      await waitFor(sent, 'the question');
      expect((sent()!.body as { question: string }).question).to.equal('这段代码做什么？\nprint(1)');
    });

    it('a question of only spaces is not sent', async () => {
      const el = await show();
      typeInto(input(el), '   \n ');
      key(input(el), {});
      await nextFrame();
      await nextFrame();
      expect(page.calls.some((c) => c.method === 'POST')).to.equal(false);
      expect((part(el, 'send') as HTMLButtonElement).disabled).to.equal(true);
    });
  });

  describe('paste', () => {
    it('pasted text loses its HTML tags', async () => {
      const el = await show();
      const dt = new DataTransfer();
      dt.setData('text/html', '<p><b>阿司匹林</b>的<i>结构</i></p>');
      input(el).dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
      await waitFor(() => input(el).value === '阿司匹林的结构', 'the pasted text');
    });

    it('a pasted image becomes an uploaded file', async () => {
      const el = await show();
      const dt = new DataTransfer();
      dt.items.add(png('image.png'));
      input(el).dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
      const xhr = await waitFor(() => FakeXhr.sent[0], 'the upload');
      expect(xhr.files().map((f) => f.name)).to.deep.equal(['image.png']);
      expect(xhr.url).to.contain('/knowledge_base/upload?folder_id=folder_for_question_channel');
      expect(xhr.headers['X-CSRF-TOKEN']).to.equal('test-token');
      expect(input(el).value).to.equal('');
    });
  });

  describe('files and knowledge bases', () => {
    it('uploads with per-file progress, then polls parsing every second until done', async () => {
      let polls = 0;
      const el = await show('navigate="false"', [
        ['*', '/knowledge_base/doc/pa1', () => ok(doc('pa1', 'a.pdf', ++polls < 2 ? 1 : 2, polls < 2 ? 40 : 100))],
        ['*', '/knowledge_base/doc/pb2', () => ok(doc('pb2', 'b.pdf', 2, 100))],
      ]);
      chooseFiles(fileInput(el), [pdf('a.pdf'), pdf('b.pdf')]);
      const xhr = await waitFor(() => FakeXhr.sent[0], 'the upload');
      const chips = () => [...shadow(el).querySelectorAll<HTMLElement>('[part~="file-chip"]')];
      await waitFor(() => chips().length === 2, 'two chips');
      const size = xhr.files()[0]!.size;
      xhr.progress(size, size * 2);
      await waitFor(() => chips()[0]!.textContent?.includes('上传中 100%') && chips()[1]!.textContent?.includes('上传中 0%'), 'per-file progress');
      expect(part(el, 'upload-total')!.textContent).to.contain('50%');
      xhr.respond(200, { success: true, data: { name_id: [{ name: 'a.pdf', docId: 'pa1' }, { name: 'b.pdf', docId: 'pb2' }] }, message: '上传成功' });
      await waitFor(() => chips()[0]!.textContent?.includes('解析中'), 'parsing');
      await waitFor(() => chips().every((c) => c.dataset.phase === 'done'), 'both parsed');
      expect(chips()[0]!.textContent).to.contain('完成');
      expect(statusStore().ask.$docIdList.value).to.deep.equal(['pa1', 'pb2']);
      // This test's own documents only. A one-off fetch of them after sending (an element adopting
      // the ids of the shared store) is not polling: polling would keep asking every second.
      const docPolls = () => page.calls.filter((c) => c.path === '/knowledge_base/doc/pa1' || c.path === '/knowledge_base/doc/pb2').length;
      typeInto(input(el), '总结这两篇文献');
      key(input(el), {});
      await waitFor(sent, 'the question');
      expect(sent()!.body).to.deep.include({ docIdList: ['pa1', 'pb2'], kb_ids: [] });
      await new Promise((r) => setTimeout(r, 1200)); // longer than the poll interval
      const settled = docPolls();
      await new Promise((r) => setTimeout(r, 2500)); // two more poll intervals
      expect(docPolls(), 'polling stopped').to.equal(settled);
    });

    it('files dropped on the box are uploaded', async () => {
      const el = await show();
      const dt = new DataTransfer();
      dt.items.add(pdf('dropped.pdf'));
      part(el, 'base')!.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      await waitFor(() => part(el, 'base')!.dataset.dragging === 'true', 'the drop highlight');
      part(el, 'base')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      const xhr = await waitFor(() => FakeXhr.sent[0], 'the upload');
      expect(xhr.files().map((f) => f.name)).to.deep.equal(['dropped.pdf']);
    });

    it('an upload error marks every file of the batch failed and says 上传失败', async () => {
      const el = await show();
      chooseFiles(fileInput(el), [pdf('a.pdf'), pdf('b.pdf')]);
      const xhr = await waitFor(() => FakeXhr.sent[0], 'the upload');
      xhr.respond(500, { success: false, message: '磁盘已满', code: 'internal' });
      await waitFor(() => [...shadow(el).querySelectorAll<HTMLElement>('[part~="file-chip"]')].every((c) => c.dataset.phase === 'failed'), 'failed chips');
      expect(lastToast()).to.deep.include({ title: '上传失败', description: '文件上传过程中发生错误' });
    });

    it('an upload refused with 403 asks to sign in (需要登录) and goes to sign-in', async () => {
      const el = await show();
      const paths: string[] = [];
      el.addEventListener('csai-navigate', (e) => {
        e.preventDefault();
        paths.push(e.detail.path);
      });
      chooseFiles(fileInput(el), [pdf('a.pdf')]);
      const xhr = await waitFor(() => FakeXhr.sent[0], 'the upload');
      xhr.respond(403, { success: false, message: 'Invalid session key', code: 'forbidden' });
      await waitFor(() => paths.length, 'the navigation');
      expect(paths).to.deep.equal(['/auth/sign-in']);
      expect(lastToast()).to.deep.include({ title: '需要登录', description: '请先登录后再试' });
    });

    it('refuses a 7th file, a wrong type and a duplicate name with the SPEC messages; renames a duplicate image', async () => {
      const el = await show();
      const message = () => part(el, 'message')?.textContent;
      chooseFiles(fileInput(el), Array.from({ length: 7 }, (_, i) => pdf(`f${i}.pdf`)));
      await waitFor(() => message() === '多文档问答的上限是6篇，如需处理更多文档，请创建知识库后再提问', 'the limit message');
      expect(FakeXhr.sent.length).to.equal(0);
      chooseFiles(fileInput(el), [new File(['x'], 'notes.docx')]);
      await waitFor(() => message() === '仅支持PDF、JPEG、JPG、PNG、PDB和SDF文件格式', 'the type message');
      chooseFiles(fileInput(el), [pdf('a.pdf'), png('mol.png')]);
      await waitFor(() => FakeXhr.sent.length === 1, 'the first upload');
      chooseFiles(fileInput(el), [pdf('a.pdf'), png('mol.png')]);
      await waitFor(() => message() === '文件名重复，请重新上传', 'the duplicate message');
      await waitFor(() => FakeXhr.sent.length === 2, 'the second upload');
      expect(FakeXhr.sent[1]!.files().map((f) => f.name)).to.deep.equal(['mol_1.png']);
    });

    it('at 6 files another one is refused: 最多只能选择6个文件', async () => {
      const el = await show();
      chooseFiles(fileInput(el), Array.from({ length: 6 }, (_, i) => pdf(`f${i}.pdf`)));
      await waitFor(() => FakeXhr.sent.length === 1, 'the upload');
      chooseFiles(fileInput(el), [pdf('g.pdf')]);
      await waitFor(() => part(el, 'message')?.textContent === '最多只能选择6个文件', 'the message');
    });

    it('files and knowledge bases exclude each other; at most 2 knowledge bases', async () => {
      const el = await show();
      part(el, 'tab-knowledge')!.click();
      const options = await waitFor(() => {
        const o = shadow(el).querySelectorAll<HTMLElement>('[part~="kb-option"]');
        return o.length === 3 && o;
      }, 'the folders');
      expect(page.calls.map((c) => c.path)).to.include.members(['/knowledge_base/folder?page=1&size=100', '/knowledge_base/get_share_folders?page=1&size=100&sort=-createTime']);
      options[0]!.querySelector('input')!.click();
      await waitFor(() => shadow(el).querySelectorAll('[part~="kb-chip"]').length === 1, 'one kb chip');
      options[1]!.querySelector('input')!.click();
      await waitFor(() => shadow(el).querySelectorAll('[part~="kb-chip"]').length === 2, 'two kb chips');
      options[2]!.querySelector('input')!.click();
      await waitFor(() => part(el, 'message')?.textContent === '最多只能选择2个知识库', 'the kb limit');
      part(el, 'tab-files')!.click();
      await waitFor(() => fileInput(el), 'the files tab');
      chooseFiles(fileInput(el), [pdf('a.pdf')]);
      await waitFor(() => part(el, 'message')?.textContent === '已经选择知识库，不能选择文件', 'knowledge chosen');
      expect(FakeXhr.sent.length).to.equal(0);

      statusStore().ask.$selectedKbs.value = [];
      await nextFrame();
      chooseFiles(fileInput(el), [pdf('a.pdf')]);
      await waitFor(() => FakeXhr.sent.length === 1, 'the upload');
      part(el, 'tab-knowledge')!.click();
      const again = await waitFor(() => shadow(el).querySelector<HTMLInputElement>('[part~="kb-option"] input'), 'the folders');
      again.click();
      await waitFor(() => part(el, 'message')?.textContent === '已经选择文件，不能选择知识库', 'files chosen');
    });
  });

  describe('preselected documents (the home page docIds)', () => {
    it('become chips with their titles; ids the server refuses are dropped; ids added later too', async () => {
      statusStore().ask.$docIdList.value = ['d1', 'nope'];
      const el = await show('navigate="false"', [
        ['*', '/knowledge_base/doc/d1', () => ok(doc('d1', '药理学.pdf', 2, 100))],
        ['*', '/knowledge_base/doc/d3', () => ok(doc('d3', '综述.pdf', 2, 100))],
      ]);
      const names = () => [...shadow(el).querySelectorAll('[part~="file-chip"] span:first-child')].map((s) => s.textContent);
      await waitFor(() => names().length === 1, 'the chip');
      expect(names()).to.deep.equal(['药理学.pdf']);
      await waitFor(() => statusStore().ask.$docIdList.value.length === 1, 'the refused id dropped');
      statusStore().ask.preselectDocuments(['d3']);
      await waitFor(() => names().length === 2, 'the later chip');
      typeInto(input(el), '比较两篇');
      key(input(el), {});
      await waitFor(sent, 'the question');
      expect(sent()!.body).to.deep.include({ docIdList: ['d1', 'd3'] });
    });
  });

  describe('the submit flow', () => {
    it('creates a channel named after the first 50 characters, sends, clears and opens the conversation', async () => {
      const el = await show('');
      const navigations: string[] = [];
      const submitted: unknown[] = [];
      el.addEventListener('csai-navigate', (e) => {
        e.preventDefault();
        navigations.push(e.detail.path);
      });
      el.addEventListener('csai-submitted', (e) => submitted.push(e.detail));
      const long = '阿'.repeat(60);
      typeInto(input(el), long);
      key(input(el), {});
      await waitFor(() => navigations.length, 'the navigation');
      const create = page.calls.find((c) => c.method === 'POST' && c.path === '/channel')!;
      expect(create.body).to.deep.equal({ name: '阿'.repeat(50) });
      expect(sent()!.body).to.deep.include({ question: long, channel_id: 'c1' });
      expect(navigations).to.deep.equal(['/channels?channel_id=c1&closeSider=true']);
      expect(submitted).to.deep.equal([{ channelId: 'c1', questionId: 'q1' }]);
      // Cleared in the render that follows the send (React commits it in a task of its own).
      await waitFor(() => input(el).value === '', 'the box cleared');
    });

    it('with channel-id it asks in that channel, creates none, and shows the stop button while answering', async () => {
      const el = await show('channel-id="c9"');
      typeInto(input(el), '继续：它的代谢途径？');
      key(input(el), {});
      await waitFor(sent, 'the question');
      expect(page.calls.some((c) => c.method === 'POST' && c.path === '/channel')).to.equal(false);
      expect(sent()!.body).to.deep.include({ channel_id: 'c9' });
      const stop = await waitFor(() => part(el, 'stop'), 'the stop button');
      expect(FakeAnswerStream.all[0]!.url).to.contain('/channel/questions/q1/events');
      stop.click();
      await waitFor(() => page.calls.find((c) => c.method === 'PUT' && c.path === '/channel/stop_questions/q1'), 'the stop call');
      FakeAnswerStream.all[0]!.emit(5, 'done', { status: 'stopped' });
      await waitFor(() => part(el, 'send'), 'the send button again');
    });

    it('ask(question) sends at once', async () => {
      const el = await show();
      el.ask('什么是 ADMET？');
      await waitFor(sent, 'the question');
      expect((sent()!.body as { question: string }).question).to.equal('什么是 ADMET？');
    });

    it('a file still parsing blocks sending: 无法发送 / 文件正在解析中，请等待上传完成', async () => {
      statusStore().ask.$files_list.value = [{ docId: 'd1', name: 'a.pdf' }];
      statusStore().ask.$docIdList.value = ['d1'];
      const el = await show('navigate="false"', [['*', '/knowledge_base/doc/d1', () => ok(doc('d1', 'a.pdf', 1, 10))]]);
      typeInto(input(el), '问题');
      key(input(el), {});
      await waitFor(() => lastToast(), 'the toast');
      expect(lastToast()).to.deep.include({ title: '无法发送', description: '文件正在解析中，请等待上传完成', variant: 'destructive' });
      expect(sent()).to.equal(undefined);
    });

    it('a knowledge base still parsing blocks sending: 无法发送 / 知识库解析中，请等待解析完成', async () => {
      statusStore().ask.$selectedKbs.value = [{ id: 'kb1', name: '药化文献' }];
      const el = await show('navigate="false"', [['*', '/knowledge_base/folder/check_folder', () => ok({ all_parsed: false, folders: [] })]]);
      typeInto(input(el), '问题');
      key(input(el), {});
      await waitFor(() => lastToast(), 'the toast');
      expect(lastToast()).to.deep.include({ title: '无法发送', description: '知识库解析中，请等待解析完成' });
      expect(page.calls.find((c) => c.path === '/knowledge_base/folder/check_folder')!.body).to.deep.equal({ folder_ids: ['kb1'] });
      expect(sent()).to.equal(undefined);
    });

    it('a failed channel creation says 创建频道失败 with the server message and sends nothing', async () => {
      const el = await show('', [['POST', '/channel', () => fail(500, '数据库不可用', 'internal')]]);
      const errors: unknown[] = [];
      el.addEventListener('csai-error', (e) => errors.push(e.detail));
      typeInto(input(el), '问题');
      key(input(el), {});
      await waitFor(() => lastToast(), 'the toast');
      expect(lastToast()).to.deep.include({ title: '创建频道失败', description: '数据库不可用' });
      expect(sent()).to.equal(undefined);
      expect(input(el).value, 'the question stays').to.equal('问题');
      expect(errors).to.have.length(1);
    });

    it('a failed send says 发送失败 with the server message, or 请稍后重试 without one', async () => {
      const el = await show('navigate="false"', [['*', '/channel/init_questions', () => new Response('oops', { status: 502 })]]);
      typeInto(input(el), '问题');
      key(input(el), {});
      await waitFor(() => lastToast(), 'the toast');
      expect(lastToast()!.title).to.equal('发送失败');
      expect(lastToast()!.description).to.be.a('string').and.not.equal('');
      expect(input(el).value).to.equal('问题');
    });
  });

  describe('the chemical editor', () => {
    it('waits for <csai-chem-editor>, opens it and inserts the SMILES at the caret', async () => {
      const el = await show();
      typeInto(input(el), '这个分子：');
      part(el, 'chem-editor')!.click();
      if (!customElements.get('csai-chem-editor')) {
        customElements.define(
          'csai-chem-editor',
          class extends HTMLElement {
            open() {
              this.dispatchEvent(new CustomEvent('csai-chem-smiles', { detail: { smiles: 'CC(=O)Oc1ccccc1C(=O)O' }, bubbles: true, composed: true }));
            }
          },
        );
      }
      await waitFor(() => input(el).value === '这个分子：CC(=O)Oc1ccccc1C(=O)O', 'the SMILES');
    });
  });

  describe('a server-rendered copy of the box (home\'s first paint)', () => {
    const live = (el: Element) => shadow(el).querySelector<HTMLTextAreaElement>('.csai-root:not([data-csai-prerendered]) [part~="input"]');
    const copyParts = (el: Element) => shadow(el).querySelectorAll('[data-csai-prerendered]').length;

    it('shows the copy until the view renders, then takes over what was typed, the caret and the focus', async () => {
      page.serve();
      const box = page.mount('<div></div>');
      // Parsed as the browser parses a page: the template becomes the element's shadow root.
      box.setHTMLUnsafe(
        '<csai-ask navigate="false"><template shadowrootmode="open"><style data-csai-prerendered="">textarea{color:red}</style>' +
          '<div class="csai-root" data-csai-prerendered=""><form><textarea part="input" name="q">阿司匹林的机制</textarea></form></div></template></csai-ask>',
      );
      const el = box.querySelector('csai-ask')!;
      const typed = shadow(el).querySelector('textarea')!;
      // The element is defined, yet its copy stays (an upgrade does not empty the shadow root).
      expect(customElements.get('csai-ask')).to.not.equal(undefined);
      expect(typed.isConnected).to.equal(true);
      typed.focus();
      typed.setSelectionRange(4, 4);
      await waitFor(() => live(el), 'the live box');
      expect(copyParts(el)).to.equal(0);
      expect(live(el)!.value).to.equal('阿司匹林的机制');
      expect(shadow(el).activeElement).to.equal(live(el));
      expect([live(el)!.selectionStart, live(el)!.selectionEnd]).to.deep.equal([4, 4]);
      // The text is the view's own: sending sends it.
      key(live(el)!, {});
      await waitFor(() => sent(), 'the question sent');
      expect((sent()!.body as { question: string }).question).to.equal('阿司匹林的机制');
    });

    it('keeps what was typed and its state when moved elsewhere in the page (home takes the copy into its own page)', async () => {
      const el = await show();
      typeInto(input(el), '布洛芬');
      part(el, 'tab-knowledge')!.click();
      await waitFor(() => part(el, 'knowledge'), 'the knowledge tab');
      const other = document.createElement('div');
      document.body.append(other);
      try {
        other.append(el);
        await nextFrame();
        await nextFrame();
        expect(input(el).value).to.equal('布洛芬');
        expect(part(el, 'knowledge')).to.not.equal(null);
      } finally {
        other.remove();
      }
    });
  });

  it('has no serious accessibility violations', async () => {
    const el = await show();
    hover(part(el, 'toggle-tools')!.parentElement!);
    await waitFor(() => part(el, 'tools-panel'), 'the panel');
    const result = await axe.run(el.shadowRoot!.querySelector('.csai-root')!);
    const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${v.id}: ${v.help}`)).to.deep.equal([]);
  });
});
