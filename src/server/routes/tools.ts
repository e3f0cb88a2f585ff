import { z } from 'zod';
import { errorResponses, ok as okSchema } from '../../contract/envelope';
import { toolGroup } from '../../contract/channel';
import { toolRegistry } from '../answering/tools';
import { ok, type App } from './types';

/** GET /api/v1/tools: the tool groups of SPEC §9; tools not implemented yet are listed disabled. */
export default async function toolsRoutes(app: App) {
  const registry = toolRegistry();
  app.get('/', {
    schema: { tags: ['tools'], summary: 'Tool groups with their tools (SPEC §3 Tool entry)', response: { 200: okSchema(z.array(toolGroup)), ...errorResponses } },
  }, async () => ok(registry.groups()));
}
