// A saved web page (type 7) in the viewer route: its text rendered from the parse result, a link to
// the original that opens in a new tab without an opener, and the fetch time. The server is a fake
// fetch (saving and parsing pages is tested against the real server in tests/server/online/).
import { act } from '../react-act';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import type { KbDocument } from '../../src/contract/knowledge';
import { hostI18n } from '../../src/host/i18n';
import '../../src/host/pages/PdfViewerPage.strings';
import { WebDocument } from '../../src/host/pages/WebDocument';
import { expect, jsonResponse, waitFor } from '../core/harness';
import { fakeApi } from '../widgets/fake-api';

const doc: KbDocument = {
  docId: 'web1',
  title: '激酶抑制剂综述',
  type: 7,
  parseStatus: 3,
  parse_progress: 100,
  progress_texts: [],
  img_id: null,
  download_url: '/api/v1/knowledge_base/download/web1',
  download_key: 'k',
  folder_id: 'f1',
  size: 1200,
  page_count: null,
  owner_id: 'u1',
  owner_name: '张三',
  is_owner: true,
  created_at: '2026-11-25T10:00:00.000Z',
  source_url: 'https://example.org/review',
  fetched_at: '2026-11-25T09:59:00.000Z',
};

let root: Root;
let host: HTMLDivElement;
let markdown: () => Response;
let restoreFetch = () => {};

beforeEach(() => {
  markdown = () =>
    jsonResponse(200, { success: true, message: '', data: { docId: 'web1', markdown: '# 激酶抑制剂\n\n| 药物 | 靶点 |\n| --- | --- |\n| 伊马替尼 | BCR-ABL |\n\n<script>window.__pwned = 1</script>[外链](https://example.org/x)' } });
  restoreFetch = fakeApi([['GET', '/knowledge_base/doc_markdown/web1', () => markdown()]]).restore;
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  root.unmount();
  host.remove();
  restoreFetch();
});

const render = () => act(() => root.render(<I18nextProvider i18n={hostI18n()}><WebDocument doc={doc} /></I18nextProvider>));

describe('a saved web page in the viewer', () => {
  it('shows its text with the table, a safe link to the original and when it was fetched', async () => {
    await render();
    await waitFor(() => host.querySelector('table') !== null);
    expect(host.querySelector('h2')!.textContent).to.equal('激酶抑制剂综述');
    expect(host.querySelector('td')!.textContent).to.equal('伊马替尼');
    const original = [...host.querySelectorAll('a')].find((a) => a.textContent === '打开原网页')!;
    expect(original.getAttribute('href')).to.equal('https://example.org/review');
    expect(original.getAttribute('target')).to.equal('_blank');
    expect(original.getAttribute('rel')).to.equal('noopener noreferrer');
    expect(host.textContent).to.contain('抓取于');
    // The page's own markup is sanitised: no script runs, its links open outside without an opener.
    expect(host.querySelector('script')).to.equal(null);
    expect((window as Window & { __pwned?: number }).__pwned).to.equal(undefined);
    const link = [...host.querySelectorAll('a')].find((a) => a.textContent === '外链')!;
    expect(link.getAttribute('rel')).to.equal('noopener noreferrer');
  });

  it('says so when the text cannot be loaded', async () => {
    markdown = () => jsonResponse(500, { success: false, message: '服务器出错了', code: 'internal' });
    await render();
    await waitFor(() => host.querySelector('[role="alert"]') !== null);
    expect(host.querySelector('[role="alert"]')!.textContent).to.equal('网页内容加载失败，请刷新重试');
  });
});
