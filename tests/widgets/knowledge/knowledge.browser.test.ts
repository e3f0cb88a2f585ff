import axe from 'axe-core';
import '../../../src/widgets/knowledge/knowledge.element';
import { toastStore } from '../../../src/core/toast';
import { clearStatusStorage, statusStore } from '../../../src/core/status-store';
import { setNavigate } from '../../../src/core/page';
import { perFileProgress, totalProgress } from '../../../src/core/upload-progress';
import { UPLOAD_CLEAR_MS } from '../../../src/widgets/knowledge/MainList';
import { selectFolder } from '../../../src/widgets/knowledge/state';
import { expect, failOnConsoleErrors, mount, nextFrame, part, transitionsDone, waitFor } from '../harness';
import { doc, fail, FakeXhr, fakeServer, folder, installFakeXhr } from './fake-server';

const shadow = (el: Element) => el.shadowRoot!;
const all = <T extends Element = HTMLElement>(el: Element, sel: string) => [...shadow(el).querySelectorAll<T & Element>(sel)];
const button = (el: Element | ShadowRoot, text: string | RegExp) =>
  [...(el instanceof Element ? shadow(el) : el).querySelectorAll<HTMLButtonElement>('button')].find((b) =>
    typeof text === 'string' ? b.textContent?.trim() === text || b.getAttribute('aria-label') === text : text.test(b.textContent ?? ''));
const text = (el: Element) => shadow(el).textContent ?? '';
const lastToast = () => toastStore().$toasts.value[0];
const dialog = (el: Element) => shadow(el).querySelector<HTMLDialogElement>('dialog[open]');

function file(name: string, size = 1000, type = 'application/pdf') {
  return new File([new Uint8Array(size)], name, { type });
}
function choose(el: Element, files: File[]) {
  const input = shadow(el).querySelector<HTMLInputElement>('input[type=file]')!;
  const dt = new DataTransfer();
  for (const f of files) dt.items.add(f);
  input.files = dt.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
}
function type(input: HTMLInputElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  setter.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/** Polls every frame until the check passes or `ms` pass (for waits longer than waitFor's 3 s). */
async function until(check: () => unknown, what: string, ms: number) {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await nextFrame();
  }
}

async function seriousViolations(el: Element) {
  // The element at rest, as a user reads it (not a colour change half-way through).
  await transitionsDone(el);
  const result = await axe.run(el);
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('<csai-knowledge>', () => {
  failOnConsoleErrors();
  let server: ReturnType<typeof fakeServer>;
  let box: HTMLElement | undefined;
  let navigations: string[] = [];
  let errors: { message: string; code: string }[] = [];
  const onNavigate = (e: Event) => {
    e.preventDefault();
    navigations.push((e as CustomEvent<{ path: string; url: string }>).detail.path);
  };
  const onError = (e: Event) => errors.push((e as CustomEvent<{ message: string; code: string }>).detail);
  let restoreXhr = () => {};

  beforeEach(() => {
    selectFolder(null);
    clearStatusStorage(sessionStorage);
    statusStore().ask.$files_list.value = [];
    statusStore().ask.$docIdList.value = [];
    statusStore().ask.$selectedKbs.value = [];
    toastStore().remove();
    server = fakeServer();
    navigations = [];
    errors = [];
    document.addEventListener('csai-navigate', onNavigate);
    document.addEventListener('csai-error', onError);
    restoreXhr = installFakeXhr();
    setNavigate((path) => navigations.push(`api:${path}`));
  });
  afterEach(() => {
    box?.remove();
    box = undefined;
    server.restore();
    document.removeEventListener('csai-navigate', onNavigate);
    document.removeEventListener('csai-error', onError);
    restoreXhr();
  });

  const show = async (attrs = '') => {
    box = mount(`<csai-knowledge ${attrs}></csai-knowledge>`);
    const el = box.querySelector('csai-knowledge')!;
    await waitFor(() => all(el, '[part~="folder"]').length >= 2, 'the folder lists');
    return el;
  };
  const openFolder = async (el: Element, id = 'f1') => {
    shadow(el).querySelector<HTMLButtonElement>(`[data-folder-id="${id}"]`)!.click();
    await waitFor(() => part(el, 'documents') || part(el, 'empty'), 'the documents');
  };

  describe('the folder lists and the main list', () => {
    it('lists my, shared and public folders and shows the blank view until one is chosen', async () => {
      const el = await show();
      expect(part(el, 'section-mine')!.textContent).to.contain('激酶抑制剂文献');
      expect(part(el, 'section-shared')!.textContent).to.contain('课题组共享');
      // The public list is a call of its own, which may answer after the others.
      await waitFor(() => part(el, 'section-public')?.textContent?.includes('暂无公开的知识库'), 'the empty public list');
      expect(part(el, 'main-blank')!.textContent).to.contain('选择一个知识库');
      expect(server.calls.map((c) => c.target)).to.include('/api/v1/knowledge_base/folder?page=1&size=100&sort=-createTime');
      expect(await seriousViolations(el)).to.deep.equal([]);
    });

    it('shows a folder’s documents with their parse states, molecule count and keeps the store fields', async () => {
      const el = await show();
      await openFolder(el);
      const rows = all(el, '[part~="document"]');
      expect(rows.map((r) => r.querySelector('[part~="document-title"]')!.textContent)).to.deep.equal(['综述.pdf', 'cdk2.sdf', '扫描件.png']);
      expect(rows.map((r) => r.querySelector('[part~="parse-status"]')!.textContent)).to.deep.equal(['完成', '完成', '失败']);
      await waitFor(() => part(el, 'molecule-count'), 'the molecule count');
      expect(part(el, 'molecule-count')!.textContent).to.equal('47 个分子');
      expect(rows[2]!.textContent).to.contain('OCR 不可用');
      expect(sessionStorage.getItem('csai:folder_id')).to.equal('"f1"');
      expect(sessionStorage.getItem('csai:folder_name')).to.equal('"激酶抑制剂文献"');
      expect(sessionStorage.getItem('csai:folder_file_count')).to.equal('3');
      expect(part(el, 'folder-active')!.getAttribute('aria-current')).to.equal('true');
      expect(await seriousViolations(el)).to.deep.equal([]);
    });

    it('searches the documents and pages through them', async () => {
      server.state.docs.f1 = Array.from({ length: 25 }, (_, i) => doc(`d${i}`, `论文${i + 1}.pdf`));
      const el = await show();
      await openFolder(el);
      expect(part(el, 'pagination')!.textContent).to.contain('第 1 / 2 页');
      button(el, '下一页')!.click();
      await waitFor(() => all(el, '[part~="document"]').length === 5, 'page 2');
      type(shadow(el).querySelector<HTMLInputElement>('input[placeholder="搜索文档"]')!, '论文25');
      await waitFor(() => all(el, '[part~="document"]').length === 1, 'the search result');
      expect(server.calls.some((c) => c.target.includes('search=%E8%AE%BA%E6%96%8725') && c.target.includes('page=1'))).to.equal(true);
    });

    it('opens a document in the viewer through csai-navigate', async () => {
      const el = await show();
      await openFolder(el);
      all(el, '[part~="document-title"]')[0]!.click();
      button(el, '3D 查看')!.click();
      all(el, '[part~="document-title"]')[2]!.click();
      expect(navigations).to.deep.equal(['/pdf_viewer?docId=d1&if_img=0', '/pdf_viewer?docId=d2&if_img=0&type=5', '/pdf_viewer?docId=d3&if_img=1']);
    });

    it('renders only the part named by view', async () => {
      box = mount('<csai-knowledge view="sidebar_header"></csai-knowledge><csai-knowledge view="main_blank"></csai-knowledge>');
      const [header, blank] = [...box.querySelectorAll('csai-knowledge')];
      await waitFor(() => part(header!, 'sidebar-header') && part(blank!, 'main-blank'), 'the parts');
      expect(part(header!, 'sidebar-content')).to.equal(null);
      expect(part(blank!, 'sidebar')).to.equal(null);
    });

    it('shows only public folders with view="public", read only', async () => {
      server.state.public = [folder('p1', '公开化合物库', { is_owner: false, is_public: true, owner_name: '张老师', doc_count: 1 })];
      server.state.docs.p1 = [doc('d7', '公开综述.pdf', { is_owner: false, owner_id: 'u9' })];
      box = mount('<csai-knowledge view="public"></csai-knowledge>');
      const el = box.querySelector('csai-knowledge')!;
      await waitFor(() => all(el, '[part~="folder"]').length === 1, 'the public folder');
      expect(part(el, 'section-mine')).to.equal(null);
      expect(part(el, 'new-folder')).to.equal(null);
      await openFolder(el, 'p1');
      expect(part(el, 'folder-actions')).to.equal(null);
      expect(text(el)).to.contain('所有者：张老师');
      expect(await seriousViolations(el)).to.deep.equal([]);
    });

    it('has no serious accessibility violation in the dark theme', async () => {
      const el = await show('theme="dark"');
      await openFolder(el);
      expect(await seriousViolations(el)).to.deep.equal([]);
    });

    it('forgets a folder that is no longer readable', async () => {
      const el = await show();
      await openFolder(el);
      server.on('GET', '/knowledge_base/folder/f1', () => fail(403, '没有权限访问该知识库', 'forbidden'));
      type(shadow(el).querySelector<HTMLInputElement>('input[placeholder="搜索文档"]')!, '综述');
      await waitFor(() => part(el, 'main-blank'), 'the blank view');
      expect(sessionStorage.getItem('csai:folder_id')).to.equal('""');
      expect(errors.at(-1)).to.include({ code: 'forbidden', message: '没有权限访问该知识库' });
    });

    it('on a foreign page calls the api-base server and shows its own toasts', async () => {
      const el = await show('api-base="https://csai.example.com"');
      expect(server.calls.every((c) => c.origin === 'https://csai.example.com')).to.equal(true);
      await openFolder(el);
      all(el, '[part~="document-title"]')[0]!.click();
      expect(navigations).to.deep.equal(['/pdf_viewer?docId=d1&if_img=0']);
      button(el, '新建知识库')!.click();
      const d = await waitFor(() => dialog(el), 'the dialog');
      type(d.querySelector('input')!, '外部项目');
      await nextFrame(); // the typed name renders before a person could click
      [...d.querySelectorAll('button')].find((b) => b.textContent === '创建')!.click();
      await waitFor(() => part(el, 'toast'), 'the inline toast');
      expect(part(el, 'toast')!.textContent).to.contain('知识库已创建');
    });

    it('lists the question-files folder first among mine; it takes uploads but no folder changes', async () => {
      const el = await show();
      await waitFor(() => shadow(el).querySelector('[data-folder-id="folder_for_question_channel"]'), 'the question folder');
      expect(part(el, 'section-mine')!.querySelector('[part~="folder"]')!.textContent).to.contain('提问上传的文件');
      await openFolder(el, 'folder_for_question_channel');
      expect(part(el, 'documents')!.textContent).to.contain('提问附件.pdf');
      expect(part(el, 'upload-button')).to.not.equal(null);
      expect(['分享', '重命名', '设为公开', '删除'].map((label) => !!button(part(el, 'folder-actions')!.getRootNode() as ShadowRoot, label))).to.deep.equal([false, false, false, false]);
    });

    it('keeps shared folders read only', async () => {
      const el = await show();
      await openFolder(el, 's1');
      expect(part(el, 'folder-actions')).to.equal(null);
      expect(part(el, 'drop-zone')).to.equal(null);
      expect(text(el)).to.contain('只读');
    });
  });

  describe('while a document is parsing', () => {
    it('polls every second and stops once nothing is parsing', async () => {
      server.state.docs.f1 = [doc('d1', '综述.pdf', { parseStatus: 1, parse_progress: 10 })];
      server.state.onDocs = (n) => {
        const d = server.state.docs.f1![0]!;
        if (n === 2) Object.assign(d, { parse_progress: 60 });
        if (n >= 3) Object.assign(d, { parseStatus: 2, parse_progress: 100 });
      };
      const el = await show();
      await openFolder(el);
      expect(part(el, 'parse-status')!.textContent).to.equal('解析中 10%');
      await waitFor(() => part(el, 'parse-status')!.textContent === '解析中 60%' || part(el, 'parse-status')!.textContent === '完成', 'progress');
      await new Promise((r) => setTimeout(r, 2600));
      expect(part(el, 'parse-status')!.textContent).to.equal('完成');
      expect(server.state.docCalls, 'no call after the status left 1').to.equal(3);
    });
  });

  describe('uploading', () => {
    it('refuses files by the SPEC §5 rules with the exact messages', async () => {
      const el = await show();
      await openFolder(el);
      choose(el, Array.from({ length: 7 }, (_, i) => file(`p${i}.pdf`)));
      await waitFor(() => part(el, 'notice'), 'the notice');
      expect(part(el, 'notice')!.textContent).to.equal('多文档问答的上限是6篇，如需处理更多文档，请创建知识库后再提问');
      expect(lastToast()!.title).to.equal('多文档问答的上限是6篇，如需处理更多文档，请创建知识库后再提问');
      choose(el, [file('notes.docx')]);
      await waitFor(() => part(el, 'notice')!.textContent === '仅支持PDF、JPEG、JPG、PNG、PDB和SDF文件格式', 'bad type');
      choose(el, [file('综述.pdf')]);
      await waitFor(() => part(el, 'notice')!.textContent === '文件名重复，请重新上传', 'duplicate');
      const big = file('big.pdf');
      Object.defineProperty(big, 'size', { value: 150 * 1024 * 1024 + 1 });
      choose(el, [big]);
      await waitFor(() => part(el, 'notice')!.textContent === '文件大小不能超过150MB', 'too large');
      expect(FakeXhr.sent.length, 'nothing was sent').to.equal(0);
      expect(errors.map((e) => e.code)).to.deep.equal(['invalid_file', 'invalid_file', 'invalid_file', 'invalid_file']);
    });

    it('shows per-file progress, the rounded mean as total, then 完成; a duplicate image is renamed', async () => {
      const el = await show();
      await openFolder(el);
      choose(el, [file('a.pdf', 3000), file('扫描件.png', 1000, 'image/png')]);
      const xhr = await waitFor(() => FakeXhr.last && FakeXhr.sent.length === 1 && FakeXhr.last, 'the upload');
      expect(xhr.url).to.equal('/api/v1/knowledge_base/upload?folder_id=f1');
      expect(xhr.headers['X-Requested-With']).to.equal('XMLHttpRequest');
      expect((xhr.body!.getAll('files') as File[]).map((f) => f.name)).to.deep.equal(['a.pdf', '扫描件_1.png']);
      xhr.progress(1000, 4000); // a.pdf 33%, the image 0%
      await waitFor(() => part(el, 'upload-total')!.textContent === '总进度 17%', 'the total');
      const items = all(el, '[part~="upload-item"]');
      expect(items.map((i) => i.textContent)).to.deep.equal(['a.pdf上传中 33%', '扫描件_1.png上传中 0%']);
      // The bar's width comes from a class in the adopted sheet, never from a style attribute.
      const bar = items[0]!.querySelector<HTMLElement>('[role=progressbar] > div')!;
      expect(bar.hasAttribute('style')).to.equal(false);
      await waitFor(() => Math.abs(bar.getBoundingClientRect().width / bar.parentElement!.getBoundingClientRect().width - 0.33) < 0.02, 'the bar at 33%');
      xhr.respond(200, { success: true, data: { name_id: [{ name: 'a.pdf', docId: 'n1' }, { name: '扫描件_1.png', docId: 'n2' }] }, message: '上传成功' });
      await waitFor(() => all(el, '[part~="upload-item"]').every((i) => i.dataset.status === '2'), 'done');
      expect(all(el, '[part~="upload-item"]').map((i) => i.textContent)).to.deep.equal(['a.pdf完成', '扫描件_1.png完成']);
      expect(part(el, 'upload-total')!.textContent).to.equal('总进度 100%');
    });

    it('fails every file of the batch on an upload error, with the SPEC §8 toast', async () => {
      const el = await show();
      await openFolder(el);
      choose(el, [file('a.pdf'), file('b.pdf')]);
      const xhr = await waitFor(() => FakeXhr.last, 'the upload');
      xhr.progress(500, 2000);
      xhr.respond(500, { success: false, message: '服务器内部错误', code: 'internal' });
      await waitFor(() => all(el, '[part~="upload-item"]').every((i) => i.dataset.status === '3'), 'failed');
      expect(all(el, '[part~="upload-item"]').map((i) => i.textContent)).to.deep.equal(['a.pdf失败', 'b.pdf失败']);
      expect(lastToast()).to.include({ title: '上传失败', description: '文件上传过程中发生错误', variant: 'destructive' });
    });

    it('clears a finished batch from the upload list after a moment; the documents stay listed', async () => {
      const el = await show();
      await openFolder(el);
      choose(el, [file('a.pdf'), file('b.pdf')]);
      const xhr = await waitFor(() => FakeXhr.last, 'the upload');
      expect(part(el, 'uploads-close'), 'no close button while uploading').to.equal(null);
      xhr.respond(200, { success: true, data: { name_id: [{ name: 'a.pdf', docId: 'n1' }, { name: 'b.pdf', docId: 'n2' }] }, message: '上传成功' });
      await waitFor(() => all(el, '[part~="upload-item"]').every((i) => i.dataset.status === '2'), 'done');
      await until(() => !part(el, 'uploads'), 'the finished batch to leave', UPLOAD_CLEAR_MS + 5000);
      expect(part(el, 'documents')).to.not.equal(null);
    });

    it('keeps a failed batch with its message until closed', async () => {
      const el = await show();
      await openFolder(el);
      choose(el, [file('a.pdf'), file('b.pdf')]);
      const xhr = await waitFor(() => FakeXhr.last, 'the upload');
      xhr.respond(400, { success: false, message: '文件内容与扩展名不符', code: 'bad_file' });
      await waitFor(() => all(el, '[part~="upload-item"]').every((i) => i.dataset.status === '3'), 'failed');
      await new Promise((r) => setTimeout(r, UPLOAD_CLEAR_MS + 500)); // longer than a finished batch stays
      expect(all(el, '[part~="upload-item"]').map((i) => i.textContent)).to.deep.equal(['a.pdf失败', 'b.pdf失败']);
      expect(part(el, 'notice')!.textContent).to.equal('文件内容与扩展名不符');
      expect(await seriousViolations(el)).to.deep.equal([]);
      const close = part(el, 'uploads-close')!;
      expect(close.getAttribute('aria-label')).to.equal('关闭上传列表');
      close.click();
      await waitFor(() => !part(el, 'uploads') && !part(el, 'notice'), 'the failed batch and its message gone');
    });

    it('closes a refused-file message with its own button', async () => {
      const el = await show();
      await openFolder(el);
      choose(el, [file('notes.docx')]);
      await waitFor(() => part(el, 'notice'), 'the notice');
      expect(part(el, 'notice-close')!.getAttribute('aria-label')).to.equal('关闭提示');
      part(el, 'notice-close')!.click();
      await waitFor(() => !part(el, 'notice'), 'the notice gone');
    });

    it('sends a 403 upload to sign-in with 需要登录', async () => {
      const el = await show();
      await openFolder(el);
      choose(el, [file('a.pdf')]);
      const xhr = await waitFor(() => FakeXhr.last, 'the upload');
      xhr.respond(403, { success: false, message: 'Invalid session key', code: 'csrf' });
      await waitFor(() => navigations.length, 'the navigation');
      expect(navigations).to.deep.equal(['/auth/sign-in']);
      expect(lastToast()).to.include({ title: '需要登录', description: '请先登录后再试' });
    });

    it('math: per-file progress from the bytes sent, total the rounded mean', () => {
      expect(perFileProgress([100, 300], 200, 400)).to.deep.equal([100, 33]);
      expect(perFileProgress([100, 300], 0, 400)).to.deep.equal([0, 0]);
      expect(perFileProgress([100, 300], 400, 400)).to.deep.equal([100, 100]);
      expect(totalProgress([100, 33, 0])).to.equal(44);
      expect(totalProgress([50, 1])).to.equal(26);
      expect(totalProgress([])).to.equal(0);
    });
  });

  describe('dialogs', () => {
    it('creates a folder after checking the name', async () => {
      const el = await show();
      button(el, '新建知识库')!.click();
      const d = await waitFor(() => dialog(el), 'the dialog');
      [...d.querySelectorAll('button')].find((b) => b.textContent === '创建')!.click();
      await waitFor(() => d.querySelector('[role=alert]'), 'the message');
      expect(d.querySelector('[role=alert]')!.textContent).to.equal('请输入知识库名称');
      expect(await seriousViolations(el)).to.deep.equal([]);
      type(d.querySelector('input')!, '  新项目  ');
      await nextFrame(); // the typed name renders before a person could click
      [...d.querySelectorAll('button')].find((b) => b.textContent === '创建')!.click();
      await waitFor(() => !dialog(el), 'closed');
      expect(server.calls.find((c) => c.method === 'POST')!.body).to.deep.equal({ name: '新项目' });
      await waitFor(() => part(el, 'main-list')?.textContent?.includes('新项目'), 'the new folder shown');
      expect(lastToast()!.title).to.equal('知识库已创建');
    });

    it('deletes a folder only after confirmation', async () => {
      const el = await show();
      await openFolder(el);
      button(part(el, 'folder-actions')!.getRootNode() as ShadowRoot, '删除')!.click();
      const d = await waitFor(() => dialog(el), 'the confirmation');
      expect(d.textContent).to.contain('确定删除知识库“激酶抑制剂文献”吗？其中的 3 篇文档会一并删除');
      expect(server.calls.some((c) => c.method === 'DELETE')).to.equal(false);
      [...d.querySelectorAll('button')].find((b) => b.textContent === '删除')!.click();
      await waitFor(() => part(el, 'main-blank'), 'the blank view');
      expect(server.calls.find((c) => c.method === 'DELETE')!.target).to.equal('/api/v1/knowledge_base/folder/f1');
    });

    it('shares a folder with a person found by the search and cancels the share', async () => {
      const el = await show();
      await openFolder(el);
      button(el, '分享')!.click();
      const d = await waitFor(() => dialog(el), 'the share dialog');
      await waitFor(() => d.textContent?.includes('药物化学部'), 'the departments');
      type(d.querySelector('input')!, '李');
      await waitFor(() => d.textContent?.includes('li@example.com'), 'the search result');
      expect(server.calls.some((c) => c.target === '/api/v1/search_person_department?keyword=%E6%9D%8E')).to.equal(true);
      d.querySelector<HTMLInputElement>('input[type=checkbox]')!.click();
      await nextFrame();
      expect(await seriousViolations(el)).to.deep.equal([]);
      [...d.querySelectorAll('button')].find((b) => b.textContent === '分享')!.click();
      await waitFor(() => d.querySelector('[part~="share-record"]'), 'the record');
      expect(server.calls.find((c) => c.target.endsWith('/share_folder'))!.body).to.deep.equal({ folder_id: 'f1', user_ids: ['u2'], department_ids: [] });
      expect(lastToast()!.title).to.equal('分享成功');
      [...d.querySelectorAll('button')].find((b) => b.textContent === '取消分享')!.click();
      await waitFor(() => d.textContent?.includes('尚未分享给任何人'), 'no records');
    });

    it('moves a document to another folder, copies one, and deletes one after confirmation', async () => {
      const el = await show();
      await openFolder(el);
      const menu = async (title: string, action: string) => {
        button(el, `更多操作：${title}`)!.click();
        await waitFor(() => part(el, 'document-menu'), 'the menu');
        expect(shadow(el).activeElement?.getAttribute('role'), 'focus in the menu').to.equal('menuitem');
        all<HTMLButtonElement>(el, '[role="menuitem"]').find((b) => b.textContent === action)!.click();
        return waitFor(() => dialog(el), 'the dialog');
      };
      let d = await menu('综述.pdf', '移动');
      await waitFor(() => d.querySelector('input[type=radio]'), 'the folders');
      expect(d.querySelector('input[value=f1]'), 'not into its own folder').to.equal(null);
      d.querySelector<HTMLInputElement>('input[value=f2]')!.click();
      await nextFrame();
      [...d.querySelectorAll('button')].find((b) => b.textContent === '移动')!.click();
      await waitFor(() => !dialog(el), 'closed');
      expect(server.calls.find((c) => c.target.endsWith('/folder/movedoc'))!.body).to.deep.equal({ docId: 'd1', folder_id: 'f2' });
      expect(lastToast()!.title).to.equal('移动成功');

      d = await menu('cdk2.sdf', '复制');
      await waitFor(() => d.querySelector('input[value=f1]'), 'the folders, its own included');
      d.querySelector<HTMLInputElement>('input[value=f1]')!.click();
      await nextFrame();
      [...d.querySelectorAll('button')].find((b) => b.textContent === '复制')!.click();
      await waitFor(() => !dialog(el), 'closed');
      expect(server.calls.find((c) => c.target.endsWith('/copy_doc'))!.body).to.deep.equal({ docId: 'd2', folder_id: 'f1' });

      d = await menu('扫描件.png', '删除');
      expect(d.textContent).to.contain('确定删除文档“扫描件.png”吗？');
      expect(server.calls.some((c) => c.method === 'DELETE')).to.equal(false);
      [...d.querySelectorAll('button')].find((b) => b.textContent === '删除')!.click();
      await waitFor(() => !dialog(el), 'closed');
      expect(server.calls.find((c) => c.method === 'DELETE')!.target).to.equal('/api/v1/knowledge_base/d3');
    });

    it('adds a parsed document to a knowledge base with the SPEC §8 toasts', async () => {
      const el = await show();
      await openFolder(el);
      const addTo = async () => {
        button(el, '更多操作：综述.pdf')!.click();
        await waitFor(() => part(el, 'document-menu'), 'the menu');
        button(el, '添加到知识库')!.click();
        const d = await waitFor(() => dialog(el), 'the target dialog');
        await waitFor(() => d.querySelector('input[type=radio]'), 'the folders');
        const submit = [...d.querySelectorAll('button')].find((b) => b.textContent === '添加到知识库')!;
        expect(submit.disabled, 'needs a folder').to.equal(true);
        d.querySelector<HTMLInputElement>('input[value=f2]')!.click();
        await nextFrame();
        submit.click();
        return d;
      };
      await addTo();
      await waitFor(() => lastToast()?.title === '添加成功', 'the success toast');
      expect(lastToast()!.description).to.equal('文件已添加到知识库');
      expect(server.calls.find((c) => c.target.endsWith('/add_doc_to_kb'))!.body).to.deep.equal({ docId: 'd1', folder_id: 'f2' });
      await waitFor(() => !dialog(el), 'closed');

      server.on('POST', '/knowledge_base/add_doc_to_kb', () => fail(409, '该知识库中已有同名文件', 'duplicate'));
      await addTo();
      await waitFor(() => lastToast()?.title === '添加失败', 'the failure toast');
      expect(lastToast()).to.include({ description: '该知识库中已有同名文件', variant: 'destructive' });
      expect(errors.at(-1)).to.include({ code: 'duplicate' });
    });
  });
  describe('documents outside a folder, lookup by name, translation, use in a question', () => {
    const menuAction = async (el: Element, title: string, action: string) => {
      button(el, `更多操作：${title}`)!.click();
      await waitFor(() => part(el, 'document-menu'), 'the menu');
      const items = all<HTMLButtonElement>(el, '[role="menuitem"]');
      const item = items.find((b) => b.textContent === action);
      return { items: items.map((b) => b.textContent), click: () => item!.click() };
    };

    it('与我共享 lists the documents shared with me one by one, read only, with their owner', async () => {
      const el = await show();
      const entry = shadow(el).querySelector<HTMLButtonElement>('[data-view="shared_docs"]')!;
      expect(entry.textContent).to.equal('与我共享');
      expect(entry.closest('[part~="section-shared"]'), 'under shared with me').to.not.equal(null);
      entry.click();
      await waitFor(() => part(el, 'documents'), 'the shared documents');
      expect(part(el, 'main-list')!.dataset.source).to.equal('shared_docs');
      expect(shadow(el).querySelector('#kb-folder-title')!.textContent).to.equal('与我共享的文档');
      expect(server.calls.map((c) => c.target)).to.include('/api/v1/knowledge_base/get_shared_docs?page=1&size=20');
      expect(all(el, '[part~="document-title"]').map((b) => b.textContent)).to.deep.equal(['同事的论文.pdf']);
      expect(part(el, 'document')!.textContent).to.contain('所有者：李博士');
      expect(part(el, 'drop-zone'), 'no upload here').to.equal(null);
      expect(part(el, 'folder-actions')).to.equal(null);
      expect(entry.getAttribute('aria-current')).to.equal('true');
      const menu = await menuAction(el, '同事的论文.pdf', '用于提问');
      expect(menu.items).to.deep.equal(['用于提问', '翻译', '添加到知识库', '复制']);
      expect(await seriousViolations(el)).to.deep.equal([]);
    });

    it('says so when nobody shared a document', async () => {
      server.state.sharedDocs = [];
      const el = await show();
      shadow(el).querySelector<HTMLButtonElement>('[data-view="shared_docs"]')!.click();
      await waitFor(() => part(el, 'empty'), 'the empty state');
      expect(part(el, 'empty')!.textContent).to.contain('还没有人单独分享文档给您');
    });

    it('全部文档 lists all my documents (all_docs with show_my_kb) and searches them', async () => {
      const el = await show();
      shadow(el).querySelector<HTMLButtonElement>('[data-view="all_docs"]')!.click();
      await waitFor(() => part(el, 'documents'), 'the documents');
      expect(server.calls.map((c) => c.target)).to.include('/api/v1/knowledge_base/all_docs?page=1&size=20&show_my_kb=1');
      expect(all(el, '[part~="document-title"]').map((b) => b.textContent)).to.have.members(['提问附件.pdf', '综述.pdf', 'cdk2.sdf', '扫描件.png']);
      type(shadow(el).querySelector<HTMLInputElement>('input[placeholder="搜索文档"]')!, 'cdk2');
      await waitFor(() => all(el, '[part~="document"]').length === 1, 'the search result');
      expect(server.calls.some((c) => c.target === '/api/v1/knowledge_base/all_docs?page=1&size=20&search=cdk2&show_my_kb=1')).to.equal(true);
    });

    it('Enter in the folder search opens my folder of that exact name, or says there is none', async () => {
      const el = await show();
      const search = shadow(el).querySelector<HTMLInputElement>('input[placeholder="搜索知识库"]')!;
      type(search, '分子库');
      search.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      await waitFor(() => shadow(el).querySelector('#kb-folder-title')?.textContent === '分子库', 'the folder');
      expect(server.calls.map((c) => c.target)).to.include(`/api/v1/knowledge_base/get_folder/xxx?folder_name=${encodeURIComponent('分子库')}`);
      type(search, '不存在的库');
      search.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      await waitFor(() => part(el, 'folder-lookup'), 'the message');
      expect(part(el, 'folder-lookup')!.textContent).to.equal('没有名为“不存在的库”的知识库');
      expect(lastToast(), 'no error toast for a name not found').to.equal(undefined);
    });

    it('translates a parsed document: progress, the result as text, download as markdown', async () => {
      let release: () => void = () => undefined;
      server.state.translateGate = new Promise<void>((r) => (release = r));
      const el = await show();
      await openFolder(el);
      (await menuAction(el, '综述.pdf', '翻译')).click();
      const d = await waitFor(() => dialog(el), 'the dialog');
      expect(d.querySelector('h2')!.textContent).to.equal('翻译“综述.pdf”');
      expect(d.querySelector<HTMLInputElement>('input[value="en"]')!.checked, 'a Chinese title goes to English').to.equal(true);
      [...d.querySelectorAll('button')].find((b) => b.textContent === '开始翻译')!.click();
      await waitFor(() => part(el, 'translation-progress'), 'the progress');
      expect(part(el, 'translation-progress')!.textContent).to.contain('正在翻译…已用时 0 秒');
      expect(await seriousViolations(el)).to.deep.equal([]);
      release();
      const result = await waitFor(() => part(el, 'translation'), 'the translation');
      expect(server.calls.find((c) => c.target.endsWith('/translate'))!.body).to.deep.equal({ docId: 'd1', target_lang: 'en' });
      expect(result.textContent).to.equal('# Review (en)\n\nKinase inhibitors <b>block</b> ATP binding.');
      expect(result.querySelector('b'), 'never rendered as HTML').to.equal(null);
      expect(d.textContent).to.contain('原文较长，只翻译了前 20000 个字符');
      expect(d.textContent).to.contain('qwen-test');
      const saved: string[] = [];
      const click = HTMLAnchorElement.prototype.click;
      HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
        saved.push(this.download);
      };
      try {
        part(el, 'translation-download')!.click();
      } finally {
        HTMLAnchorElement.prototype.click = click;
      }
      expect(saved).to.deep.equal(['综述.en.md']);
      expect(await seriousViolations(el)).to.deep.equal([]);
    });

    it('says plainly when the server has no language model, without an error toast', async () => {
      server.on('POST', '/knowledge_base/translate', () => fail(503, '翻译需要配置语言模型（LLM_BASE_URL 和 LLM_MODEL），当前服务器未配置', 'llm_not_configured'));
      const el = await show();
      await openFolder(el);
      (await menuAction(el, '综述.pdf', '翻译')).click();
      const d = await waitFor(() => dialog(el), 'the dialog');
      [...d.querySelectorAll('button')].find((b) => b.textContent === '开始翻译')!.click();
      await waitFor(() => part(el, 'translation-error'), 'the message');
      expect(part(el, 'translation-error')!.textContent).to.equal('服务器未配置语言模型，无法翻译。请管理员设置 LLM_BASE_URL 和 LLM_MODEL 后再试。');
      expect(lastToast()).to.equal(undefined);
      expect([...d.querySelectorAll('button')].some((b) => b.textContent === '重新翻译')).to.equal(true);
    });

    it('offers no translation for molecule files or documents not parsed', async () => {
      const el = await show();
      await openFolder(el);
      expect((await menuAction(el, 'cdk2.sdf', '复制')).items).to.not.include('翻译');
      button(el, '更多操作：cdk2.sdf')!.click();
      expect((await menuAction(el, '扫描件.png', '复制')).items).to.deep.equal(['复制', '移动', '分享', '删除']);
    });

    it('用于提问 copies a document into the question files, puts it in the question box’s files and opens the question page', async () => {
      const el = await show();
      shadow(el).querySelector<HTMLButtonElement>('[data-view="shared_docs"]')!.click();
      await waitFor(() => part(el, 'documents'), 'the shared documents');
      (await menuAction(el, '同事的论文.pdf', '用于提问')).click();
      await waitFor(() => navigations.length, 'the navigation');
      expect(server.calls.find((c) => c.target.endsWith('/es_copy_doc_to_question_channel'))!.body).to.deep.equal({ docIds: ['s1'] });
      expect(statusStore().ask.$files_list.value).to.deep.equal([{ docId: 'q-s1', name: 's1-副本.pdf' }]);
      expect(statusStore().ask.$docIdList.value).to.deep.equal(['q-s1']);
      expect(navigations).to.deep.equal(['/?docIds=q-s1']);
      expect(lastToast()).to.include({ title: '已添加到提问文件', description: '“s1-副本.pdf”已加入提问框的文件' });
    });

    it('用于提问 is refused while knowledge bases are chosen (SPEC §5)', async () => {
      statusStore().ask.$selectedKbs.value = [{ id: 'f1', name: '激酶抑制剂文献' }];
      const el = await show();
      await openFolder(el);
      (await menuAction(el, '综述.pdf', '用于提问')).click();
      await waitFor(() => lastToast(), 'the toast');
      expect(lastToast()).to.include({ title: '已经选择知识库，不能选择文件', variant: 'destructive' });
      expect(server.calls.some((c) => c.target.endsWith('/es_copy_doc_to_question_channel'))).to.equal(false);
      expect(navigations).to.deep.equal([]);
      expect(errors.at(-1)).to.include({ code: 'invalid_selection' });
    });
  });
});
