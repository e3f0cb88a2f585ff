// A real MCP server over stdio, built from the official SDK, for tests/server/tools/mcp/mcp-servers.test.ts:
// `echo` answers its text back; `die` exits the process in the middle of its call.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'stdio-test', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    { name: 'echo', description: '原样返回文本', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
    { name: 'die', description: '调用中退出进程', inputSchema: { type: 'object', properties: {} } },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === 'echo') return { content: [{ type: 'text', text: `echo: ${String(request.params.arguments?.text ?? '')}` }] };
  if (request.params.name === 'die') {
    setTimeout(() => process.exit(3), 50);
    return new Promise(() => undefined);
  }
  return { content: [{ type: 'text', text: 'unknown tool' }], isError: true };
});
await server.connect(new StdioServerTransport());
