import { act } from 'preact/test-utils';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { hostI18n } from '../../src/host/i18n';
import McpServersPage from '../../src/host/pages/McpServersPage';
import { expect, fakeFetch, jsonResponse, waitFor } from '../core/harness';

// The MCP servers admin page (user menu → MCP 服务器管理) against a fake server speaking its calls.
type View = { id: string; name: string; title: string; transport: string; target: string; origin: string; status: string; reason?: string; tools: Array<{ name: string; remote_name: string; description: string }> };
const local: View = { id: 'config:local', name: 'local', title: '本地工具', transport: 'stdio', target: '/usr/bin/node server.js', origin: 'config', status: 'down', reason: '连接已断开', tools: [] };
let servers: View[] = [];
const server = fakeFetch((url, init) => {
  const { pathname } = new URL(url, location.href);
  const method = init.method ?? 'GET';
  if (pathname === '/api/v1/mcp_servers' && method === 'GET') return jsonResponse(200, { success: true, data: servers, message: '' });
  if (pathname === '/api/v1/mcp_servers' && method === 'POST') {
    const body = JSON.parse(String(init.body)) as { name: string; title?: string; transport: string; url: string };
    if (body.url.includes(':1/')) return jsonResponse(400, { success: false, message: '无法连接 MCP 服务器：连接被拒绝（服务器未运行或端口错误）', code: 'unreachable', field: 'url' });
    const view: View = { id: 's1', name: body.name, title: body.title ?? body.name, transport: body.transport, target: body.url, origin: 'admin', status: 'ready', tools: [{ name: `mcp__${body.name}__add`, remote_name: 'add', description: '加法' }] };
    servers = [...servers, view];
    return jsonResponse(200, { success: true, data: view, message: 'MCP 服务器已添加' });
  }
  const one = /^\/api\/v1\/mcp_servers\/([^/]+)$/.exec(pathname);
  if (one && method === 'DELETE') {
    servers = servers.filter((s) => s.id !== decodeURIComponent(one[1]!));
    return jsonResponse(200, { success: true, data: null, message: 'MCP 服务器已删除' });
  }
  return jsonResponse(404, { success: false, message: '接口不存在', code: 'not_found' });
});

const realFetch = window.fetch;
let root: Root | undefined;
let host: HTMLElement;
before(() => {
  window.fetch = server.fetch;
  document.cookie = 'XSRF-TOKEN=test-token; path=/';
});
after(() => {
  window.fetch = realFetch;
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
    expect(server.calls.filter((c) => c.init.method === 'POST').length).to.equal(0);

    await type('#mcp-name', 'calc');
    button('添加并连接').click();
    await waitFor(() => host.querySelector('#mcp-form-error')?.textContent?.includes('连接被拒绝'), 'the server’s message');

    await type('#mcp-title', '计算器');
    await type('#mcp-url', 'http://127.0.0.1:9000/mcp');
    button('添加并连接').click();
    const item = await waitFor(() => host.querySelector('[data-server="calc"]'), 'the added server');
    expect(JSON.parse(String(server.calls.filter((c) => c.init.method === 'POST').at(-1)!.init.body))).to.deep.equal({ name: 'calc', title: '计算器', transport: 'http', url: 'http://127.0.0.1:9000/mcp' });
    expect(item.textContent).to.contain('已连接');
    expect(item.textContent).to.contain('1 个工具');

    button('删除').click();
    await waitFor(() => host.querySelector('[data-server="calc"]')?.textContent?.includes('它的工具将立即从工具面板中移除'), 'the confirmation');
    button('确定删除').click();
    await waitFor(() => !host.querySelector('[data-server="calc"]'), 'the server gone');
    expect(server.calls.find((c) => c.init.method === 'DELETE')!.url).to.contain('/api/v1/mcp_servers/s1');
  });
});
