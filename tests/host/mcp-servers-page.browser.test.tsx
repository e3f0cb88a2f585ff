import { act } from '../react-act';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { hostI18n } from '../../src/host/i18n';
import McpServersPage from '../../src/host/pages/McpServersPage';
import { expect, jsonResponse, waitFor } from '../core/harness';
import { fakeApi, ok, type FakeApi, type Route } from '../widgets/fake-api';

// The MCP servers admin page (user menu → MCP 服务器管理) against the fake API speaking its calls.
type Auth = { type: 'bearer' | 'header'; header: string; hint: string };
type View = { id: string; name: string; title: string; transport: string; target: string; origin: string; status: string; reason?: string; auth?: Auth; tools: Array<{ name: string; remote_name: string; description: string }> };
const local: View = { id: 'config:local', name: 'local', title: '本地工具', transport: 'stdio', target: '/usr/bin/node server.js', origin: 'config', status: 'down', reason: '连接已断开', tools: [] };
let servers: View[] = [];
const routes: Route[] = [
  ['GET', '/mcp_servers', () => ok(servers)],
  ['POST', '/mcp_servers', (req) => {
    const body = req.body as { name: string; title?: string; transport: string; url: string; auth?: { type: 'bearer'; token: string } | { type: 'header'; name: string; value: string } };
    if (body.url.includes(':1/')) return jsonResponse(400, { success: false, message: '无法连接 MCP 服务器：连接被拒绝（服务器未运行或端口错误）', code: 'unreachable', field: 'url' });
    const secret = body.auth ? (body.auth.type === 'bearer' ? body.auth.token : body.auth.value) : '';
    const auth: Auth | undefined = body.auth && { type: body.auth.type, header: body.auth.type === 'bearer' ? 'Authorization' : body.auth.name, hint: `••••${secret.slice(-4)}` };
    const view: View = { id: body.name === 'calc' ? 's1' : body.name, name: body.name, title: body.title ?? body.name, transport: body.transport, target: body.url, origin: 'admin', status: 'ready', ...(auth ? { auth } : {}), tools: [{ name: `mcp__${body.name}__add`, remote_name: 'add', description: '加法' }] };
    servers = [...servers, view];
    return ok(view, 'MCP 服务器已添加');
  }],
  ['PUT', /^\/mcp_servers\/([^/]+)\/auth$/, (req, [id]) => {
    const body = req.body as { auth: { type: 'header'; name: string; value: string } | null };
    const view = servers.find((s) => s.id === id)!;
    const next: View = { ...view, status: body.auth ? 'ready' : 'down', ...(body.auth ? { auth: { type: 'header', header: body.auth.name, hint: `••••${body.auth.value.slice(-4)}` } } : {}) };
    if (!body.auth) delete next.auth;
    servers = servers.map((s) => (s.id === view.id ? next : s));
    return ok(next, 'MCP 服务器的认证已更新');
  }],
  ['DELETE', /^\/mcp_servers\/([^/]+)$/, (_req, [id]) => {
    servers = servers.filter((s) => s.id !== id);
    return ok(null, 'MCP 服务器已删除');
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
  await act(() => root!.render(<I18nextProvider i18n={hostI18n()}><McpServersPage /></I18nextProvider>));
}
const type = async (id: string, value: string) => {
  await act(() => {
    const field = host.querySelector<HTMLInputElement>(id)!;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(field, value);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  });
};
const button = (label: string) => [...host.querySelectorAll('button')].find((b) => b.textContent === label)!;
const choose = async (id: string, value: string) => {
  await act(() => {
    const select = host.querySelector<HTMLSelectElement>(id)!;
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
};

describe('the MCP servers page', () => {
  it('lists the configuration file’s server with its state and why it is down, without a delete button', async () => {
    servers = [local];
    await mount();
    const item = await waitFor(() => host.querySelector('[data-server="local"]'), 'the listed server');
    expect(item.textContent).to.contain('本地工具');
    expect(item.textContent).to.contain('不可用：连接已断开');
    expect(item.textContent).to.contain('来自服务器配置文件');
    expect([...item.querySelectorAll('button')].map((b) => b.textContent)).to.deep.equal(['重新连接']);
  });

  it('refuses a bad name in place, shows the server’s reason for an unreachable URL, adds a good one and deletes it after confirming', async () => {
    servers = [];
    await mount();
    await waitFor(() => host.textContent?.includes('还没有 MCP 服务器'), 'the empty list');
    await type('#mcp-name', 'Bad Name');
    await type('#mcp-url', 'http://127.0.0.1:1/mcp');
    button('添加并连接').click();
    const error = await waitFor(() => host.querySelector('#mcp-form-error'), 'the field error');
    expect(error.textContent).to.contain('名称只能包含小写字母、数字和连字符');
    expect(server.calls.filter((c) => c.method === 'POST').length).to.equal(0);

    await type('#mcp-name', 'calc');
    button('添加并连接').click();
    await waitFor(() => host.querySelector('#mcp-form-error')?.textContent?.includes('连接被拒绝'), 'the server’s message');

    await type('#mcp-title', '计算器');
    await type('#mcp-url', 'http://127.0.0.1:9000/mcp');
    button('添加并连接').click();
    const item = await waitFor(() => host.querySelector('[data-server="calc"]'), 'the added server');
    expect(server.calls.filter((c) => c.method === 'POST').at(-1)!.body).to.deep.equal({ name: 'calc', title: '计算器', transport: 'http', url: 'http://127.0.0.1:9000/mcp' });
    expect(item.textContent).to.contain('已连接');
    expect(item.textContent).to.contain('1 个工具');

    button('删除').click();
    await waitFor(() => host.querySelector('[data-server="calc"]')?.textContent?.includes('它的工具将立即从工具面板中移除'), 'the confirmation');
    button('确定删除').click();
    await waitFor(() => !host.querySelector('[data-server="calc"]'), 'the server gone');
    expect(server.calls.find((c) => c.method === 'DELETE')!.url).to.contain('/api/v1/mcp_servers/s1');
  });

  it('adds a server with a Bearer token (typed in a password field, sent once, then shown masked) and replaces it with a custom header', async () => {
    servers = [];
    await mount();
    await waitFor(() => host.textContent?.includes('还没有 MCP 服务器'), 'the empty list');
    await type('#mcp-name', 'secure');
    await type('#mcp-url', 'https://mcp.example.com/mcp');
    await choose('#mcp-auth', 'bearer');
    const posts = () => server.calls.filter((c) => c.method === 'POST' && c.url.endsWith('/mcp_servers')).length;
    const postsBefore = posts();
    const token = host.querySelector<HTMLInputElement>('#mcp-token')!;
    expect(token.type).to.equal('password');
    // A token with a space is refused in place, before anything is sent.
    await type('#mcp-token', 'two words');
    button('添加并连接').click();
    await waitFor(() => host.querySelector('#mcp-form-error')?.textContent?.includes('令牌只能包含可见的 ASCII 字符'), 'the token error');
    expect(posts()).to.equal(postsBefore);

    await type('#mcp-token', 'tok-0123456789abcdef');
    button('添加并连接').click();
    const item = await waitFor(() => host.querySelector('[data-server="secure"]'), 'the added server');
    const sent = server.calls.filter((c) => c.method === 'POST').at(-1)!.body as Record<string, unknown>;
    expect(sent.auth).to.deep.equal({ type: 'bearer', token: 'tok-0123456789abcdef' });
    expect(item.querySelector('[data-auth]')!.textContent).to.equal('认证：Bearer 令牌 ••••cdef');
    expect(host.textContent).not.to.contain('tok-0123456789abcdef');
    // The add form is emptied, its token too.
    expect(host.querySelector('#mcp-token')).to.equal(null);

    button('设置认证').click();
    await waitFor(() => host.querySelector('#mcp-auth-secure-auth'), 'the authentication editor');
    await choose('#mcp-auth-secure-auth', 'header');
    await type('#mcp-auth-secure-header-name', 'Host');
    await type('#mcp-auth-secure-header-value', 'x');
    button('保存并重新连接').click();
    await waitFor(() => host.querySelector('#mcp-auth-secure-error')?.textContent?.includes('该请求头由连接本身使用'), 'the header error');
    await type('#mcp-auth-secure-header-name', 'X-API-Key');
    await type('#mcp-auth-secure-header-value', 'key-abcdefghijklmnop');
    button('保存并重新连接').click();
    await waitFor(() => host.querySelector('[data-server="secure"] [data-auth]')?.textContent === '认证：请求头 X-API-Key ••••mnop', 'the new header shown masked');
    const put = server.calls.find((c) => c.method === 'PUT')!;
    expect(put.url).to.contain('/api/v1/mcp_servers/secure/auth');
    expect(put.body).to.deep.equal({ auth: { type: 'header', name: 'X-API-Key', value: 'key-abcdefghijklmnop' } });
    expect(host.querySelector('#mcp-auth-secure-auth')).to.equal(null);
  });
});
