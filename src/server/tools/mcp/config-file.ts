import fs from 'node:fs';
import { z } from 'zod';
import { MCP_SERVER_NAME, mcpAuthInput } from '../../../contract/mcp-servers';

const name = z.string().regex(MCP_SERVER_NAME, 'must be 1-32 lowercase letters, digits or hyphens, not starting or ending with a hyphen');
const title = z.string().trim().min(1).max(60).optional();

/** `CSAI_MCP_CONFIG`: MCP servers configured on the server (the only place a stdio command may come from). */
export const mcpConfigFile = z.object({
  servers: z.array(
    z.discriminatedUnion('transport', [
      z.object({ name, title, transport: z.literal('stdio'), command: z.string().min(1), args: z.array(z.string()).default([]), env: z.record(z.string(), z.string()).optional(), cwd: z.string().optional() }).strict(),
      z.object({ name, title, transport: z.enum(['http', 'sse']), url: z.url({ protocol: /^https?$/ }), auth: mcpAuthInput.optional() }).strict(),
    ]),
  ),
}).strict();
export type McpConfigFile = z.infer<typeof mcpConfigFile>;
export type ConfiguredServer = McpConfigFile['servers'][number];

/** Reads and checks the file; throws a readable English error naming the file and each problem (start-up fails). */
export function readMcpConfigFile(file: string): ConfiguredServer[] {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`CSAI_MCP_CONFIG: cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = mcpConfigFile.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`CSAI_MCP_CONFIG: ${file} is not a valid MCP server list:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  }
  const seen = new Set<string>();
  for (const s of parsed.data.servers) {
    if (seen.has(s.name)) throw new Error(`CSAI_MCP_CONFIG: ${file} names the MCP server "${s.name}" twice`);
    seen.add(s.name);
  }
  return parsed.data.servers;
}
