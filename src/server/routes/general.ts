import { alert, alertBody, ping } from '../../contract/general';
import { errorResponses, ok as okSchema } from '../../contract/envelope';
import { now } from '../db/database';
import { forbidden } from '../errors';
import { usersRepo } from '../auth/accounts';
import { ok, type App, type Services } from './types';

/** The ping and the server banner. */
export default async function generalRoutes(app: App, { config, db, version, runtime }: Services) {
  app.get('/', {
    schema: { tags: ['general'], summary: 'Ping', response: { 200: okSchema(ping) } },
  }, async () => ok({ name: 'csai' as const, version, time: new Date().toISOString(), model: runtime.answering.hasModel }));

  app.get('/prompt/get_alert', {
    schema: { tags: ['general'], summary: 'The banner notice (SPEC §3 Alert)', response: { 200: okSchema(alert) } },
  }, async () => {
    // An administrator's banner wins over the configured one.
    const row = await db.selectFrom('alerts').selectAll().orderBy('id', 'desc').executeTakeFirst();
    if (row) return ok({ is_show: row.is_show === 1, content: row.content, content_type: row.content_type });
    const content = config.CSAI_ALERT_CONTENT ?? '';
    return ok({ is_show: content !== '', content, content_type: config.CSAI_ALERT_TYPE });
  });

  app.put('/prompt/alert', {
    schema: { tags: ['general'], summary: 'Set the banner (administrators)', body: alertBody, response: { 200: okSchema(alert), ...errorResponses } },
  }, async (req) => {
    const { userId } = await req.requireUser();
    const user = await usersRepo(db).byId(userId);
    if (!user?.is_admin) throw forbidden('只有管理员可以修改公告');
    const { is_show, content, content_type } = req.body;
    await db.insertInto('alerts').values({ is_show: is_show ? 1 : 0, content, content_type, updated_at: now(), updated_by: userId }).execute();
    return ok({ is_show, content, content_type }, '公告已更新');
  });

}
