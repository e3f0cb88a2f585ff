import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors';
import { requestLanguage, toolText, type Lang } from '../i18n';
import type { ToolRegistry } from '../tools/registry';
import type { App, Services } from './types';

/** What an MCP client is told it talks to. */
const SERVER_INFO = { name: 'csai', title: 'CSAI 药物研发智能助手' };

/**
 * One MCP server for one request (stateless Streamable HTTP: the SDK needs a new server and
 * transport per request). It lists the registry's usable tools with the same names and JSON
 * Schemas the model is offered, and runs them as the token's user; a tool's `files` names any
 * document that user may read (there is no question with attached documents).
 */
function mcpServer(tools: ToolRegistry, userId: string, lang: Lang, version: string): Server {
  const server = new Server({ ...SERVER_INFO, version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    // SPEC §6: a directory user's token lists no tool LDAP_DISABLED_TOOLS names.
    // Titles and descriptions in the token user's language (users.language, else Accept-Language).
    tools: tools.select(undefined, await tools.audience(userId)).map((t) => ({
      name: t.name,
      title: (lang === 'en' && toolText('labels', t.name)) || t.label,
      description: (lang === 'en' && toolText('descriptions', t.name)) || t.description,
      inputSchema: t.inputSchema,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const result = await tools.run(request.params.name, request.params.arguments ?? {}, { viewer: { userId, lang }, docIds: [], fileScope: 'readable', signal: extra.signal });
    const structured = result.ok && isRecord(result.data) ? { structuredContent: result.data } : {};
    return { content: [{ type: 'text', text: result.content }], isError: !result.ok, ...structured };
  });
  return server;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * /mcp: the Model Context Protocol over Streamable HTTP, stateless. Needs
 * `Authorization: Bearer <API token>`; the tools run with exactly what the token's user may read.
 */
export default async function mcpRoutes(app: App, { db, runtime, version }: Services) {
  const tokenUser = async (req: FastifyRequest, reply: FastifyReply) => {
    const auth = await req.auth();
    if (auth.kind !== 'user' || !auth.tokenId) {
      reply.header('WWW-Authenticate', 'Bearer realm="csai"');
      throw new AppError(401, 'token_required', 'MCP 需要 API 令牌：请在“API 令牌”页面创建令牌，并以 Authorization: Bearer <令牌> 发送');
    }
    return auth.userId;
  };

  app.post('/', { schema: { hide: true } }, async (req, reply) => {
    const userId = await tokenUser(req, reply);
    const server = mcpServer(runtime.tools, userId, await requestLanguage(req, db), version);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req.raw, reply.raw, req.body);
    } catch (err) {
      req.log.error({ err }, 'mcp request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: '服务器内部错误' }, id: null }));
      }
    }
  });

  // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
  const notAllowed = async (req: FastifyRequest, reply: FastifyReply) => {
    await tokenUser(req, reply);
    return reply.status(405).header('Allow', 'POST').send({ jsonrpc: '2.0', error: { code: -32000, message: '此服务器无会话：请用 POST 发送请求' }, id: null });
  };
  app.get('/', { schema: { hide: true } }, notAllowed);
  app.delete('/', { schema: { hide: true } }, notAllowed);
}
