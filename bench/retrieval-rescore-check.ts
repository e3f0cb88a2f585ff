// Does scoring the second stage's candidates again with search.ts's k1 (SearchOptions.rescore) hold
// when the index holds more than the asked documents (FTS5's statistics are the whole index's, the
// re-scoring's the asked documents')? Both ways side by side, in one run: the hard set's halves
// with the easy set's documents and zhlipsum added to the index, and the easy set
// (bench/data/retrieval-set.json, each question in its own document) through the second stage.
// Run: npx tsx bench/retrieval-rescore-check.ts <copy of the index bench/retrieval-hard-halves.ts keeps>
// (the copy gets the extra documents the first time).
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { usersRepo } from '../src/server/auth/accounts';
import { now, openDatabase } from '../src/server/db/database';
import { storeParseResult } from '../src/server/parsing/index-store';
import { looksLikeNavigation } from '../src/server/parsing/navigation';
import { parsePdf } from '../src/server/parsing/pdf';
import { RERANK_DEPTH } from '../src/server/retrieval/fusion';
import { nothingRelevant, quotable, rerank } from '../src/server/retrieval/rerank';
import { search } from '../src/server/retrieval/search';
import { root } from './lib';
import { evaluate, loadHardSet, type HardSet } from './retrieval-eval';

const dir = process.argv[2];
if (!dir) throw new Error('usage: retrieval-rescore-check.ts <index dir>');
const db = await openDatabase(dir);
const easy = z
  .object({ docs: z.record(z.string(), z.object({ file: z.string() })), questions: z.array(z.object({ doc: z.string(), question: z.string(), page: z.number() })) })
  .parse(JSON.parse(fs.readFileSync(path.join(root, 'bench/data/retrieval-set.json'), 'utf8')));
const extra = { ...Object.fromEntries(Object.entries(easy.docs).map(([k, d]) => [`easy-${k}`, d.file])), 'extra-zhlipsum': 'zhlipsum.pdf' };
if (!fs.existsSync(path.join(dir, 'extra'))) {
  const owner = await usersRepo(db).create({ email: 'extra@example.com', phone: null, name: '其他', password_hash: 'x', department_id: null, status: 'active' });
  for (const [id, file] of Object.entries(extra)) {
    await db
      .insertInto('kb_documents')
      .values({ id, owner_id: owner.id, folder_id: null, title: file, type: 1, mime: 'application/pdf', size: 0, sha256: id, storage_name: id, parse_status: 1, parse_progress: 0, progress_texts: '[]', page_count: null, markdown: null, created_at: now(), updated_at: now() })
      .execute();
    await storeParseResult(db, id, await parsePdf(path.join(root, '.tmp/test-docs', file), () => {}));
  }
  fs.writeFileSync(path.join(dir, 'extra'), '');
}

const set = loadHardSet(root);
const half = (parity: number): HardSet => ({ ...set, questions: set.questions.filter((_, i) => i % 2 === parity) });
const f3 = (x: number) => x.toFixed(3);
console.log('hard set, index with the extra documents | tune R5 MRR abst nav | held R5 MRR abst nav');
for (const rescore of [false, true]) {
  const run = (s: HardSet) =>
    evaluate(s, async (q, ids) => rerank(q, await search(db, ids, q, RERANK_DEPTH, { expand: true, rescore })), (_q, ps) => nothingRelevant(ps), (ps) => quotable(ps), looksLikeNavigation);
  const [t, h] = [await run(half(0)), await run(half(1))];
  console.log(`rescore ${String(rescore).padEnd(5)} | ${f3(t.recall5)} ${f3(t.mrr)} ${f3(t.abstainRight)} ${t.navigationInTop5} | ${f3(h.recall5)} ${f3(h.mrr)} ${f3(h.abstainRight)} ${h.navigationInTop5}`);
}
console.log('easy set, BM25 + second stage, each question in its own document | R5 MRR');
for (const rescore of [false, true]) {
  let found = 0;
  let rr = 0;
  for (const q of easy.questions) {
    const ranked = rerank(q.question, await search(db, [`easy-${q.doc}`], q.question, RERANK_DEPTH, { expand: true, rescore })).slice(0, 5);
    const rank = ranked.findIndex((p) => p.page === q.page);
    if (rank >= 0) {
      found++;
      rr += 1 / (rank + 1);
    }
  }
  console.log(`rescore ${String(rescore).padEnd(5)} | ${f3(found / easy.questions.length)} ${f3(rr / easy.questions.length)}`);
}
await db.destroy();
