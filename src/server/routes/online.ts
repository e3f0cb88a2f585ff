import { errorResponses, ok as okSchema } from '../../contract/envelope';
import { onlineStatus, type OnlineStatus } from '../../contract/online';
import { SOURCE_SETUP } from '../online/sources';
import { ok, type App, type Services } from './types';

/**
 * GET /api/v1/online/status: which online sources (web, literature, patents) this server has, and
 * for each missing one what to configure, so the question box's 联网搜索 toggle and search-type
 * menu can say before sending what a question would not search.
 */
export default async function onlineRoutes(app: App, { runtime }: Services) {
  app.get('/status', {
    schema: { tags: ['tools'], summary: 'Configured online sources (issue 15)', response: { 200: okSchema(onlineStatus), ...errorResponses } },
  }, async () => {
    const { online } = runtime;
    const status: OnlineStatus = {
      web: !!online.web,
      literature: !!online.literature,
      patents: !!online.patents,
      missing: {
        ...(online.web ? {} : { web: SOURCE_SETUP.web }),
        ...(online.literature ? {} : { literature: SOURCE_SETUP.literature }),
        ...(online.patents ? {} : { patents: SOURCE_SETUP.patents }),
      },
    };
    return ok(status);
  });
}
