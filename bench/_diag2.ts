import { openDatabase } from '../src/server/db/database';
import { rerank } from '../src/server/retrieval/rerank';
import { search } from '../src/server/retrieval/search';
import { queryTerms, tokens } from '../src/server/text/segment';
import { loadHardSet } from './retrieval-eval';
const set = loadHardSet('/work/wt/answers');
const db = await openDatabase('/tmp/hard/db');
const ids = Object.keys(set.docs);
for (const [i, q] of set.questions.entries()) {
  const c = await search(db, ids, q.question, 40);
  const all = new Set(c.flatMap((p) => (p.segmented ?? '').split(' ')));
  const r = rerank(q.question, c);
  const terms = queryTerms(q.question).map((t) => t.slice(1, -1));
  const missingLatin = terms.filter((t) => /^[a-z][a-z0-9_\-.]{2,}$/i.test(t) && !all.has(t));
  const missingHan = tokens(q.question, { bigrams: false }).filter((t) => /\p{Script=Han}{2,}/u.test(t) && !all.has(t));
  console.log(i % 2 ? 'H' : 'T', q.page === null ? 'UNANS' : 'ans  ', (r[0]?.coverage ?? 0).toFixed(2), 'L:', missingLatin.join(','), 'Z:', missingHan.join(','), '|', q.question.slice(0, 40));
}
await db.destroy();
