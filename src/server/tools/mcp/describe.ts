import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { SafeFetchError } from '../../net/safe-fetch';
import type { SpecAuth } from './spec';

/** The SafeFetchError behind `err` (itself or a cause), if any. */
function safeFetchErrorIn(err: unknown): SafeFetchError | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) if (e instanceof SafeFetchError) return e;
  return undefined;
}

/** A connection failure in words an administrator can act on (`auth`: whether the server is sent authentication). */
export function describe(err: unknown, auth?: SpecAuth): string {
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
export const isConnectionFailure = (err: unknown) => !(err instanceof McpError) || err.code === ErrorCode.ConnectionClosed || err.code === ErrorCode.RequestTimeout;
