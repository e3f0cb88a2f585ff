import { z } from 'zod';
import { engineOf, jsonTrue } from '../db/dialect';
import { now, type Db } from '../db/database';
import type { RetrievedPassage } from '../retrieval/knowledge-port';

export type Completed = 'none' | 'plan' | 'search' | 'read' | 'write';

const passageSchema = z.object({
  docId: z.string(),
  title: z.string(),
  page: z.number().int().nullable(),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
  text: z.string(),
  score: z.number(),
});
/**
 * The plan as saved: its sub-questions (follow-ups appended), the follow-up rounds done, and when
 * the run started (ms since the epoch; the budget counts from it across restarts).
 */
const planColumn = z.object({
  questions: z.array(z.string()).min(1),
  note: z.string().nullable(),
  rounds: z.number().int().min(0).default(0),
  startedAt: z.number().optional(),
});
export type ResearchPlan = z.infer<typeof planColumn>;
const onlineHitStored = z.object({ url: z.string(), title: z.string(), site: z.string(), snippet: z.string(), kind: z.enum(['web', 'literature', 'patent']) });
/** The online search of one sub-question as saved: its hits, the sources that failed, when, and the pages read. */
const onlineFinding = z.object({
  hits: z.array(onlineHitStored),
  failures: z.array(z.string()),
  fetchedAt: z.string(),
  /** Pages read in full, by URL: their title and the start of their text (markdown). */
  pages: z.record(z.string(), z.object({ title: z.string(), text: z.string() })),
  /** Pages that could not be read, by URL, with why. */
  unread: z.record(z.string(), z.string()).default({}),
});
export type OnlineFinding = z.infer<typeof onlineFinding>;
/** One sub-question's finding: the passages (the old form: the passages alone) and its online search. */
const findingSchema = z.union([
  z.array(passageSchema).transform((passages) => ({ passages, online: null })),
  z.object({ passages: z.array(passageSchema), online: onlineFinding.nullable() }),
]);
const findingsColumn = z.array(findingSchema);
export interface Finding {
  passages: RetrievedPassage[];
  online: OnlineFinding | null;
}

/** What a deep-research run has finished so far (the `research_runs` row). */
export interface ResearchState {
  completed: Completed;
  plan: ResearchPlan | null;
  /** What each searched sub-question found, in plan order (a saved search is never made again). */
  findings: Finding[];
  resumes: number;
}

/** A run's state in `research_runs`, saved after each step so that a restart continues after it. */
export function researchStore(db: Db) {
  return {
    async load(questionId: string): Promise<ResearchState | null> {
      const row = await db.selectFrom('research_runs').selectAll().where('question_id', '=', questionId).executeTakeFirst();
      if (!row) return null;
      return {
        completed: row.completed,
        plan: row.plan === null ? null : planColumn.parse(JSON.parse(row.plan)),
        findings: findingsColumn.parse(JSON.parse(row.findings)),
        resumes: row.resumes,
      };
    },

    async save(questionId: string, s: ResearchState) {
      const values = {
        completed: s.completed,
        plan: s.plan ? JSON.stringify(s.plan) : null,
        findings: JSON.stringify(s.findings),
        resumes: s.resumes,
        updated_at: now(),
      };
      await db
        .insertInto('research_runs')
        .values({ question_id: questionId, ...values })
        .onConflict((oc) => oc.column('question_id').doUpdateSet(values))
        .execute();
    },
  };
}

/** Restarts a deep-research run survives; one interrupted more often (it may be what brings the server down) fails as other answers do. */
export const MAX_RESUMES = 3;

/**
 * At start-up: deep-research answers left `running` by a crash or shutdown go back to `queued`, so
 * the queue starts them again and they resume from their saved state. Returns how many. The saved
 * state of research that has ended (done, stopped, failed) is dropped: it is never needed again.
 */
export async function requeueInterruptedResearch(db: Db, only?: readonly string[]): Promise<number> {
  if (only && !only.length) return 0;
  await db
    .deleteFrom('research_runs')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('questions').select('id').whereRef('questions.id', '=', 'research_runs.question_id').where('status', 'in', ['queued', 'running']))),
    )
    .execute();
  const res = await db
    .updateTable('questions')
    .set({ status: 'queued' })
    .where('status', '=', 'running')
    .$if(only !== undefined, (qb) => qb.where('id', 'in', only ?? []))
    .where(jsonTrue(engineOf(db), 'request', 'deepresearch'))
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('research_runs').select('question_id').whereRef('research_runs.question_id', '=', 'questions.id').where('resumes', '>=', MAX_RESUMES))),
    )
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}
