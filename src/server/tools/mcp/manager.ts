import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SseError, SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolEntry, ToolGroup } from '../../../contract/channel';
import { maskSecret, type McpAuthInput, type McpServerInput, type McpServerView } from '../../../contract/mcp-servers';
import type { ToolResultPayload } from '../../../contract/tools';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { checkDestination, guardedFetch, hostAllowList, type GuardedFetch } from '../../net/guarded-fetch';
import { SafeFetchError } from '../../net/safe-fetch';
import type { ToolSource } from '../types';
import { readMcpConfigFile, type ConfiguredServer } from './config-file';
import { exposedToolName, MCP_PREFIX } from './names';
import { secretBox } from './secret-box';
import { mcpServersRepo, NO_AUTH, type StoredAuth } from './store';

/** The authentication a server is sent: one header on every request. */
interface SpecAuth {
  type: 'bearer' | 'header';
  header: string;
  /** What the admin page shows (`maskSecret`). */
  hint: string;
  /** The header's value; undefined when the stored secret could not be opened (the server is then down and says why). */
  value: string | undefined;
}

/** An administrator's authentication as it is sent. */
const authOf = (auth: McpAuthInput): SpecAuth =>
  auth.type === 'bearer'
    ? { type: 'bearer', header: 'Authorization', hint: maskSecret(auth.token), value: `Bearer ${auth.token}` }
    : { type: 'header', header: auth.name, hint: maskSecret(auth.value), value: auth.value };

const UNREADABLE_AUTH = '无法解密保存的认证信息（服务器密钥 CSAI_SECRET 或 data/secret.key 已更换），请在 MCP 服务器管理页重新设置该服务器的认证';

/** A configured MCP server: added in the browser (http, sse) or read from `CSAI_MCP_CONFIG`. */
type ServerSpec = { id: string; name: string; title: string; origin: 'admin' | 'config' } & (
  | { transport: 'http' | 'sse'; url: string; auth?: SpecAuth | undefined }
  | { transport: 'stdio'; command: string; args: string[]; env?: Record<string, string>; cwd?: string }
);

interface RemoteTool {
  exposed: string;
  remote: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown> & { type: 'object' };
}

interface Entry {
  spec: ServerSpec;
  status: 'connecting' | 'ready' | 'down';
  reason?: string;
  tools: RemoteTool[];
  client?: Client;
  retry?: NodeJS.Timeout;
  attempts: number;
}

/** Why an administrator's request was refused: `code` maps to the HTTP status in the route. */
export class McpServerError extends Error {
  constructor(
    readonly code: 'conflict' | 'unreachable' | 'not_found' | 'read_only',
    message: string,
  ) {
    super(message);
    this.name = 'McpServerError';
  }
}

export interface McpManagerOptions {
  config: Pick<Config, 'CSAI_MCP_ALLOWED_HOSTS' | 'CSAI_MCP_CONFIG'>;
  db: Db;
  /** The server secret: the authentication secrets are stored encrypted under a key derived from it. */
  secret: Buffer;
  log: Pick<FastifyBaseLogger, 'warn' | 'info' | 'error'>;
  /** Longest wait for a server to answer `initialize` and `tools/list` (default 10 s). */
  connectTimeoutMs?: number;
  /** Longest a tool call may run (default 60 s). */
  callTimeoutMs?: number;
  /** First pause before reconnecting a server that went down (default 5 s, doubling to 60 s). */
  retryMs?: number;
}

export interface McpManager {
  /** The MCP tools for the registry. */
  source: ToolSource;
  list(): McpServerView[];
  /** Connects first; stores the server only when it answered. Throws `McpServerError`. */
  add(input: McpServerInput, userId: string): Promise<McpServerView>;
  /** Throws `McpServerError` (unknown id, or a server of the configuration file). */
  remove(id: string): Promise<void>;
  /** Connects again now (the admin page's “reconnect”). */
  reconnect(id: string): Promise<McpServerView>;
  /** Replaces (or, with null, removes) the authentication of a server added in the browser, then connects again. Throws `McpServerError`. */
  setAuth(id: string, auth: McpAuthInput | null): Promise<McpServerView>;
  close(): Promise<void>;
}

const MAX_TOOLS_PER_SERVER = 200;
const MAX_RESULT_CHARS = 50_000;
const fail = (content: string): ToolResultPayload => ({ ok: false, content });
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The SafeFetchError behind `err` (itself or a cause), if any. */
function safeFetchErrorIn(err: unknown): SafeFetchError | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) if (e instanceof SafeFetchError) return e;
  return undefined;
}

/** A connection failure in words an administrator can act on (`auth`: whether the server is sent authentication). */
function describe(err: unknown, auth?: SpecAuth): string {
  const raw = err instanceof Error ? err.message : String(err);
  const status = err instanceof StreamableHTTPError || err instanceof SseError ? err.code : undefined;
  if (status === 401) {
    return auth
      ? `认证失败（HTTP 401）：服务器不接受所设置的${auth.type === 'bearer' ? ' Bearer 令牌' : `请求头 ${auth.header}`}，请检查它是否正确或已过期`
      : '服务器要求认证（HTTP 401）：请为它设置认证（Bearer 令牌或自定义请求头）';
  }
  if (status === 403) return auth ? '服务器拒绝访问（HTTP 403）：所设置的认证信息没有访问权限' : '服务器拒绝访问（HTTP 403）：可能需要设置认证';
  const refused = safeFetchErrorIn(err);
  if (refused?.code === 'blocked_address') return `${refused.message}（内网的 MCP 服务器须由运维在 CSAI_MCP_ALLOWED_HOSTS 中列出）`;
  if (/ECONNREFUSED/.test(raw)) return '连接被拒绝（服务器未运行或端口错误）';
  if (/ENOTFOUND|EAI_AGAIN/.test(raw)) return '找不到该主机名';
  if (err instanceof StreamableHTTPError || err instanceof SseError) {
    // The SDK's own text ("Streamable HTTP error: Error POSTing to endpoint: …") is not for users.
    const transport = err instanceof SseError ? 'SSE' : 'Streamable HTTP';
    if (typeof status === 'number' && status >= 400) return `服务器返回 HTTP ${status}：该地址可能不是 MCP 端点，或传输方式（${transport}）选错了`;
    return `服务器没有按 MCP 协议应答（${transport}）：请检查地址和传输方式`;
  }
  if (err instanceof SafeFetchError) {
    if (err.code === 'blocked_address') return `${err.message}（内网的 MCP 服务器须由运维在 CSAI_MCP_ALLOWED_HOSTS 中列出）`;
    return err.message;
  }
  if (err instanceof McpError) {
    if (err.code === ErrorCode.RequestTimeout) return '服务器响应超时';
    if (err.code === ErrorCode.ConnectionClosed) return '连接已断开';
    return err.message;
  }
  if (/ENOENT/.test(raw)) return `无法启动命令：${raw}`;
  return raw.slice(0, 300);
}

/** The connection-level failures (as opposed to a tool's own error): the server is then marked down. */
const isConnectionFailure = (err: unknown) => !(err instanceof McpError) || err.code === ErrorCode.ConnectionClosed || err.code === ErrorCode.RequestTimeout;

/**
 * The MCP servers this server consumes (issue 15 §6): connects to each, lists its tools as
 * `mcp__<server>__<tool>`, calls them for the registry, marks a server that went down (its tools
 * disabled with the reason) and reconnects it with backoff. Adding or removing needs no restart.
 */
export async function startMcpManager({ config, db, log, secret, connectTimeoutMs = 10_000, callTimeoutMs = 60_000, retryMs = 5_000 }: McpManagerOptions): Promise<McpManager> {
  const repo = mcpServersRepo(db);
  const entries = new Map<string, Entry>(); // by server name
  let closed = false;
  // Browser-added URLs: public addresses, or intranet hosts the operator listed. The configuration
  // file's URLs are the operator's own and trusted like LLM_BASE_URL.
  const adminAllowed = hostAllowList(config.CSAI_MCP_ALLOWED_HOSTS);
  const adminFetch: GuardedFetch = guardedFetch({ isAllowed: adminAllowed });
  const trustedFetch: GuardedFetch = guardedFetch({ policy: 'operator' });

  const configured: ConfiguredServer[] = config.CSAI_MCP_CONFIG ? readMcpConfigFile(config.CSAI_MCP_CONFIG) : [];
  const box = secretBox(secret);

  /** A stored row's authentication, its secret opened (undefined value when it cannot be). */
  const storedAuthOf = (row: StoredAuth): SpecAuth | undefined => {
    if (!row.auth_type || !row.auth_header || !row.auth_secret) return undefined;
    let secretValue: string | undefined;
    try {
      secretValue = box.open(row.auth_secret);
    } catch {
      return { type: row.auth_type, header: row.auth_header, hint: '••••', value: undefined };
    }
    return { type: row.auth_type, header: row.auth_header, hint: maskSecret(secretValue), value: row.auth_type === 'bearer' ? `Bearer ${secretValue}` : secretValue };
  };
  /** What is stored of an administrator's authentication: the secret sealed. */
  const toStored = (auth: McpAuthInput | undefined | null): StoredAuth =>
    !auth
      ? NO_AUTH
      : auth.type === 'bearer'
        ? { auth_type: 'bearer', auth_header: 'Authorization', auth_secret: box.seal(auth.token) }
        : { auth_type: 'header', auth_header: auth.name, auth_secret: box.seal(auth.value) };

  function transportOf(spec: ServerSpec): Transport {
    if (spec.transport === 'stdio') {
      return new StdioClientTransport({ command: spec.command, args: spec.args, env: { ...getDefaultEnvironment(), ...spec.env }, ...(spec.cwd ? { cwd: spec.cwd } : {}), stderr: 'ignore' });
    }
    const fetch = spec.origin === 'admin' ? adminFetch : trustedFetch;
    const url = new URL(spec.url);
    // The authentication header goes with every request of the connection (the SDK follows no redirect to another origin).
    const requestInit = spec.auth?.value ? { headers: { [spec.auth.header]: spec.auth.value } } : undefined;
    const options = { fetch, ...(requestInit ? { requestInit } : {}) };
    return spec.transport === 'http' ? new StreamableHTTPClientTransport(url, options) : new SSEClientTransport(url, options);
  }

  function markDown(entry: Entry, reason: string) {
    const client = entry.client;
    entry.client = undefined;
    entry.status = 'down';
    entry.reason = reason;
    if (client) void client.close().catch(() => undefined);
    scheduleRetry(entry);
  }

  function scheduleRetry(entry: Entry) {
    if (closed || entry.retry || entries.get(entry.spec.name) !== entry) return;
    const wait = Math.min(retryMs * 2 ** entry.attempts, 60_000);
    entry.attempts++;
    entry.retry = setTimeout(() => {
      entry.retry = undefined;
      void connect(entry).catch(() => undefined);
    }, wait);
    entry.retry.unref();
  }

  /** Connects `entry` and lists its tools; on failure the entry is down with the reason (and the error is thrown). */
  async function connect(entry: Entry): Promise<void> {
    if (closed) return;
    const client = new Client({ name: 'csai', version: '1.0' }, { capabilities: {} });
    const auth = entry.spec.transport === 'stdio' ? undefined : entry.spec.auth;
    try {
      if (auth && auth.value === undefined) throw new McpServerError('unreachable', UNREADABLE_AUTH);
      // One address check for every transport, before either speaks (each request is checked again as it connects).
      if (entry.spec.transport !== 'stdio' && entry.spec.origin === 'admin') await checkDestination(entry.spec.url, adminAllowed);
      const transport = transportOf(entry.spec);
      await client.connect(transport, { timeout: connectTimeoutMs });
      const tools: RemoteTool[] = [];
      const taken = new Set<string>();
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, { timeout: connectTimeoutMs });
        for (const tool of page.tools) {
          if (tools.length >= MAX_TOOLS_PER_SERVER) break;
          const exposed = exposedToolName(entry.spec.name, tool.name, taken);
          taken.add(exposed);
          tools.push({
            exposed,
            remote: tool.name,
            title: tool.title ?? tool.annotations?.title ?? tool.name,
            description: (tool.description ?? '').slice(0, 1000),
            inputSchema: { ...tool.inputSchema, type: 'object' },
          });
        }
        cursor = page.nextCursor;
      } while (cursor && tools.length < MAX_TOOLS_PER_SERVER);
      if (closed || entries.get(entry.spec.name) !== entry) {
        await client.close();
        return;
      }
      client.onclose = () => {
        if (entry.client === client) markDown(entry, '连接已断开（服务器进程退出或网络中断）');
      };
      entry.client = client;
      entry.tools = tools;
      entry.status = 'ready';
      entry.reason = undefined;
      entry.attempts = 0;
      log.info({ mcp: entry.spec.name, tools: tools.length }, 'MCP server connected');
    } catch (err) {
      await client.close().catch(() => undefined);
      const why = err instanceof McpServerError ? err.message : describe(err, auth);
      const reason = `无法连接 MCP 服务器：${why}`;
      log.warn({ mcp: entry.spec.name, err: why }, 'MCP server unreachable');
      if (entries.get(entry.spec.name) === entry) markDown(entry, reason);
      throw new McpServerError('unreachable', reason);
    }
  }

  const view = (entry: Entry): McpServerView => ({
    id: entry.spec.id,
    name: entry.spec.name,
    title: entry.spec.title,
    transport: entry.spec.transport,
    target: entry.spec.transport === 'stdio' ? [entry.spec.command, ...entry.spec.args].join(' ') : entry.spec.url,
    origin: entry.spec.origin,
    status: entry.status,
    ...(entry.reason ? { reason: entry.reason } : {}),
    ...(entry.spec.transport !== 'stdio' && entry.spec.auth ? { auth: { type: entry.spec.auth.type, header: entry.spec.auth.header, hint: entry.spec.auth.hint } } : {}),
    tools: entry.tools.map((t) => ({ name: t.exposed, remote_name: t.remote, description: t.description })),
  });

  const find = (exposed: string) => {
    if (!exposed.startsWith(MCP_PREFIX)) return undefined;
    for (const entry of entries.values()) {
      const tool = entry.tools.find((t) => t.exposed === exposed);
      if (tool) return { entry, tool };
    }
    return undefined;
  };

  const disabledReason = (entry: Entry) => entry.reason ?? (entry.status === 'connecting' ? 'MCP 服务器正在连接，请稍候' : 'MCP 服务器不可用');

  const source: ToolSource = {
    groups() {
      return [...entries.values()].map((entry): ToolGroup => {
        const ready = entry.status === 'ready';
        const tools = entry.tools.map((t): ToolEntry => ({
          id: t.exposed,
          value: t.exposed,
          label: t.title,
          icon: 'plug',
          description: ready ? t.description || `${entry.spec.title} 提供的工具` : `${t.description}（不可用：${disabledReason(entry)}）`,
          enabled: ready,
          ldap_disabled: false,
        }));
        // A server without tools (down before it ever answered, or offering none) is still shown, disabled, with why.
        if (tools.length === 0) {
          tools.push({
            id: `${MCP_PREFIX}${entry.spec.name}`,
            value: `${MCP_PREFIX}${entry.spec.name}`,
            label: entry.spec.title,
            icon: 'plug',
            description: `MCP 服务器“${entry.spec.title}”（不可用：${ready ? '该服务器没有提供工具' : disabledReason(entry)}）`,
            enabled: false,
            ldap_disabled: false,
          });
        }
        return { id: `mcp:${entry.spec.name}`, label: `MCP · ${entry.spec.title}`, tools };
      });
    },
    offered() {
      return [...entries.values()]
        .filter((e) => e.status === 'ready')
        .flatMap((e) => e.tools.map((t) => ({ name: t.exposed, label: t.title, description: t.description || `${e.spec.title} 提供的工具`, inputSchema: t.inputSchema })));
    },
    has: (name) => !!find(name) || (name.startsWith(MCP_PREFIX) && entries.has(name.slice(MCP_PREFIX.length))),
    timeoutMs: () => callTimeoutMs,
    async call(name, input, signal) {
      const found = find(name);
      if (!found) {
        const entry = entries.get(name.slice(MCP_PREFIX.length));
        return fail(entry ? `MCP 服务器“${entry.spec.title}”不可用：${disabledReason(entry)}` : `没有名为“${name}”的工具`);
      }
      const { entry, tool } = found;
      const client = entry.client;
      if (entry.status !== 'ready' || !client) return fail(`“${tool.title}”不可用：${disabledReason(entry)}`);
      let result: Awaited<ReturnType<Client['callTool']>>;
      try {
        result = await client.callTool({ name: tool.remote, arguments: input }, undefined, { signal, timeout: callTimeoutMs });
      } catch (err) {
        if (signal.aborted) throw err;
        if (!isConnectionFailure(err)) return fail(`MCP 服务器“${entry.spec.title}”返回错误：${describe(err)}`);
        const why = describe(err, entry.spec.transport === 'stdio' ? undefined : entry.spec.auth);
        if (entry.client === client) markDown(entry, `调用中断开连接（${why}）`);
        return fail(`MCP 服务器“${entry.spec.title}”在调用“${tool.remote}”时断开连接（${why}）；它的工具已停用，恢复连接后自动启用`);
      }
      const parts = Array.isArray(result.content) ? result.content : [];
      const text = parts
        .map((part: unknown) => {
          if (!isRecord(part)) return '';
          if (part.type === 'text' && typeof part.text === 'string') return part.text;
          if (part.type === 'image') return '[图片]';
          if (part.type === 'audio') return '[音频]';
          if (part.type === 'resource_link' && typeof part.uri === 'string') return `[资源] ${part.uri}`;
          if (part.type === 'resource') return '[资源]';
          return '';
        })
        .filter((s) => s !== '')
        .join('\n')
        .slice(0, MAX_RESULT_CHARS);
      if (result.isError === true) return fail(`MCP 工具“${tool.remote}”报告错误：${text || '（无说明）'}`);
      const structured = isRecord(result.structuredContent) ? result.structuredContent : undefined;
      const content = text || (structured ? JSON.stringify(structured).slice(0, MAX_RESULT_CHARS) : '（工具没有返回内容）');
      return { ok: true, content, ...(structured ? { data: structured } : {}) };
    },
  };

  const addEntry = (spec: ServerSpec): Entry => {
    const entry: Entry = { spec, status: 'connecting', tools: [], attempts: 0 };
    entries.set(spec.name, entry);
    return entry;
  };

  // Start-up: the configuration file's servers, then the stored ones; connections go on in the
  // background so that a server that is down does not hold the start.
  for (const s of configured) {
    const spec: ServerSpec =
      s.transport === 'stdio'
        ? { id: `config:${s.name}`, name: s.name, title: s.title ?? s.name, origin: 'config', transport: 'stdio', command: s.command, args: s.args, ...(s.env ? { env: s.env } : {}), ...(s.cwd ? { cwd: s.cwd } : {}) }
        : { id: `config:${s.name}`, name: s.name, title: s.title ?? s.name, origin: 'config', transport: s.transport, url: s.url, ...(s.auth ? { auth: authOf(s.auth) } : {}) };
    addEntry(spec);
  }
  for (const row of await repo.list()) {
    if (entries.has(row.name)) {
      log.warn({ mcp: row.name }, 'an MCP server added in the browser has the name of one in CSAI_MCP_CONFIG; the file wins');
      continue;
    }
    const auth = storedAuthOf(row);
    addEntry({ id: row.id, name: row.name, title: row.title, origin: 'admin', transport: row.transport, url: row.url, ...(auth ? { auth } : {}) });
  }
  for (const entry of entries.values()) void connect(entry).catch(() => undefined);

  const byId = (id: string) => [...entries.values()].find((e) => e.spec.id === id);

  /** Drops the connection and connects again now (the outcome, ready or down with why, is in the view). */
  async function connectAgain(entry: Entry): Promise<McpServerView> {
    if (entry.retry) clearTimeout(entry.retry);
    entry.retry = undefined;
    const old = entry.client;
    entry.client = undefined;
    await old?.close().catch(() => undefined);
    entry.status = 'connecting';
    entry.attempts = 0;
    await connect(entry).catch(() => undefined);
    return view(entry);
  }

  return {
    source,
    list: () => [...entries.values()].map(view),

    async add(input, userId) {
      if (entries.has(input.name)) throw new McpServerError('conflict', `已有名为“${input.name}”的 MCP 服务器，请换一个名称`);
      const spec: ServerSpec = { id: randomUUID(), name: input.name, title: input.title || input.name, origin: 'admin', transport: input.transport, url: input.url, ...(input.auth ? { auth: authOf(input.auth) } : {}) };
      const entry = addEntry(spec);
      try {
        await connect(entry);
      } catch (err) {
        // Nothing is kept of a server that did not answer.
        if (entries.get(spec.name) === entry) entries.delete(spec.name);
        if (entry.retry) clearTimeout(entry.retry);
        throw err;
      }
      try {
        const row = await repo.insert({ name: spec.name, title: spec.title, transport: input.transport, url: input.url, created_by: userId, ...toStored(input.auth) });
        entry.spec = { ...spec, id: row.id };
      } catch (err) {
        entries.delete(spec.name);
        await entry.client?.close().catch(() => undefined);
        if (/UNIQUE/i.test(String(err))) throw new McpServerError('conflict', `已有名为“${input.name}”的 MCP 服务器，请换一个名称`);
        throw err;
      }
      return view(entry);
    },

    async remove(id) {
      const entry = byId(id);
      if (!entry) throw new McpServerError('not_found', 'MCP 服务器不存在或已被删除');
      if (entry.spec.origin === 'config') throw new McpServerError('read_only', '该 MCP 服务器来自服务器配置文件（CSAI_MCP_CONFIG），只能在配置文件中删除');
      await repo.remove(id);
      entries.delete(entry.spec.name);
      if (entry.retry) clearTimeout(entry.retry);
      const client = entry.client;
      entry.client = undefined;
      await client?.close().catch(() => undefined);
    },

    async reconnect(id) {
      const entry = byId(id);
      if (!entry) throw new McpServerError('not_found', 'MCP 服务器不存在或已被删除');
      return connectAgain(entry);
    },

    async setAuth(id, auth) {
      const entry = byId(id);
      if (!entry) throw new McpServerError('not_found', 'MCP 服务器不存在或已被删除');
      if (entry.spec.origin === 'config' || entry.spec.transport === 'stdio') throw new McpServerError('read_only', '该 MCP 服务器来自服务器配置文件（CSAI_MCP_CONFIG），认证只能在配置文件中修改');
      if (!(await repo.setAuth(id, toStored(auth)))) throw new McpServerError('not_found', 'MCP 服务器不存在或已被删除');
      entry.spec = { ...entry.spec, auth: auth ? authOf(auth) : undefined };
      return connectAgain(entry);
    },

    async close() {
      closed = true;
      const all = [...entries.values()];
      entries.clear();
      for (const entry of all) {
        if (entry.retry) clearTimeout(entry.retry);
        const client = entry.client;
        entry.client = undefined;
        await client?.close().catch(() => undefined);
      }
    },
  };
}
