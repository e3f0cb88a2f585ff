import { z } from 'zod';

/** An MCP server's machine name: part of its tools' names (`mcp__<name>__<tool>`), so no `__`. */
export const MCP_SERVER_NAME = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

/** Longest token or header value an MCP server's authentication may have. */
export const MCP_AUTH_VALUE_MAX = 4096;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the connection sets itself (or that a proxy or the transport owns): never an authentication header. */
const RESERVED_HEADERS = new Set([
  'host', 'content-length', 'content-type', 'content-encoding', 'accept', 'accept-encoding', 'connection', 'keep-alive', 'transfer-encoding',
  'te', 'trailer', 'upgrade', 'expect', 'proxy-authorization', 'proxy-connection', 'cookie', 'origin', 'referer', 'user-agent',
  'mcp-session-id', 'mcp-protocol-version', 'last-event-id',
]);

/**
 * How CSAI authenticates to an MCP server: a Bearer token (`Authorization: Bearer <token>`) or one
 * header of the administrator's choosing (`X-API-Key: <value>`). Sent on every request of the
 * Streamable HTTP or SSE connection; stored encrypted and never shown again in full.
 * @example { type: 'bearer', token: 'sk-live-…' } // or { type: 'header', name: 'X-API-Key', value: '…' }
 */
export const mcpAuthInput = z.discriminatedUnion(
  'type',
  [
    z
      .object({
        type: z.literal('bearer'),
        token: z
          .string({ error: '请填写令牌' })
          .trim()
          .min(1, '令牌不能为空')
          .max(MCP_AUTH_VALUE_MAX, `令牌不能超过${MCP_AUTH_VALUE_MAX}个字符`)
          .regex(/^[\x21-\x7e]+$/, '令牌只能包含可见的 ASCII 字符（不能有空格、换行或中文）'),
      })
      .strict(),
    z
      .object({
        type: z.literal('header'),
        name: z
          .string({ error: '请填写请求头名称' })
          .trim()
          .min(1, '请求头名称不能为空')
          .max(64, '请求头名称不能超过64个字符')
          .regex(HEADER_NAME, '请求头名称只能包含英文字母、数字和 - _ . 等符号，例如 X-API-Key')
          .refine((n) => !RESERVED_HEADERS.has(n.toLowerCase()), '该请求头由连接本身使用，不能用作认证请求头'),
        value: z
          .string({ error: '请填写请求头的值' })
          .trim()
          .min(1, '请求头的值不能为空')
          .max(MCP_AUTH_VALUE_MAX, `请求头的值不能超过${MCP_AUTH_VALUE_MAX}个字符`)
          .regex(/^[\x20-\x7e]+$/, '请求头的值只能包含可见的 ASCII 字符和空格（不能有换行或中文）'),
      })
      .strict(),
  ],
  { error: '认证方式只能是 bearer（Bearer 令牌）或 header（自定义请求头）' },
);
export type McpAuthInput = z.infer<typeof mcpAuthInput>;

/** PUT /mcp_servers/:id/auth: the new authentication, or null to send none. */
export const mcpAuthUpdate = z
  .object({ auth: z.union([mcpAuthInput, z.null()], { error: '请提供认证方式（auth），或用 null 取消认证' }) }, { error: '请求体必须是 JSON 对象' })
  .strict();

/** An MCP server's authentication as the admin page sees it: never the secret, only its last characters when it is long. */
export const mcpAuthView = z.object({
  type: z.enum(['bearer', 'header']),
  /** The header it is sent in (`Authorization` for a Bearer token). */
  header: z.string(),
  /** `••••` and the last 4 characters of a secret of 16 or more, else `••••` alone. */
  hint: z.string(),
});
export type McpAuthView = z.infer<typeof mcpAuthView>;

/** The masked form of a secret (the only form that leaves the server). */
export const maskSecret = (secret: string) => (secret.length >= 16 ? `••••${secret.slice(-4)}` : '••••');

/**
 * What an administrator sends to add an MCP server from the browser: Streamable HTTP or SSE only
 * (stdio commands are configured on the server, never from here).
 * @example { name: 'chemtools', title: '化学工具', transport: 'http', url: 'https://mcp.example.com/mcp' }
 */
export const mcpServerInput = z
  .object(
    {
      name: z
        .string({ error: '请填写名称' })
        .trim()
        .max(32, '名称不能超过32个字符')
        .regex(MCP_SERVER_NAME, '名称只能包含小写字母、数字和连字符（-），长度 1–32 个字符，且不能以连字符开头或结尾'),
      title: z
        .string({ error: '显示名称必须是字符串' })
        .trim()
        .max(60, '显示名称不能超过60个字符')
        .refine((s) => !CONTROL_CHARS.test(s), '显示名称包含不允许的控制字符')
        .optional(),
      transport: z.enum(['http', 'sse'], { error: '连接方式只能是 http（Streamable HTTP）或 sse；stdio 服务器只能在服务器配置文件中添加' }),
      url: z
        .string({ error: '请填写服务器地址' })
        .trim()
        .max(2000, '服务器地址过长')
        .refine((s) => {
          try {
            const u = new URL(s);
            return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password;
          } catch {
            return false;
          }
        }, '服务器地址必须是 http:// 或 https:// 开头的有效网址，且不能包含用户名或密码'),
      auth: mcpAuthInput.optional(),
    },
    { error: '请求体必须是 JSON 对象' },
  )
  .strict();
export type McpServerInput = z.infer<typeof mcpServerInput>;

/** One tool of an MCP server as the admin page lists it. */
export const mcpServerTool = z.object({
  /** The name the model and GET /tools use (`mcp__<server>__<tool>`). */
  name: z.string(),
  /** The tool's own name on its server. */
  remote_name: z.string(),
  description: z.string(),
});

/** An MCP server, its connection state and its tools. */
export const mcpServerView = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string(),
  transport: z.enum(['http', 'sse', 'stdio']),
  /** The URL (http, sse) or the command line (stdio). */
  target: z.string(),
  /** `admin`: added in the browser, removable there; `config`: from the server's configuration file. */
  origin: z.enum(['admin', 'config']),
  status: z.enum(['connecting', 'ready', 'down']),
  /** Why the server is down (Chinese). */
  reason: z.string().optional(),
  /** The authentication sent to it, masked; absent when none. */
  auth: mcpAuthView.optional(),
  tools: z.array(mcpServerTool),
});
export type McpServerView = z.infer<typeof mcpServerView>;
