import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../db/database';
import { indexWords } from '../db/fulltext-words';
import type { FullText, Hit, Span } from './fulltext-types';

// FTS5's bm25() constants (search.ts uses the same).
const K1 = 1.2;
const B = 0.75;

/** The word of a queryTerms() term (`"word"`, quotes doubled inside). */
const wordOf = (term: string) => term.slice(1, -1).replace(/""/g, '"');
/** The index words a term's word is made of: one, or several for a phrase ("1.5" → 1 5). */
const partsOf = (term: string) => indexWords(wordOf(term));

/** A term as a tsquery of the 'simple' configuration: its word, or its words one after another (a phrase). */
const tsquery = (term: string) => sql`phraseto_tsquery('simple', ${partsOf(term).join(' ')})`;
const anyOf = (terms: string[]) => (terms.length ? sql.join(terms.map(tsquery), sql` || `) : sql`''::tsquery`);

const inSpan = (s: Span, docIds: string[]) =>
  s.pure ? sql`c.id between ${s.lo} and ${s.hi}` : sql`c.id between ${s.lo} and ${s.hi} and c.doc_id in (${sql.join(docIds)})`;

/** How often the phrase (its words at consecutive positions) occurs, given each word's positions. */
function phraseCount(parts: string[], positions: Map<string, number[]>): number {
  const first = positions.get(parts[0]!) ?? [];
  if (parts.length === 1) return first.length;
  const rest = parts.slice(1).map((p) => new Set(positions.get(p) ?? []));
  return first.filter((p) => rest.every((set, k) => set.has(p + k + 1))).length;
}

/**
 * Full-text search on PostgreSQL: kb_chunks.fts is to_tsvector('simple') of the segmented text
 * with FTS5's word separators (migration 0002), indexed with GIN; kb_chunks.fts_len its length in
 * words. Ranking is FTS5's bm25() computed here from the same statistics (rows and words of the
 * whole index, passages holding each term), so both engines rank alike.
 */
export function postgresFullText(db: Executor): FullText {
  return {
    async documentEnds(docIds) {
      const rows = await sql<{ lo: number | null; hi: number | null }>`
        select (select id from kb_chunks where doc_id = d.value order by ordinal limit 1) as lo,
               (select id from kb_chunks where doc_id = d.value order by ordinal desc limit 1) as hi
        from unnest(${[...new Set(docIds)]}::text[]) as d(value)`.execute(db);
      return rows.rows;
    },

    countPart(t, i, term, s, docIds, cap): RawBuilder<unknown> {
      return sql`select ${sql.lit(t)} as t, ${sql.lit(i)} as s, count(*) as n, max(id) as last from (
        select c.id from kb_chunks c where c.fts @@ ${tsquery(term)} and ${inSpan(s, docIds)} order by c.id limit ${sql.lit(cap)}) as x`;
    },

    async averageLength() {
      const row = (await sql<{ n: number; words: number | null }>`select count(*) as n, sum(fts_len) as words from kb_chunks`.execute(db)).rows[0];
      return row && row.n > 0 && row.words ? row.words / row.n : 1;
    },

    async rank(terms, s, docIds, limit) {
      const live = terms.filter((t) => partsOf(t).length > 0);
      if (!live.length) return [];
      const parts = live.map(partsOf);
      const words = [...new Set(parts.flat())];
      const stats = (
        await sql<{ n: number; words: number | null; hits: number[] }>`select
          (select count(*) from kb_chunks) as n, (select sum(fts_len) from kb_chunks) as words,
          array[${sql.join(live.map((t) => sql`(select count(*) from kb_chunks where fts @@ ${tsquery(t)})`))}]::bigint[] as hits`.execute(db)
      ).rows[0]!;
      const rows = await sql<{ id: number; len: number; found: Array<[string, number[]]> }>`
        select c.id, c.fts_len as len,
          (select coalesce(json_agg(json_build_array(u.lexeme, u.positions)), '[]'::json) from unnest(c.fts) u where u.lexeme = any(${words}::text[])) as found
        from kb_chunks c where c.fts @@ (${anyOf(live)}) and ${inSpan(s, docIds)}`.execute(db);
      // FTS5's bm25(): idf of each phrase over the whole index (at least 1e-6), the passage's length against the average.
      const n = Number(stats.n);
      const avgdl = n > 0 && stats.words ? Number(stats.words) / n : 1;
      const idf = stats.hits.map((h) => {
        const v = Math.log((n - Number(h) + 0.5) / (Number(h) + 0.5));
        return v <= 0 ? 1e-6 : v;
      });
      const hits: Hit[] = rows.rows.map((r) => {
        const positions = new Map(r.found.map(([w, p]) => [w, p]));
        let score = 0;
        parts.forEach((p, i) => {
          const f = phraseCount(p, positions);
          score += (idf[i]! * (f * (K1 + 1))) / (f + K1 * (1 - B + (B * r.len) / avgdl));
        });
        return { id: r.id, score };
      });
      return hits.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, limit);
    },

    async nth(term, s, offset) {
      const edge = await sql<{ id: number }>`
        select c.id from kb_chunks c where c.fts @@ ${tsquery(term)} and c.id between ${s.lo} and ${s.hi}
        order by c.id limit 1 offset ${sql.lit(offset)}`.execute(db);
      return edge.rows[0]?.id;
    },
  };
}
