import { createHash } from 'node:crypto';

/** Prefix of every MCP tool's name; catalogue tool names never start with it. */
export const MCP_PREFIX = 'mcp__';
/** Function names a model accepts: `^[a-zA-Z0-9_-]{1,64}$` (OpenAI's rule, the strictest in use). */
const MAX_NAME = 64;

/**
 * The name the model, GET /tools and tool cards use for tool `remote` of server `server`:
 * `mcp__<server>__<tool>`, with characters models refuse replaced by `_` and long names cut and
 * suffixed with a hash, so that two tools never share a name. `taken` holds the names already given.
 */
export function exposedToolName(server: string, remote: string, taken: ReadonlySet<string>): string {
  const base = `${MCP_PREFIX}${server}__${remote.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const hashed = (salt: string) => `${base.slice(0, MAX_NAME - 9)}_${createHash('sha256').update(remote + salt).digest('hex').slice(0, 8)}`;
  let name = base.length <= MAX_NAME ? base : hashed('');
  for (let i = 1; taken.has(name); i++) name = hashed(String(i));
  return name;
}
