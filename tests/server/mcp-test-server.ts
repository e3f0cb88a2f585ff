import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * A real MCP server over Streamable HTTP on 127.0.0.1 (stateless, the official SDK), with tools:
 * `add` (a + b, text and structured), `fail` (a tool error), `hold` (answers only when released,
 * so a test can kill the server mid-call), `lookup.by name` (a name models refuse as is).
 * `requireHeader`: every request without that header and value is answered 401 (as an MCP server
 * behind an API gateway does); `rejected` counts them.
 */
export async function startMcpHttpServer(options: { requireHeader?: { name: string; value: string } } = {}) {
  let required = options.requireHeader;
  let rejected = 0;
  const sockets = new Set<Socket>();
  const held = new Set<() => void>();
  let calls = 0;
  const mcp = () => {
    const server = new Server({ name: 'calc', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        { name: 'add', title: '加法', description: '两个数相加', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } },
        { name: 'fail', description: '总是报告错误', inputSchema: { type: 'object', properties: {} } },
        { name: 'hold', description: '等待放行', inputSchema: { type: 'object', properties: {} } },
        { name: 'lookup.by name', description: '名称含点和空格', inputSchema: { type: 'object', properties: {} } },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
      calls++;
      const args = request.params.arguments ?? {};
      switch (request.params.name) {
        case 'add': {
          if (typeof args.a !== 'number' || typeof args.b !== 'number') throw new McpError(ErrorCode.InvalidParams, 'a and b must be numbers');
          const sum = args.a + args.b;
          return { content: [{ type: 'text', text: `和为 ${sum}` }], structuredContent: { sum } };
        }
        case 'fail':
          return { content: [{ type: 'text', text: '数据库维护中' }], isError: true };
        case 'hold':
          await new Promise<void>((resolve) => held.add(resolve));
          return { content: [{ type: 'text', text: 'released' }] };
        case 'lookup.by name':
          return { content: [{ type: 'text', text: 'found' }] };
        default:
          throw new McpError(ErrorCode.MethodNotFound, `unknown tool ${request.params.name}`);
      }
    });
    return server;
  };

  // The older HTTP+SSE transport: GET /sse opens the stream, POST /messages?sessionId=… carries requests.
  const sse = new Map<string, SSEServerTransport>();
  const httpServer = http.createServer((req, res) => {
    if (required && req.headers[required.name.toLowerCase()] !== required.value) {
      rejected++;
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="mcp"' }).end(JSON.stringify({ error: 'unauthorized' }));
      return;
    }
    if (req.url === '/sse' && req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res);
      sse.set(transport.sessionId, transport);
      res.on('close', () => sse.delete(transport.sessionId));
      void mcp().connect(transport);
      return;
    }
    if (req.url?.startsWith('/messages') && req.method === 'POST') {
      const transport = sse.get(new URL(req.url, 'http://x').searchParams.get('sessionId') ?? '');
      if (!transport) {
        res.writeHead(404).end('no session');
        return;
      }
      void transport.handlePostMessage(req, res);
      return;
    }
    if (req.url !== '/mcp') {
      res.writeHead(404).end('not here');
      return;
    }
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      void (async () => {
        if (req.method !== 'POST') {
          res.writeHead(405, { allow: 'POST' }).end();
          return;
        }
        const server = mcp();
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        res.on('close', () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(req, res, JSON.parse(body) as unknown);
      })();
    });
  });
  httpServer.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
  const port = (httpServer.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    sseUrl: `http://127.0.0.1:${port}/sse`,
    get calls() {
      return calls;
    },
    get rejected() {
      return rejected;
    },
    /** Changes the header every request must carry (a rotated or revoked key). */
    requireHeader(header: { name: string; value: string } | undefined) {
      required = header;
    },
    get heldCount() {
      return held.size;
    },
    release() {
      for (const r of held) r();
      held.clear();
    },
    /** Stops the server at once: open connections (a call in progress) are cut. */
    async kill() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => httpServer.close(() => r()));
    },
  };
}
