import { z } from 'zod';

/** An MCP server's machine name: part of its tools' names (`mcp__<name>__<tool>`), so no `__`. */
export const MCP_SERVER_NAME = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

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
  tools: z.array(mcpServerTool),
});
export type McpServerView = z.infer<typeof mcpServerView>;
