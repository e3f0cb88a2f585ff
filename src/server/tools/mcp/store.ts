import { randomUUID } from 'node:crypto';
import { now, type Db } from '../../db/database';
import type { McpServerTable } from '../../db/schema';

/** A server's stored authentication: all three set, or all null. */
export type StoredAuth = Pick<McpServerTable, 'auth_type' | 'auth_header' | 'auth_secret'>;
export const NO_AUTH: StoredAuth = { auth_type: null, auth_header: null, auth_secret: null };

/** The MCP servers administrators added in the browser (table `mcp_servers`). */
export function mcpServersRepo(db: Db) {
  return {
    list: (): Promise<McpServerTable[]> => db.selectFrom('mcp_servers').selectAll().orderBy('created_at').execute(),
    async insert(values: Pick<McpServerTable, 'name' | 'title' | 'transport' | 'url' | 'created_by'> & StoredAuth): Promise<McpServerTable> {
      const row: McpServerTable = { id: randomUUID(), created_at: now(), ...values };
      await db.insertInto('mcp_servers').values(row).execute();
      return row;
    },
    async setAuth(id: string, auth: StoredAuth): Promise<boolean> {
      const result = await db.updateTable('mcp_servers').set(auth).where('id', '=', id).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async remove(id: string): Promise<boolean> {
      const result = await db.deleteFrom('mcp_servers').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
