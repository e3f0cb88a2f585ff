import { act } from '../react-act';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { hostI18n } from '../../src/host/i18n';
import TokensPage from '../../src/host/pages/TokensPage';
import { expect, waitFor } from '../core/harness';
import { fakeApi, ok, type FakeApi, type Route } from '../widgets/fake-api';

// The API token page (user menu → API 令牌) against the fake API speaking the token calls.
type Token = { id: string; name: string; prefix: string; created_at: string; last_used_at: string | null };
let tokens: Token[] = [];
const routes: Route[] = [
  ['GET', '/auth/tokens', () => ok(tokens)],
  ['POST', '/auth/tokens', (req) => {
    const { name } = req.body as { name: string };
    const token = { id: `t${tokens.length + 1}`, name, prefix: 'csai_AbCd', created_at: '2026-11-25T08:00:00.000Z', last_used_at: null };
    tokens = [token, ...tokens];
    return ok({ ...token, token: 'csai_AbCdSECRET' }, '令牌已创建');
  }],
  ['DELETE', /^\/auth\/tokens\/(.+)$/, (_req, [id]) => {
    tokens = tokens.filter((t) => t.id !== id);
    return ok({ deleted: 1 }, '令牌已删除');
  }],
];

let server: FakeApi;
let root: Root | undefined;
let host: HTMLElement;
before(() => {
  server = fakeApi(routes);
  document.cookie = 'XSRF-TOKEN=test-token; path=/';
});
after(() => {
  server.restore();
});
afterEach(() => {
  root?.unmount();
  host?.remove();
});

async function mount() {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  await act(() => root!.render(<I18nextProvider i18n={hostI18n()}><TokensPage /></I18nextProvider>));
}
const input = () => host.querySelector<HTMLInputElement>('#token-name')!;
const type = async (value: string) => {
  await act(() => {
    const field = input();
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(field, value);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  });
};
const button = (label: string) => [...host.querySelectorAll('button')].find((b) => b.textContent === label)!;

describe('the API token page', () => {
  it('refuses an empty name in place, without calling the server', async () => {
    tokens = [];
    await mount();
    await waitFor(() => host.textContent?.includes('还没有令牌'), 'the empty list');
    const posts = server.calls.filter((c) => c.method === 'POST').length;
    button('创建令牌').click();
    const error = await waitFor(() => host.querySelector('#token-name-error'), 'the field error');
    expect(error.textContent).to.equal('请输入令牌名称');
    expect(input().getAttribute('aria-invalid')).to.equal('true');
    expect(server.calls.filter((c) => c.method === 'POST').length).to.equal(posts);
  });

  it('creates a token, shows it once, lists it by name and prefix, and deletes it after confirming', async () => {
    tokens = [];
    await mount();
    await type('分析脚本');
    button('创建令牌').click();
    const shown = await waitFor(() => host.querySelector('[data-testid="new-token"]'), 'the new token');
    expect(shown.textContent).to.equal('csai_AbCdSECRET');
    const post = server.calls.find((c) => c.method === 'POST')!;
    expect(post.body).to.deep.equal({ name: '分析脚本' });
    expect(post.headers.get('X-CSRF-TOKEN')).to.equal('test-token');
    const item = await waitFor(() => host.querySelector('[data-token-id="t1"]'), 'the listed token');
    expect(item.textContent).to.contain('分析脚本');
    expect(item.textContent).to.contain('csai_AbCd…');
    expect(item.textContent).not.to.contain('SECRET');
    expect(host.querySelector('pre')!.textContent).to.contain(`${location.origin}/mcp`);

    item.querySelector('button')!.click();
    await waitFor(() => host.querySelector('[data-token-id="t1"]')?.textContent?.includes('使用它的脚本将立即失效'), 'the confirmation');
    expect(server.calls.some((c) => c.method === 'DELETE')).to.equal(false);
    button('确定删除').click();
    await waitFor(() => !host.querySelector('[data-token-id="t1"]'), 'the token gone');
    expect(server.calls.find((c) => c.method === 'DELETE')!.url).to.contain('/api/v1/auth/tokens/t1');
  });
});
