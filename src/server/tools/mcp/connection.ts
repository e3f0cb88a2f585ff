import type { FastifyBaseLogger } from 'fastify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { checkDestination, guardedFetch, hostAllowList, type GuardedFetch } from '../../net/guarded-fetch';
import { UNREADABLE_AUTH } from './auth';
import { describe } from './describe';
import { exposedToolName } from './names';
import { authSent, McpServerError, type Entries, type Entry, type RemoteTool, type ServerSpec } from './spec';

const MAX_TOOLS_PER_SERVER = 200;

export interface ConnectionOptions {
  entries: Entries;
  /** Intranet hosts an administrator may add (CSAI_MCP_ALLOWED_HOSTS). */
  allowedHosts: readonly string[];
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  connectTimeoutMs: number;
  retryMs: number;
}

/**
 * The servers' connections: connect and list the tools, mark a server down with why when its
 * connection fails or ends, and connect it again with a growing pause (up to a minute).
 */
export function mcpConnections({ entries, allowedHosts, log, connectTimeoutMs, retryMs }: ConnectionOptions) {
  let closed = false;
  // Browser-added URLs: public addresses, or intranet hosts the operator listed. The configuration
  // file's URLs are the operator's own and trusted like LLM_BASE_URL.
  const adminAllowed = hostAllowList(allowedHosts);
  const adminFetch: GuardedFetch = guardedFetch({ isAllowed: adminAllowed });
  const trustedFetch: GuardedFetch = guardedFetch({ policy: 'operator' });

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
    const auth = authSent(entry.spec);
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

  /** Stops retrying `entry` and closes its connection. */
  async function disconnect(entry: Entry) {
    if (entry.retry) clearTimeout(entry.retry);
    entry.retry = undefined;
    const client = entry.client;
    entry.client = undefined;
    await client?.close().catch(() => undefined);
  }

  return {
    connect,
    markDown,
    disconnect,
    /** Drops the connection and connects again now (the outcome, ready or down with why, is in the entry). */
    async connectAgain(entry: Entry): Promise<void> {
      await disconnect(entry);
      entry.status = 'connecting';
      entry.attempts = 0;
      await connect(entry).catch(() => undefined);
    },
    /** No connection is made or retried after this. */
    close() {
      closed = true;
    },
  };
}

export type McpConnections = ReturnType<typeof mcpConnections>;
