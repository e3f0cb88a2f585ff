import type { Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { QuestionTable } from '../db/schema';

/** Earlier turns of the channel given to the model (the answer and deep research alike). */
const HISTORY_TURNS = 4;

/** Earlier answered turns of the question's channel, oldest first. */
export async function channelHistory(db: Db, q: Pick<Selectable<QuestionTable>, 'id' | 'channel_id' | 'created_at'>) {
  const rows = await db
    .selectFrom('questions')
    .select(['question', 'answer'])
    .where('channel_id', '=', q.channel_id)
    .where('id', '!=', q.id)
    .where('created_at', '<=', q.created_at)
    .where('status', 'in', ['done', 'stopped'])
    .where('answer', 'is not', null)
    .orderBy('created_at', 'desc')
    .limit(HISTORY_TURNS)
    .execute();
  return rows.reverse().map((h) => ({ question: h.question, answer: h.answer ?? '' }));
}
