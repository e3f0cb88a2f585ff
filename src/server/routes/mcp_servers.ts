import { z } from 'zod';
import { errorResponses, ok as okSchema } from '../../contract/envelope';
import { mcpAuthUpdate, mcpServerInput, mcpServerView } from '../../contract/mcp-servers';
import { usersRepo } from '../auth/accounts';
import { AppError, conflict, forbidden, notFound } from '../errors';
import { McpServerError } from '../tools/mcp/spec';
import type { FastifyRequest } from 'fastify';
import { ok, type App, type Services } from './types';

const tags = ['mcp_servers'];
const idParams = z.object({ id: z.string().min(1).max(100) });

/** A manager refusal as the HTTP error the admin page shows. */
function httpError(err: unknown): unknown {
  if (!(err instanceof McpServerError)) return err;
  switch (err.code) {
    case 'conflict':
      return conflict(err.message);
    case 'not_found':
      return notFound(err.message);
    case 'read_only':
      return forbidden(err.message, 'read_only');
    case 'unreachable':
      return new AppError(400, 'unreachable', err.message, 'url');
  }
}

/**
 * /api/v1/mcp_servers: administrators list, add (Streamable HTTP or SSE URL) and
 * remove the MCP servers whose tools the model may call. Changes apply at once, without a restart.
 */
export default async function mcpServersRoutes(app: App, { db, runtime }: Services) {
  const requireAdmin = async (req: FastifyRequest) => {
    const { userId } = await req.requireUser();
    const user = await usersRepo(db).byId(userId);
    if (!user?.is_admin) throw forbidden('只有管理员可以管理 MCP 服务器');
    return userId;
  };

  app.get('/', {
    schema: { tags, summary: 'MCP servers with their state and tools (administrators)', response: { 200: okSchema(z.array(mcpServerView)), ...errorResponses } },
  }, async (req) => {
    await requireAdmin(req);
    return ok(runtime.mcp.list());
  });

  app.post('/', {
    schema: { tags, summary: 'Add an MCP server by URL; it must answer first (administrators)', body: mcpServerInput, response: { 200: okSchema(mcpServerView), ...errorResponses } },
  }, async (req) => {
    const userId = await requireAdmin(req);
    try {
      return ok(await runtime.mcp.add(req.body, userId), 'MCP 服务器已添加');
    } catch (err) {
      throw httpError(err);
    }
  });

  app.post('/:id/reconnect', {
    schema: { tags, summary: 'Connect to an MCP server again now (administrators)', params: idParams, response: { 200: okSchema(mcpServerView), ...errorResponses } },
  }, async (req) => {
    await requireAdmin(req);
    try {
      return ok(await runtime.mcp.reconnect(req.params.id));
    } catch (err) {
      throw httpError(err);
    }
  });

  app.put('/:id/auth', {
    schema: {
      tags,
      summary: 'Set or remove the authentication sent to an MCP server added in the browser, then connect again (administrators)',
      description: 'The secret is stored encrypted and never returned; the answer shows it masked. The server is kept whatever it answers: its state and reason say whether the new authentication works.',
      params: idParams,
      body: mcpAuthUpdate,
      response: { 200: okSchema(mcpServerView), ...errorResponses },
    },
  }, async (req) => {
    await requireAdmin(req);
    try {
      return ok(await runtime.mcp.setAuth(req.params.id, req.body.auth), req.body.auth ? 'MCP 服务器的认证已更新' : 'MCP 服务器的认证已取消');
    } catch (err) {
      throw httpError(err);
    }
  });

  app.delete('/:id', {
    schema: { tags, summary: 'Remove an MCP server added in the browser (administrators)', params: idParams, response: { 200: okSchema(z.null()), ...errorResponses } },
  }, async (req) => {
    await requireAdmin(req);
    try {
      await runtime.mcp.remove(req.params.id);
    } catch (err) {
      throw httpError(err);
    }
    return ok(null, 'MCP 服务器已删除');
  });
}
