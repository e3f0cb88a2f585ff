import { z } from 'zod';
import { ok as okSchema } from '../../contract/envelope';
import { ok, type App, type Services } from './types';

const outboxItem = z.object({
  id: z.number(),
  channel: z.string(),
  recipient: z.string(),
  subject: z.string(),
  body: z.string(),
  kind: z.string(),
  created_at: z.string(),
});

/** Only registered when CSAI_DEV_OUTBOX=1: the mails and codes the notifier would have sent. */
export default async function devRoutes(app: App, { db }: Services) {
  app.get('/outbox', {
    schema: {
      tags: ['dev'],
      summary: 'Messages in the outbox, newest first (CSAI_DEV_OUTBOX=1 only)',
      querystring: z.object({ recipient: z.string().trim().max(254).optional() }),
      response: { 200: okSchema(z.array(outboxItem)) },
    },
  }, async (req) => {
    let q = db.selectFrom('outbox').select(['id', 'channel', 'recipient', 'subject', 'body', 'kind', 'created_at']).orderBy('id', 'desc').limit(100);
    if (req.query.recipient) q = q.where('recipient', '=', req.query.recipient.toLowerCase());
    return ok(await q.execute());
  });
}
