import { codeExecutionResult, type CodeExecutionResult, type CodeRunRecord } from '../../contract/code';
import type { Db } from '../db/database';
import { now } from '../db/database';
import { removeArtifacts } from './artifacts';

/**
 * The last 运行 of each Python block of an answer (migration 0021_code_runs), kept with the
 * question: shown under the block when the channel is opened again, gone with the question.
 * Access is the caller's business (the route checks the question first).
 */
export function codeRunStore(db: Db, dataDir: string) {
  return {
    /**
     * Keeps `result` as the block's last run. The run it replaces is forgotten with its files.
     * Returns false when the question is gone (deleted while the code ran): nothing is kept then.
     */
    async keep(run: { questionId: string; block: number; userId: string; code: string; result: CodeExecutionResult }): Promise<boolean> {
      const replaced = await db.transaction().execute(async (tx) => {
        const question = await tx.selectFrom('questions').select('id').where('id', '=', run.questionId).executeTakeFirst();
        if (!question) return undefined;
        const old = await tx.selectFrom('code_runs').select('result').where('question_id', '=', run.questionId).where('block', '=', run.block).executeTakeFirst();
        const row = { question_id: run.questionId, block: run.block, user_id: run.userId, code: run.code, result: JSON.stringify(run.result), created_at: now() };
        await tx
          .insertInto('code_runs')
          .values(row)
          .onConflict((oc) => oc.columns(['question_id', 'block']).doUpdateSet({ user_id: row.user_id, code: row.code, result: row.result, created_at: row.created_at }))
          .execute();
        if (!old) return [];
        const parsed = codeExecutionResult.safeParse(JSON.parse(old.result));
        const kept = new Set(run.result.artifacts.map((a) => a.id));
        return parsed.success ? parsed.data.artifacts.map((a) => a.id).filter((id) => !kept.has(id)) : [];
      });
      if (!replaced) return false;
      await removeArtifacts(db, dataDir, replaced);
      return true;
    },
  };
}

/** The kept runs of these questions, by question, blocks in order (for GET /channel/questions). */
export async function codeRunsOf(db: Db, questionIds: readonly string[]): Promise<Map<string, CodeRunRecord[]>> {
  const out = new Map<string, CodeRunRecord[]>();
  if (!questionIds.length) return out;
  const rows = await db.selectFrom('code_runs').selectAll().where('question_id', 'in', [...questionIds]).orderBy('question_id').orderBy('block').execute();
  for (const r of rows) {
    const result = codeExecutionResult.safeParse(JSON.parse(r.result));
    if (!result.success) continue;
    const list = out.get(r.question_id) ?? [];
    list.push({ block: r.block, code: r.code, result: result.data, created_at: r.created_at });
    out.set(r.question_id, list);
  }
  return out;
}

export type CodeRunStore = ReturnType<typeof codeRunStore>;
