import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ToolEntry, ToolGroup } from '../../../contract/channel';
import type { ToolResultPayload } from '../../../contract/tools';
import type { ToolSource } from '../types';
import type { McpConnections } from './connection';
import { describe, isConnectionFailure } from './describe';
import { MCP_PREFIX } from './names';
import { authSent, type Entries, type Entry } from './spec';

const MAX_RESULT_CHARS = 50_000;
const fail = (content: string): ToolResultPayload => ({ ok: false, content });
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const disabledReason = (entry: Entry) => entry.reason ?? (entry.status === 'connecting' ? 'MCP 服务器正在连接，请稍候' : 'MCP 服务器不可用');

/** A tool's result content as the text the model reads: text parts as they are, other parts named. */
function resultText(content: unknown): string {
  const parts = Array.isArray(content) ? content : [];
  return parts
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
}

/**
 * The servers' tools for the registry: listed (a server that is down shows its tools disabled with
 * why), offered to the model while their server is ready, and called; a call that loses the
 * connection marks the server down.
 */
export function mcpToolSource(entries: Entries, connections: Pick<McpConnections, 'markDown'>, callTimeoutMs: number): ToolSource {
  const find = (exposed: string) => {
    if (!exposed.startsWith(MCP_PREFIX)) return undefined;
    for (const entry of entries.values()) {
      const tool = entry.tools.find((t) => t.exposed === exposed);
      if (tool) return { entry, tool };
    }
    return undefined;
  };

  return {
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
        const why = describe(err, authSent(entry.spec));
        if (entry.client === client) connections.markDown(entry, `调用中断开连接（${why}）`);
        return fail(`MCP 服务器“${entry.spec.title}”在调用“${tool.remote}”时断开连接（${why}）；它的工具已停用，恢复连接后自动启用`);
      }
      const text = resultText(result.content);
      if (result.isError === true) return fail(`MCP 工具“${tool.remote}”报告错误：${text || '（无说明）'}`);
      const structured = isRecord(result.structuredContent) ? result.structuredContent : undefined;
      const content = text || (structured ? JSON.stringify(structured).slice(0, MAX_RESULT_CHARS) : '（工具没有返回内容）');
      return { ok: true, content, ...(structured ? { data: structured } : {}) };
    },
  };
}
