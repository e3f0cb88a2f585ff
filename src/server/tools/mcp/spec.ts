import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** The authentication a server is sent: one header on every request. */
export interface SpecAuth {
  type: 'bearer' | 'header';
  header: string;
  /** What the admin page shows (`maskSecret`). */
  hint: string;
  /** The header's value; undefined when the stored secret could not be opened (the server is then down and says why). */
  value: string | undefined;
}

/** A configured MCP server: added in the browser (http, sse) or read from `CSAI_MCP_CONFIG`. */
export type ServerSpec = { id: string; name: string; title: string; origin: 'admin' | 'config' } & (
  | { transport: 'http' | 'sse'; url: string; auth?: SpecAuth | undefined }
  | { transport: 'stdio'; command: string; args: string[]; env?: Record<string, string>; cwd?: string }
);

/** One tool of a server: the name the model sees and the server's own. */
export interface RemoteTool {
  exposed: string;
  remote: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown> & { type: 'object' };
}

/** A server as the manager holds it: its spec, its connection state and the tools it listed. */
export interface Entry {
  spec: ServerSpec;
  status: 'connecting' | 'ready' | 'down';
  reason?: string;
  tools: RemoteTool[];
  client?: Client;
  retry?: NodeJS.Timeout;
  attempts: number;
}

/** The servers by name; the manager, the connections and the tool source share it. */
export type Entries = Map<string, Entry>;

/** The authentication of a server that is sent any (stdio servers are sent none). */
export const authSent = (spec: ServerSpec): SpecAuth | undefined => (spec.transport === 'stdio' ? undefined : spec.auth);

/** Why an administrator's request was refused: `code` maps to the HTTP status in the route. */
export class McpServerError extends Error {
  constructor(
    readonly code: 'conflict' | 'unreachable' | 'not_found' | 'read_only',
    message: string,
  ) {
    super(message);
    this.name = 'McpServerError';
  }
}
