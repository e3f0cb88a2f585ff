/**
 * Index tokens for Chinese and English chemistry text (DESIGN §5). Runs of Han characters are
 * split into words with Intl.Segmenter and, because the ICU dictionary breaks unknown names
 * such as drug names into single characters (布 | 洛 | 芬), also into overlapping character
 * bigrams (布洛 | 洛芬), so a search for 布洛芬 finds it. Chemistry tokens — CAS numbers,
 * SMILES strings, formulas — are kept whole. Everything is lower-cased; the result is a
 * space-separated string for an FTS5 column with the unicode61 tokenizer.
 */

import { stemmer } from 'stemmer';
import { dictionaryTermsIn } from './dictionary';
import { EXPAND_QUERIES, symbolCommands, synonymsIn } from './synonyms';

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
  return 'x' + [...token.toLowerCase()].map(chemChar).join('').replace(/_/g, 'q');
}
// Callbacks here are module-level functions, not closures made per call: V8 keeps their optimized
// code from one document to the next (see parsing/pdf-layout.ts).
const chemChar = (c: string) => (/[a-z0-9]/.test(c) ? c : `_${c.codePointAt(0)!.toString(36)}_`);

const isFormula = (t: string) => /\d/.test(t) && /[A-Z]/.test(t) && t.length >= 4;

/**
 * Strips trailing sentence dots, unmatched leading '(' / trailing ')', a '(' it ends with, a ')' it
 * starts with and a pair of brackets around the whole candidate: no SMILES starts or ends with a
 * branch, so "(CDK2)", "(C9H8O4)" and the "dvipdfmx(" of "dvipdfmx（原名…）" are prose brackets
 * beside a name or a formula.
 */
function balanced(m: string): string {
  let s = m.replace(/\.+$/, '').replace(/\(+$/, '').replace(/^\)+/, '');
  while (s.endsWith(')') && occurrences(s, ')') > occurrences(s, '(')) s = s.slice(0, -1);
  while (s.startsWith('(') && occurrences(s, '(') > occurrences(s, ')')) s = s.slice(1);
  while (s.startsWith('(') && closingOf(s) === s.length - 1) s = s.slice(1, -1);
  return s;
}
const occurrences = (s: string, c: string) => s.split(c).length - 1;
/** Where the '(' that opens s is closed (-1: never). */
function closingOf(s: string): number {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Outside bracket atoms a SMILES writes only the organic subset's elements (aromatic in lower case). */
const ORGANIC_SUBSET = /^(?:Cl|Br|[BCNOPSFI]|[bcnops]|[^A-Za-z])*$/;

/**
 * Whether a candidate SMILES reads as one: its square brackets pair up, the letters outside them
 * are atoms of the organic subset, and every ring-bond label (a digit or %nn outside brackets)
 * opens and closes. "IC50=12" leaves rings 5, 0, 1 and 2 open; "pH=7.4" has an H outside brackets;
 * "\documentclass[UTF8" has an unpaired bracket: none of them is a molecule.
 */
export function readsAsSmiles(m: string): boolean {
  const outside = m.replace(/\[[^[\]]*\]/g, '');
  if (/[[\]]/.test(outside) || !ORGANIC_SUBSET.test(outside)) return false;
  const labels = new Map<string, number>();
  for (const [label] of outside.matchAll(/%\d{2}|\d/g)) labels.set(label, (labels.get(label) ?? 0) + 1);
  return [...labels.values()].every((n) => n % 2 === 0);
}

/**
 * The index words of the pieces of code in `text` that only look like chemistry (a SMILES-like run
 * that is no SMILES: \twocolumn[...], @twocolumnfalse, \documentclass[UTF8): takeChemistry keeps
 * each whole as one word beside its own words. A question writing code in its own way asks for those
 * words, not for the piece as written (retrieval/rerank.ts does not miss it in the documents).
 */
export function codeTokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const [raw] of text.normalize('NFKC').replace(CAS, ' ').matchAll(SMILES)) {
    const m = balanced(raw);
    if (indexedWhole(m) && !readsAsSmiles(m)) out.add(chemToken(m));
  }
  return out;
}

/**
 * Whether a SMILES-like match (its prose brackets taken off) is kept as one index word: it has a
 * letter and a bracket, bond or ring mark, its parentheses pair up, and it is no number range or URL.
 */
const indexedWhole = (m: string) => /[A-Za-z]/.test(m) && /[()[\]=#@]/.test(m) && occurrences(m, '(') === occurrences(m, ')') && !/^[\d.\-/]+$/.test(m) && !/^https?:/.test(m);

/** The chemistry tokens of a text and the text with them blanked out. */
function takeChemistry(text: string): { tokens: string[]; rest: string } {
  const tokens: string[] = [];
  for (const [m] of text.matchAll(CAS)) tokens.push(chemToken(m));
  let rest = text.replace(CAS, ' ');
  // Each SMILES is blanked out of its match; a match that is no SMILES stays as it is.
  let kept = '';
  let from = 0;
  for (const match of rest.matchAll(SMILES)) {
    const raw = match[0];
    // Prose brackets around a formula or SMILES, e.g. "(C9H8O4)", are not part of it.
    const m = balanced(raw);
    if (!indexedWhole(m)) continue;
    tokens.push(chemToken(m));
    // Code and measurements that only look like one (\documentclass[UTF8,fontset=windows],
    // IC50=12, -var-value=TEXMFHOME) keep their words as well: only a SMILES is blanked out.
    if (!readsAsSmiles(m)) continue;
    kept += rest.slice(from, match.index) + raw.replace(m, ' ');
    from = match.index + raw.length;
  }
  rest = kept + rest.slice(from);
  for (const [m] of rest.matchAll(FORMULA)) if (isFormula(m)) tokens.push(m.toLowerCase());
  return { tokens, rest };
}

/**
 * An English word's Porter stem (the `stemmer` package), or null when it has none of its own:
 * only words of four or more ASCII letters are stemmed (not names with digits, not other scripts),
 * and English function words stay as they are (ENGLISH_STOP drops them from a question whole).
 */
function stemOf(word: string): string | null {
  if (!/^[a-z]{4,}$/.test(word) || ENGLISH_STOP.has(word)) return null;
  const stem = stemmer(word);
  return stem !== word ? stem : null;
}

/** One or two digits before a word of three or more letters: a footnote's mark, not part of the word. */
const FOOTNOTE_MARK = /^\d{1,2}(\p{L}{3,}[\p{L}\p{N}]*)$/u;

/**
 * A Latin-script word, lower-cased, and when it joins parts with '.' or an apostrophe (a file
 * name, a host, a possessive: windows.bat, simsun.ttc, user’s) also its parts of two or more
 * characters holding a letter, so "Windows" finds install-tl-windows.bat. In the index an English
 * word is followed by its stem (classifying: classifying classifi), and a question asks for the
 * stem alone (classified: classifi), so one form of a word finds the others. A footnote's mark run
 * into a word (5gedit) gives the word as a part as well.
 */
function pushWord(out: string[], word: string, side: 'index' | 'query' = 'index') {
  const w = word.toLowerCase();
  const parts = /['’._]/.test(w) ? w.split(/['’._]+/).filter((part) => part.length >= 2 && /\p{L}/u.test(part)) : [];
  // A footnote's number run into the word it starts ("5gedit默认使用UTF-8编码" at a page's foot).
  const marked = FOOTNOTE_MARK.exec(w);
  if (marked) parts.push(marked[1]!);
  for (const t of [w, ...parts]) {
    const stem = stemOf(t);
    if (side === 'index' || !stem) out.push(t);
    if (stem) out.push(stem);
  }
}

/** The pairs of adjacent characters of a run (布洛芬 → 布洛, 洛芬): the bigrams Chinese is indexed by. */
export function charPairs(run: string): string[] {
  const chars = [...run];
  return chars.slice(1).map((c, i) => chars[i]! + c);
}

/** Index tokens of a text, in order (words, then bigrams of each Han run, then chemistry). */
export function tokens(text: string, opts: { bigrams?: boolean } = {}): string[] {
  const { tokens: chem, rest } = takeChemistry(text.normalize('NFKC'));
  const out: string[] = [];
  // Intl.Segmenter is slow (≈0.5 MB/s), so it sees only the Han runs; other scripts split on a
  // regular expression that makes the same words (letters, digits, _, inner . and ').
  const matches = [...rest.matchAll(WORD_OR_HAN)];
  const runs: string[] = [];
  for (const m of matches) if (m[1]) runs.push(m[1]);
  const words = hanWords(runs);
  let run = 0;
  for (const m of matches) {
    if (m[1]) out.push(...words[run++]!);
    else pushWord(out, m[0]);
  }
  if (opts.bigrams !== false) {
    for (const r of runs) out.push(...charPairs(r));
  }
  return [...out, ...chem];
}

/** Words of Han runs seen lately (hanWords), emptied when full. */
const runWords = new Map<string, string[]>();
const RUN_WORDS_MAX = 50_000;

/**
 * The words of each Han run, from one pass of the segmenter over all of them joined by spaces (a
 * word never spans a space, and ICU's dictionary splits each run of Han characters on its own, so
 * the words are the same as run by run; one call instead of one per run is ~1.5× faster).
 */
function hanWords(runs: string[]): string[][] {
  // For the same reason a run's words can be remembered: a parse meets a fifth of its Han text
  // again (running phrases, a section heading indexed with each of its passages, merged passages).
  const fresh = [...new Set(runs.filter(isUnseen))];
  if (fresh.length) {
    if (runWords.size + fresh.length > RUN_WORDS_MAX) runWords.clear();
    const words: string[][] = [];
    for (let i = 0; i < fresh.length; i++) words.push([]);
    const ends: number[] = [];
    let end = -1;
    for (const r of fresh) ends.push((end += r.length + 1));
    let run = 0;
    for (const s of segmenter.segment(fresh.join(' '))) {
      if (!s.isWordLike) continue;
      while (s.index >= ends[run]!) run++;
      words[run]!.push(s.segment);
    }
    for (let i = 0; i < fresh.length; i++) runWords.set(fresh[i]!, words[i]!);
  }
  return runs.map(wordsOfRun);
}
const isUnseen = (run: string) => !runWords.has(run);
const wordsOfRun = (run: string) => runWords.get(run)!;

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

/**
 * Chinese interrogatives and function words: how a question asks, not what about (怎样 / 如何 /
 * 为什么 …). Written for this project from the usual Chinese interrogative pronouns, modal verbs
 * and structural words; they are dropped from a question that has other tokens, like ENGLISH_STOP.
 */
const CHINESE_STOP = new Set(
  ('怎样 怎么 怎么样 怎么办 什么 什么样 如何 为什么 为何 哪个 哪些 哪里 哪儿 哪种 哪条 哪一 是否 能否 可否 能不能 是不是 '
    + '有没有 会不会 多少 请问 一下 一些 应该 需要 可以 能够 我们 你们 进行 的话 时候 还是 或者 以及 而且 这个 那个 这些 那些 '
    + '什么时候 怎样才能 如何才能 有什么 有哪些 是什么 干什么 做什么').split(' '),
);

/**
 * The tokens of a question for the index: as tokens(), without the Chinese interrogatives and
 * function words (CHINESE_STOP) and without the bigrams that would take a character of one
 * ("为什么还要" gives no 么还). Measured on bench/data/retrieval-hard.json (tuning half recall@5
 * 0.880 → 0.893, held-out half unchanged; bench/retrieval-hard-halves.ts); leaving out the
 * bigrams across two words as well ("设置|成": 置成) lowered both halves' MRR, so those stay.
 */
export function queryTokens(query: string): string[] {
  const { tokens: chem, rest } = takeChemistry(query.normalize('NFKC'));
  const words: string[] = [];
  const bigrams: string[] = [];
  for (const m of rest.matchAll(WORD_OR_HAN)) {
    if (!m[1]) {
      pushWord(words, m[0], 'query');
      continue;
    }
    let run = '';
    for (const s of segmenter.segment(m[1])) {
      if (!s.isWordLike) continue;
      const stop = CHINESE_STOP.has(s.segment);
      if (!stop) words.push(s.segment);
      run += stop ? ' ' : s.segment;
    }
    for (const part of run.split(' ')) bigrams.push(...charPairs(part));
  }
  // A pasted symbol (↦, ≤) asks for the commands that write it.
  return [...words, ...symbolCommands(query), ...bigrams, ...chem];
}

/** At most this many distinct tokens of a question go to the index (a pasted page stays one query). */
export const MAX_QUERY_TERMS = 64;

/**
 * The distinct tokens of a question (queryTokens), each quoted as an FTS5 phrase, in the order they appear.
 * Single Han characters and English function words (ENGLISH_STOP) are dropped when the query
 * has other tokens (they match almost everything); at most MAX_QUERY_TERMS are kept.
 */
export function queryTerms(query: string, opts: { expand?: boolean } = {}): string[] {
  const asked = queryTokens(query);
  // A question made only of asking words ("为什么") searches for them.
  const own = asked.length ? asked : tokens(query);
  // With expand, the tokens of the words' equivalents in the lexicon follow (a longer Chinese one as its words and pairs).
  const equivalents = opts.expand ? [...new Set([...alternativesOf(query).values()].flat())].flatMap((a) => queryTokens(a)) : [];
  let list = [...new Set([...own, ...equivalents])];
  const long = list.filter(isLong);
  if (long.length) list = long;
  return list.slice(0, MAX_QUERY_TERMS).map((t) => `"${t.replace(/"/g, '""')}"`);
}

/**
 * The question's tokens that have equivalents in the lexicon (text/synonyms.ts), each with those
 * equivalents as written there: 升级 → 更新 update upgrade. The BM25 search feeding the second
 * stage looks for them too (queryTerms with expand; retrieval/fusion.ts), and the second stage
 * counts a question word as covered where a passage holds one whole (retrieval/rerank.ts).
 */
export function alternativesOf(query: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!EXPAND_QUERIES) return out;
  const chinese = HAN.test(query);
  for (const { term, alternatives } of synonymsIn(query, queryTokens(query))) {
    // An English term is the question's own token (a stem), not to be stemmed again.
    const keys = HAN.test(term) ? queryTokens(term).filter(isLong) : [term];
    const alts = chinese ? alternatives : alternatives.filter((a) => !HAN.test(a));
    if (!alts.length) continue;
    for (const t of keys) out.set(t, [...new Set([...(out.get(t) ?? []), ...alts])]);
  }
  return out;
}

/**
 * The English words of a Chinese question's words that the lexicon has no entry for, from the
 * dictionary (text/dictionary.ts), as index tokens (stems): 尾注 → endnot, 捷克 → czech. They are
 * less sure than the lexicon's pairs (a word's first senses, whatever its sense here), so they
 * neither join the question's own search nor count in a Chinese passage: a second search in these
 * words alone brings English passages to the second stage (retrieval/fusion.ts), which counts them
 * as covering their word in a passage without Chinese (retrieval/rerank.ts).
 */
export function translationsOf(query: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { term, english } of dictionaryWordsOf(query)) {
    const stems = [...new Set(english.flatMap((a) => queryTokens(a)))];
    for (const t of queryTokens(term).filter(isLong)) out.set(t, [...new Set([...(out.get(t) ?? []), ...stems])]);
  }
  return out;
}

/** The words of a Chinese question the lexicon has no entry for, with their English words as the dictionary writes them. */
function dictionaryWordsOf(query: string): Array<{ term: string; english: string[] }> {
  if (!EXPAND_QUERIES || !HAN.test(query)) return [];
  let rest = query.normalize('NFKC');
  for (const { term } of synonymsIn(query, [])) rest = rest.split(term).join(' ');
  return dictionaryTermsIn(rest, (w) => CHINESE_STOP.has(w)).map(({ term, alternatives }) => ({ term, english: alternatives }));
}

/** The words to search a question's translations by (translationsOf) with its own Latin-script words, or '' when it has none. */
export function translatedQuery(query: string): string {
  const english = [...new Set(dictionaryWordsOf(query).flatMap((d) => d.english))];
  if (!english.length) return '';
  const own = [...query.normalize('NFKC').matchAll(/[A-Za-z][\w.-]*/g)].map((m) => m[0]);
  return [...new Set([...own, ...english])].join(' ');
}

/**
 * Whether a passage is written in a Latin script, a Chinese heading or a word or two aside: fewer
 * Han characters than a tenth of its Latin letters (a list of English lines under "B 安装方案与集合").
 * The dictionary's words (translationsOf) count in such a passage.
 */
export function isMostlyLatin(text: string): boolean {
  const han = text.match(/\p{Script=Han}/gu)?.length ?? 0;
  const latin = text.match(/[A-Za-z]/g)?.length ?? 0;
  return han * 10 < latin;
}

/** Not a single Han character nor an English function word: a token worth searching for. */
const isLong = (t: string) => !(HAN.test(t) && [...t].length === 1) && !ENGLISH_STOP.has(t);

/**
 * The FTS5 MATCH expression of a question: its distinct tokens, each quoted, OR-ed, so BM25
 * ranks passages by how many and how rare the shared tokens are (queryTerms).
 */
export function matchQuery(query: string): string | null {
  const terms = queryTerms(query);
  return terms.length ? terms.join(' OR ') : null;
}
