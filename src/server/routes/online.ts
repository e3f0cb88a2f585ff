import { errorResponses, ok as okSchema } from '../../contract/envelope';
import { onlineStatus, type OnlineStatus } from '../../contract/online';
import { usersRepo } from '../auth/accounts';
import { missingSetup } from '../online/sources';
import { ok, type App, type Services } from './types';

/**
 * GET /api/v1/online/status: which online sources (web, literature, patents) this server has, and
 * for administrators what to configure for each missing one, so the question box's 联网搜索 toggle and search-type
 * menu can say before sending what a question would not search.
 */
export default async function onlineRoutes(app: App, { db, runtime }: Services) {
  app.get('/status', {
    schema: { tags: ['tools'], summary: 'Configured online sources', response: { 200: okSchema(onlineStatus), ...errorResponses } },
  }, async (req) => {
    const { online } = runtime;
    // Environment variable names are for administrators; an asker only learns what is missing.
    const auth = await req.auth();
    const admin = auth.kind === 'user' && Boolean((await usersRepo(db).byId(auth.userId))?.is_admin);
    const status: OnlineStatus = {
      web: !!online.web,
      literature: !!online.literature,
      patents: !!online.patents,
      missing: admin ? missingSetup(online) : {},
    };
    return ok(status);
  });
}
