// The administrators' MCP server calls: list, add, change the authentication,
// reconnect and remove the outside tool servers, every answer parsed by the contract.
import { z } from 'zod';
import { mcpServerView, type mcpAuthUpdate, type McpServerInput } from '../contract/mcp-servers';
import type { ApiClient, CallOptions } from './api';

const serverList = z.array(mcpServerView);

/**
 * The MCP server calls bound to one API client.
 * @example const servers = await createMcpApi(api()).list({ quiet: true });
 */
export function createMcpApi(client: ApiClient) {
  const enc = encodeURIComponent;
  return {
    list: (opts: CallOptions = {}) => client.get('/mcp_servers', serverList, opts),
    add: (server: McpServerInput, opts: CallOptions = {}) => client.post('/mcp_servers', server, mcpServerView, opts),
    /** PUT mcp_servers/{id}/auth: new credentials; the answer says whether the server is ready with them. */
    updateAuth: (id: string, update: z.output<typeof mcpAuthUpdate>, opts: CallOptions = {}) => client.put(`/mcp_servers/${enc(id)}/auth`, update, mcpServerView, opts),
    reconnect: (id: string) => client.post(`/mcp_servers/${enc(id)}/reconnect`, undefined, mcpServerView),
    remove: (id: string) => client.delete(`/mcp_servers/${enc(id)}`, z.null()),
  };
}
/** The MCP server calls. */
export type McpApi = ReturnType<typeof createMcpApi>;
