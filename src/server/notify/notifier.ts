import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../db/database';
import { now } from '../db/database';

/** A message to one recipient, by e-mail or SMS. */
export interface Message {
  channel: 'email' | 'sms';
  recipient: string;
  subject: string;
  body: string;
  /** What the message is for: 'activate' | 'reset' | 'otp'. */
  kind: string;
}

/**
 * Sends mail and SMS. Messages are first written to the outbox inside the caller's
 * transaction (so an account is never created without its activation mail), then delivered
 * after commit: by SMTP when configured, otherwise logged for the operator.
 */
export interface Notifier {
  /** Records the message in the outbox as part of the caller's transaction. */
  enqueue(trx: Executor, message: Message): Promise<number>;
  /** Delivers what is pending; call after the transaction commits. */
  flush(): Promise<void>;
}

export function createNotifier(db: Db, log: FastifyBaseLogger, smtp?: { url: string; from: string }): Notifier {
  const transport = smtp ? nodemailer.createTransport(smtp.url) : undefined;
  let flushing: Promise<void> = Promise.resolve();

  async function deliverPending() {
    const pending = await db.selectFrom('outbox').selectAll().where('status', '=', 'pending').orderBy('id').execute();
    for (const m of pending) {
      let status: 'sent' | 'logged' | 'failed' = 'logged';
      if (transport && smtp && m.channel === 'email') {
        try {
          await transport.sendMail({ from: smtp.from, to: m.recipient, subject: m.subject, text: m.body });
          status = 'sent';
        } catch (err) {
          log.error({ err, outbox: m.id }, 'mail delivery failed');
          status = 'failed';
        }
      } else {
        // No SMTP (or an SMS with no gateway): the operator reads it from the log.
        log.info({ outbox: m.id, channel: m.channel, to: m.recipient, kind: m.kind }, `outbox: ${m.subject}\n${m.body}`);
      }
      await db.updateTable('outbox').set({ status }).where('id', '=', m.id).execute();
    }
  }

  return {
    async enqueue(trx, message) {
      const row = await trx
        .insertInto('outbox')
        .values({ ...message, status: 'pending', created_at: now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    flush() {
      flushing = flushing.then(deliverPending, deliverPending);
      return flushing;
    },
  };
}
