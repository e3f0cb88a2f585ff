import { z } from 'zod';
import { errorResponses, ok as okSchema } from '../../contract/envelope';
import { toolGroup } from '../../contract/channel';
import { ok, type App, type Services } from './types';

/** GET /api/v1/tools: the SPEC §9 groups from the one registry; a tool not usable here says why and how to enable it. */
export default async function toolsRoutes(app: App, { runtime }: Services) {
  app.get('/', {
    schema: { tags: ['tools'], summary: 'Tool groups with their tools (SPEC §3 Tool entry)', response: { 200: okSchema(z.array(toolGroup)), ...errorResponses } },
  }, async (req) => {
    // SPEC §6: a directory user sees the tools LDAP_DISABLED_TOOLS names as ldap_disabled.
    const auth = await req.auth();
    return ok(runtime.tools.groups(auth.kind === 'user' ? await runtime.tools.audience(auth.userId) : undefined));
  });
}
