/**
 * How the PostgreSQL full-text index reads the segmented text so that it finds the
 * words SQLite's FTS5 finds with `unicode61 remove_diacritics 2`: the characters FTS5 separates
 * words at inside a segmented word (_ . ' ’) become spaces, and Latin letters with diacritics
 * become their base letter (ì → i). Used by migration 0002 (the generated tsvector column, through
 * PostgreSQL's translate()) and by retrieval/fulltext-postgres.ts for the question's words.
 * Changing it changes what an existing index holds: only ever together with a migration that
 * rebuilds the column.
 */
const SEPARATORS = "_.'’";

function diacriticTable(): [string, string] {
  let from = '';
  let to = '';
  const ranges: Array<[number, number]> = [
    [0x00c0, 0x024f],
    [0x1e00, 0x1eff],
  ];
  for (const [lo, hi] of ranges) {
    for (let cp = lo; cp <= hi; cp++) {
      const ch = String.fromCodePoint(cp);
      const d = ch.normalize('NFD');
      if (d.length > 1 && /^[A-Za-z]$/.test(d[0]!) && /^\p{M}+$/u.test(d.slice(1))) {
        from += ch;
        to += d[0]!.toLowerCase();
      }
    }
  }
  return [from, to];
}

const [LETTERS, BASES] = diacriticTable();

/** translate()'s two arguments: every character of FROM becomes the one at its place in TO. */
export const FOLD_FROM = SEPARATORS + LETTERS;
export const FOLD_TO = ' '.repeat(SEPARATORS.length) + BASES;

const fold = new Map([...FOLD_FROM].map((c, i) => [c, [...FOLD_TO][i]!]));

/** The index words of a segmented word (or text), as the tsvector column holds them. */
export const indexWords = (text: string): string[] =>
  [...text]
    .map((c) => fold.get(c) ?? c)
    .join('')
    .split(/\s+/)
    .filter((w) => w !== '');
