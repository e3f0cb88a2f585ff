import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { McpAuthInput, McpServerInput, McpServerView } from '../../../contract/mcp-servers';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { ToolSource } from '../types';
import { authOf, storedAuth } from './auth';
import { readMcpConfigFile, type ConfiguredServer } from './config-file';
import { mcpConnections } from './connection';
import { McpServerError, type Entries, type Entry, type ServerSpec } from './spec';
import { mcpServersRepo } from './store';
import { mcpToolSource } from './tool-source';


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

/** A server of the configuration file as the manager holds it. */
const configuredSpec = (s: ConfiguredServer): ServerSpec =>
  s.transport === 'stdio'
    ? { id: `config:${s.name}`, name: s.name, title: s.title ?? s.name, origin: 'config', transport: 'stdio', command: s.command, args: s.args, ...(s.env ? { env: s.env } : {}), ...(s.cwd ? { cwd: s.cwd } : {}) }
    : { id: `config:${s.name}`, name: s.name, title: s.title ?? s.name, origin: 'config', transport: s.transport, url: s.url, ...(s.auth ? { auth: authOf(s.auth) } : {}) };

const NOT_FOUND = 'MCP 服务器不存在或已被删除';

/**
 * The MCP servers this server consumes: the configuration file's and the ones
 * administrators add, remove and re-authenticate in the browser (stored in `mcp_servers`). The
 * connections (connection.ts) and the tools they offer (tool-source.ts) are modules of their own;
 * adding or removing needs no restart.
 */
export async function startMcpManager({ config, db, log, secret, connectTimeoutMs = 10_000, callTimeoutMs = 60_000, retryMs = 5_000 }: McpManagerOptions): Promise<McpManager> {
  const repo = mcpServersRepo(db);
  const entries: Entries = new Map(); // by server name
  const connections = mcpConnections({ entries, allowedHosts: config.CSAI_MCP_ALLOWED_HOSTS, log, connectTimeoutMs, retryMs });
  const auth = storedAuth(secret);

  const addEntry = (spec: ServerSpec): Entry => {
    const entry: Entry = { spec, status: 'connecting', tools: [], attempts: 0 };
    entries.set(spec.name, entry);
    return entry;
  };

  // Start-up: the configuration file's servers, then the stored ones; connections go on in the
  // background so that a server that is down does not hold the start.
  const configured: ConfiguredServer[] = config.CSAI_MCP_CONFIG ? readMcpConfigFile(config.CSAI_MCP_CONFIG) : [];
  for (const s of configured) addEntry(configuredSpec(s));
  for (const row of await repo.list()) {
    if (entries.has(row.name)) {
      log.warn({ mcp: row.name }, 'an MCP server added in the browser has the name of one in CSAI_MCP_CONFIG; the file wins');
      continue;
    }
    const opened = auth.open(row);
    addEntry({ id: row.id, name: row.name, title: row.title, origin: 'admin', transport: row.transport, url: row.url, ...(opened ? { auth: opened } : {}) });
  }
  for (const entry of entries.values()) void connections.connect(entry).catch(() => undefined);

  const byId = (id: string) => [...entries.values()].find((e) => e.spec.id === id);

  return {
    source: mcpToolSource(entries, connections, callTimeoutMs),
    list: () => [...entries.values()].map(view),

    async add(input, userId) {
      if (entries.has(input.name)) throw new McpServerError('conflict', `已有名为“${input.name}”的 MCP 服务器，请换一个名称`);
      const spec: ServerSpec = { id: randomUUID(), name: input.name, title: input.title || input.name, origin: 'admin', transport: input.transport, url: input.url, ...(input.auth ? { auth: authOf(input.auth) } : {}) };
      const entry = addEntry(spec);
      try {
        await connections.connect(entry);
      } catch (err) {
        // Nothing is kept of a server that did not answer.
        if (entries.get(spec.name) === entry) entries.delete(spec.name);
        if (entry.retry) clearTimeout(entry.retry);
        throw err;
      }
      try {
        const row = await repo.insert({ name: spec.name, title: spec.title, transport: input.transport, url: input.url, created_by: userId, ...auth.seal(input.auth) });
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
      if (!entry) throw new McpServerError('not_found', NOT_FOUND);
      if (entry.spec.origin === 'config') throw new McpServerError('read_only', '该 MCP 服务器来自服务器配置文件（CSAI_MCP_CONFIG），只能在配置文件中删除');
      await repo.remove(id);
      entries.delete(entry.spec.name);
      await connections.disconnect(entry);
    },

    async reconnect(id) {
      const entry = byId(id);
      if (!entry) throw new McpServerError('not_found', NOT_FOUND);
      await connections.connectAgain(entry);
      return view(entry);
    },

    async setAuth(id, input) {
      const entry = byId(id);
      if (!entry) throw new McpServerError('not_found', NOT_FOUND);
      if (entry.spec.origin === 'config' || entry.spec.transport === 'stdio') throw new McpServerError('read_only', '该 MCP 服务器来自服务器配置文件（CSAI_MCP_CONFIG），认证只能在配置文件中修改');
      if (!(await repo.setAuth(id, auth.seal(input)))) throw new McpServerError('not_found', NOT_FOUND);
      entry.spec = { ...entry.spec, auth: input ? authOf(input) : undefined };
      await connections.connectAgain(entry);
      return view(entry);
    },

    async close() {
      connections.close();
      const all = [...entries.values()];
      entries.clear();
      for (const entry of all) await connections.disconnect(entry);
    },
  };
}
