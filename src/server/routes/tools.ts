import { z } from 'zod';
import { errorResponses, ok as okSchema } from '../../contract/envelope';
import { toolGroup } from '../../contract/channel';
import { usersRepo } from '../auth/accounts';
import { requestLanguage } from '../i18n';
import { ok, type App, type Services } from './types';

/**
 * GET /api/v1/tools: the SPEC §9 groups from the one registry, in the asker's language. A tool not
 * usable here says why and how to enable it to an administrator; anyone else reads that it is off
 * and to ask their administrator (install hints and variable names are not for every user).
 */
export default async function toolsRoutes(app: App, { db, runtime }: Services) {
  app.get('/', {
    schema: { tags: ['tools'], summary: 'Tool groups with their tools (SPEC §3 Tool entry)', response: { 200: okSchema(z.array(toolGroup)), ...errorResponses } },
  }, async (req) => {
    // SPEC §6: a directory user sees the tools LDAP_DISABLED_TOOLS names as ldap_disabled.
    const auth = await req.auth();
    const admin = auth.kind === 'user' && Boolean((await usersRepo(db).byId(auth.userId))?.is_admin);
    const view = { admin, lang: await requestLanguage(req, db) };
    return ok(runtime.tools.groups(auth.kind === 'user' ? await runtime.tools.audience(auth.userId) : undefined, view));
  });
}
