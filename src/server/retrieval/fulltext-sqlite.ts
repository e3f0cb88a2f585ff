import { sql } from 'kysely';
import type { Executor } from '../db/database';
import type { FullText, Span } from './fulltext-types';

// FTS5 narrows a MATCH by rowid only when the bound is an SQL integer: better-sqlite3 binds a JS
// number as a REAL, which makes FTS5 read the whole doclists (≈ 30× slower), so bounds go as BigInt.
const inSpan = (s: Span) => sql`kb_chunks_fts.rowid between ${BigInt(s.lo)} and ${BigInt(s.hi)}`;

/** SQLite's variable-length integer (the FTS5 averages record is made of them). */
function varint(buf: Uint8Array, pos: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const c = buf[pos + i] ?? 0;
    v = v * 128 + (c & 0x7f);
    if (!(c & 0x80)) return [v, pos + i + 1];
  }
  return [v * 256 + (buf[pos + 8] ?? 0), pos + 9];
}

/** Full-text search with FTS5 (kb_chunks_fts over kb_chunks.segmented, unicode61) and its bm25(). */
export function sqliteFullText(db: Executor): FullText {
  return {
    async documentEnds(docIds) {
      const rows = await sql<{ lo: number | null; hi: number | null }>`
        select (select id from kb_chunks where doc_id = d.value order by ordinal limit 1) as lo,
               (select id from kb_chunks where doc_id = d.value order by ordinal desc limit 1) as hi
        from json_each(${JSON.stringify([...new Set(docIds)])}) d`.execute(db);
      return rows.rows;
    },

    countPart(t, i, term, s, docIds, cap) {
      const ids = s.pure
        ? sql`select kb_chunks_fts.rowid as id from kb_chunks_fts where kb_chunks_fts match ${term} and ${inSpan(s)}`
        : sql`select kb_chunks_fts.rowid as id from kb_chunks_fts join kb_chunks c on c.id = kb_chunks_fts.rowid
            where kb_chunks_fts match ${term} and ${inSpan(s)} and c.doc_id in (${sql.join(docIds)})`;
      return sql`select ${sql.lit(t)} as t, ${sql.lit(i)} as s, count(*) as n, max(id) as last from (${ids} limit ${sql.lit(cap)})`;
    },

    /** From FTS5's averages record (row 1 of its data table). */
    async averageLength() {
      const row = (await sql<{ block: Uint8Array | null }>`select block from kb_chunks_fts_data where id = 1`.execute(db)).rows[0];
      if (!row?.block) return 1;
      const [rows, pos] = varint(row.block, 0);
      const [tokenCount] = varint(row.block, pos);
      return rows > 0 && tokenCount > 0 ? tokenCount / rows : 1;
    },

    async rank(terms, s, docIds, limit) {
      // bm25() rather than the rank column: FTS5's rank-sorted plan reads past the rowid range. A
      // range with other documents inside is filtered through kb_chunks (a row read per candidate).
      const rows = await sql<{ id: number; rank: number }>`
        select kb_chunks_fts.rowid as id, bm25(kb_chunks_fts) as rank
        from kb_chunks_fts ${s.pure ? sql`` : sql`join kb_chunks c on c.id = kb_chunks_fts.rowid`}
        where kb_chunks_fts match ${terms.join(' OR ')} and ${inSpan(s)} ${s.pure ? sql`` : sql`and c.doc_id in (${sql.join(docIds)})`}
        order by rank, kb_chunks_fts.rowid limit ${sql.lit(limit)}`.execute(db);
      return rows.rows.map((r) => ({ id: r.id, score: -r.rank }));
    },

    async nth(term, s, offset) {
      const edge = await sql<{ id: number }>`
        select rowid as id from kb_chunks_fts where kb_chunks_fts match ${term} and ${inSpan(s)}
        order by rowid limit 1 offset ${sql.lit(offset)}`.execute(db);
      return edge.rows[0]?.id;
    },
  };
}
