/**
 * Index tokens for Chinese and English chemistry text (DESIGN §5). Runs of Han characters are
 * split into words with Intl.Segmenter and, because the ICU dictionary breaks unknown names
 * such as drug names into single characters (布 | 洛 | 芬), also into overlapping character
 * bigrams (布洛 | 洛芬), so a search for 布洛芬 finds it. Chemistry tokens — CAS numbers,
 * SMILES strings, formulas — are kept whole. Everything is lower-cased; the result is a
 * space-separated string for an FTS5 column with the unicode61 tokenizer.
 */

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

const CAS = /\b\d{2,7}-\d{2}-\d\b/g;
// A SMILES-like run: atoms, bonds, rings, branches; needs a bracket, bond or ring digit and ≥ 4 chars.
// The first lookahead (four SMILES characters) adds no condition, the match needs them anyway; it
// only stops the second from scanning to the next space at every position of a Chinese text
// (quadratic in the length of a run without spaces: a quarter of a parse's segmenting time).
const SMILES = /(?<![\w@+\-[\]()=#$/\\%.])(?=[A-Za-z0-9@+\-[\]()=#$/\\%.]{4})(?=[^\s]*[()[\]=#@])[A-Za-z0-9@+\-[\]()=#$/\\%.]{4,}(?![\w@+\-[\]()=#$/\\%.])/g;
// A formula: two or more element symbols with counts, e.g. C9H8O4, C17H19NO3.
const FORMULA = /\b(?:[A-Z][a-z]?\d*){2,}\b/g;
const HAN = /\p{Script=Han}/u;
const WORD_OR_HAN = /(\p{Script=Han}+)|(?:(?!\p{Script=Han})[\p{L}\p{N}_])+(?:['’.](?:(?!\p{Script=Han})[\p{L}\p{N}_])+)*/gu;

/** A chemistry token as one index word: its characters outside [a-z0-9] become their code. */
export function chemToken(token: string): string {
  return 'x' + [...token.toLowerCase()].map((c) => (/[a-z0-9]/.test(c) ? c : `_${c.codePointAt(0)!.toString(36)}_`)).join('').replace(/_/g, 'q');
}

const isFormula = (t: string) => /\d/.test(t) && /[A-Z]/.test(t) && t.length >= 4;

/** Strips unmatched leading '(' / trailing ')' and trailing sentence dots from a candidate. */
function balanced(m: string): string {
  let s = m.replace(/\.+$/, '');
  const count = (c: string) => s.split(c).length - 1;
  while (s.endsWith(')') && count(')') > count('(')) s = s.slice(0, -1);
  while (s.startsWith('(') && count('(') > count(')')) s = s.slice(1);
  return s;
}

/** The chemistry tokens of a text and the text with them blanked out. */
function takeChemistry(text: string): { tokens: string[]; rest: string } {
  const tokens: string[] = [];
  let rest = text.replace(CAS, (m) => {
    tokens.push(chemToken(m));
    return ' ';
  });
  rest = rest.replace(SMILES, (raw) => {
    // Prose brackets around a formula or SMILES, e.g. "(C9H8O4)", are not part of it.
    const m = balanced(raw);
    if (!/[A-Za-z]/.test(m) || !/[()[\]=#@]/.test(m) || /^[\d.\-/]+$/.test(m) || /^https?:/.test(m)) return raw;
    tokens.push(chemToken(m));
    return raw.replace(m, ' ');
  });
  rest = rest.replace(FORMULA, (m) => {
    if (isFormula(m)) tokens.push(m.toLowerCase());
    return m;
  });
  return { tokens, rest };
}

/** Index tokens of a text, in order (words, then bigrams of each Han run, then chemistry). */
export function tokens(text: string, opts: { bigrams?: boolean } = {}): string[] {
  const { tokens: chem, rest } = takeChemistry(text.normalize('NFKC'));
  const out: string[] = [];
  // Intl.Segmenter is slow (≈0.5 MB/s), so it sees only the Han runs; other scripts split on a
  // regular expression that makes the same words (letters, digits, _, inner . and ').
  const matches = [...rest.matchAll(WORD_OR_HAN)];
  const runs = matches.flatMap((m) => (m[1] ? [m[1]] : []));
  const words = hanWords(runs);
  let run = 0;
  for (const m of matches) {
    if (m[1]) out.push(...words[run++]!);
    else out.push(m[0].toLowerCase());
  }
  if (opts.bigrams !== false) {
    for (const r of runs) {
      const chars = [...r];
      for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
    }
  }
  return [...out, ...chem];
}

/**
 * The words of each Han run, from one pass of the segmenter over all of them joined by spaces (a
 * word never spans a space, and ICU's dictionary splits each run of Han characters on its own, so
 * the words are the same as run by run; one call instead of one per run is ~1.5× faster).
 */
function hanWords(runs: string[]): string[][] {
  const words = runs.map((): string[] => []);
  if (!runs.length) return words;
  const ends: number[] = [];
  let end = -1;
  for (const r of runs) ends.push((end += r.length + 1));
  let run = 0;
  for (const s of segmenter.segment(runs.join(' '))) {
    if (!s.isWordLike) continue;
    while (s.index >= ends[run]!) run++;
    words[run]!.push(s.segment);
  }
  return words;
}

/** The segmented form stored in the index. */
export const segmentForIndex = (text: string) => tokens(text).join(' ');

/**
 * English function words, dropped from a question that has other tokens: in a mostly Chinese
 * index an English page holds "to" or "are" as rarely as a subject word, so BM25 would rank
 * it on them. Words that are also element symbols (as, in, at, be, he, no, i) stay.
 */
const ENGLISH_STOP = new Set(
  ('a an the and or but nor of to on by for with from into onto about over under than then '
    + 'is are was were been being do does did done have has had having will would shall should can could may might must '
    + 'what which who whom whose when where why how this that these those there here it its they them their we our you your me my '
    + 'not if so such any some all each very also just').split(' '),
);

/** At most this many distinct tokens of a question go to the index (a pasted page stays one query). */
export const MAX_QUERY_TERMS = 64;

/**
 * The distinct tokens of a question, each quoted as an FTS5 phrase, in the order they appear.
 * Single Han characters and English function words (ENGLISH_STOP) are dropped when the query
 * has other tokens (they match almost everything); at most MAX_QUERY_TERMS are kept.
 */
export function queryTerms(query: string): string[] {
  let list = [...new Set(tokens(query))];
  const long = list.filter((t) => !(HAN.test(t) && [...t].length === 1) && !ENGLISH_STOP.has(t));
  if (long.length) list = long;
  return list.slice(0, MAX_QUERY_TERMS).map((t) => `"${t.replace(/"/g, '""')}"`);
}

/**
 * The FTS5 MATCH expression of a question: its distinct tokens, each quoted, OR-ed, so BM25
 * ranks passages by how many and how rare the shared tokens are (queryTerms).
 */
export function matchQuery(query: string): string | null {
  const terms = queryTerms(query);
  return terms.length ? terms.join(' OR ') : null;
}
