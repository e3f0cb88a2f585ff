import '../../../src/widgets/ask/ask.element';
import type { CsaiAskElement } from '../../../src/widgets/ask/ask.element';
import { statusStore } from '../../../src/core/status-store';
import { expect, failOnConsoleErrors, part, waitFor } from '../harness';
import { fakeCsaiPage, ok, type Route } from './fake-csai';

// The 联网搜索 toggle says in one short line, before sending, what the
// chosen search type would miss; environment variable names are for administrators (/test), never here.
const WEB_SETUP = '未配置网页搜索服务：请设置 SEARXNG_URL（自建 SearXNG）、TAVILY_API_KEY、BOCHA_API_KEY 或 WEB_SEARCH_CUSTOM_URL 中的至少一个，并重启服务。';
const PATENT_SETUP = '未配置专利检索服务（SureChEMBL 或 PubChem 专利）：请按 README“联网搜索”一节设置专利检索的环境变量，并重启服务。';
const status = (web: boolean): Route => [
  '*',
  '/online/status',
  () => ok({ web, literature: false, patents: false, missing: { ...(web ? {} : { web: WEB_SETUP }), literature: '未配置文献检索服务', patents: PATENT_SETUP } }),
];

describe('<csai-ask> online search hint', () => {
  failOnConsoleErrors();
  const page = fakeCsaiPage();
  beforeEach(() => {
    const ask = statusStore().ask;
    ask.$isOnline.value = true;
    ask.$isOnlineChosen.value = true;
    ask.$searchType.value = 'all';
  });
  const show = async (web: boolean) => {
    page.serve([status(web)]);
    const el = page.mount<CsaiAskElement>('<csai-ask navigate="false"></csai-ask>');
    await waitFor(() => part(el, 'toggle-online'), 'the toolbar');
    // The sources are asked for once the asker turns to the box.
    (part(el, 'input') as HTMLTextAreaElement).focus();
    return el;
  };

  it('nothing configured: one short line, no configuration names; turning online search off hides it', async () => {
    const el = await show(false);
    await waitFor(() => part(el, 'online-hint'), 'the hint');
    expect(part(el, 'online-hint')!.textContent).to.equal('本服务器未配置联网搜索，回答只使用所选文档和工具。');
    expect(el.shadowRoot!.textContent).not.to.contain('SEARXNG_URL');
    expect(part(el, 'toggle-online')!.getAttribute('title')).not.to.contain('SEARXNG_URL');
    (part(el, 'toggle-online') as HTMLButtonElement).click();
    await waitFor(() => !part(el, 'online-hint'), 'the hint gone');
    expect(statusStore().ask.$isOnlineChosen.value).to.equal(true);
  });

  it('nothing configured and never chosen: 联网搜索 starts off, and the question is sent without it', async () => {
    statusStore().ask.$isOnlineChosen.value = false;
    const el = await show(false);
    await waitFor(() => part(el, 'toggle-online')!.getAttribute('aria-pressed') === 'false', 'the toggle off');
    expect(part(el, 'online-hint')).to.equal(null);
  });

  it('a source configured and never chosen: 联网搜索 starts on', async () => {
    statusStore().ask.$isOnlineChosen.value = false;
    statusStore().ask.$isOnline.value = false;
    const el = await show(true);
    await waitFor(() => part(el, 'toggle-online')!.getAttribute('aria-pressed') === 'true', 'the toggle on');
  });

  it('web configured: 全部 and 网页 search, 专利 says the patent service is missing', async () => {
    const el = await show(true);
    const select = part(el, 'search-type') as HTMLSelectElement;
    await new Promise((r) => setTimeout(r, 100));
    expect(part(el, 'online-hint')).to.equal(null);
    select.value = 'patent';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    await waitFor(() => part(el, 'online-hint'), 'the patent hint');
    expect(part(el, 'online-hint')!.textContent).to.equal('本服务器未配置专利检索，不会检索专利。');
    select.value = 'web';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    await waitFor(() => !part(el, 'online-hint'), 'no hint for 网页');
  });
});
