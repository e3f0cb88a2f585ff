import { z } from 'zod';
import { ok as okSchema } from '../../contract/envelope';
import { notFound } from '../errors';
import { ok, type App, type Services } from './types';

/** Headers a reverse proxy adds: their presence means the socket's address is the proxy's. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-forwarded-host', 'x-forwarded-proto', 'via'];
const isLoopback = (address: string | undefined) => !!address && /^(127\.|::1$|::ffff:127\.)/.test(address);

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
  app.log.warn('CSAI_DEV_OUTBOX is on: activation links, reset links and codes are readable at /api/v1/dev/outbox from this machine');
  app.get('/outbox', {
    schema: {
      tags: ['dev'],
      summary: 'Messages in the outbox, newest first (CSAI_DEV_OUTBOX=1 only)',
      querystring: z.object({ recipient: z.string().trim().max(254).optional() }),
      response: { 200: okSchema(z.array(outboxItem)) },
    },
  }, async (req) => {
    // The outbox holds live sign-in secrets: only the machine itself may read it, whatever
    // X-Forwarded-For says (the socket address, not req.ip).
    // A request that came through a proxy (any forwarding header) is not the machine's own, even from loopback.
    if (!isLoopback(req.socket.remoteAddress) || FORWARDING_HEADERS.some((h) => h in req.headers)) throw notFound('接口不存在');
    let q = db.selectFrom('outbox').select(['id', 'channel', 'recipient', 'subject', 'body', 'kind', 'created_at']).orderBy('id', 'desc').limit(100);
    if (req.query.recipient) q = q.where('recipient', '=', req.query.recipient.toLowerCase());
    return ok(await q.execute());
  });
}
