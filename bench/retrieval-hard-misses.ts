// Every miss of the hard retrieval set explained: the question, its query tokens, where BM25 and
// the second stage put the answering page's best passage (within the first 100), that passage's
// text and which of the question's tokens it lacks, and what ranked first instead.
// Run after bench/retrieval-hard-halves.ts has kept its index: npx tsx bench/retrieval-hard-misses.ts /tmp/hard/db
import { openDatabase } from '../src/server/db/database';
import { hybridSearch, RERANK_DEPTH } from '../src/server/retrieval/fusion';
import { search, type Passage } from '../src/server/retrieval/search';
import { queryTerms } from '../src/server/text/segment';
import { root } from './lib';
import { loadHardSet } from './retrieval-eval';

const set = loadHardSet(root);
const db = await openDatabase(process.argv[2] ?? '/tmp/hard/db');
const ids = Object.keys(set.docs);
const short = (t: string, n = 160) => t.replace(/\s+/g, ' ').slice(0, n);
for (const q of set.questions) {
  if (q.page === null) continue;
  const right = (p: Passage) => p.docId === q.doc && (p.page ?? 1) === q.page && (!q.contains || p.text.includes(q.contains));
  const reranked = (await hybridSearch(db, ids, q.question, RERANK_DEPTH)).slice(0, 5);
  if (reranked.some(right)) continue;
  const all = await hybridSearch(db, ids, q.question, 100);
  const deep = await search(db, ids, q.question, 100, { expand: true });
  const bm25Rank = deep.findIndex(right);
  const terms = queryTerms(q.question).map((t) => t.slice(1, -1));
  console.log(`\n### [${q.doc} p.${q.page}] ${q.question}`);
  console.log(`tokens: ${terms.join(' ')}`);
  console.log(`BM25 rank of the answering page: ${bm25Rank >= 0 ? bm25Rank + 1 : '>100'}; over 100 candidates after the second stage: ${all.findIndex(right) + 1 || `not among its ${all.length}`}`);
  const pages = await db.selectFrom('kb_chunks').select(['text', 'segmented', 'ordinal']).where('doc_id', '=', q.doc!).where('page', '=', q.page).orderBy('ordinal').execute();
  for (const p of pages) {
    if (q.contains && !p.text.includes(q.contains)) continue;
    const words = new Set(p.segmented.split(' '));
    console.log(`  page passage #${p.ordinal} lacks [${terms.filter((t) => !words.has(t)).join(' ')}]: ${short(p.text, 300)}`);
  }
  for (const p of reranked.slice(0, 3)) {
    const words = new Set((deep.find((d) => d.text === p.text)?.segmented ?? '').split(' '));
    console.log(`  ranked ${p.docId}:${p.page} has [${terms.filter((t) => words.has(t)).join(' ')}]: ${short(p.text)}`);
  }
}
await db.destroy();
