/**
 * The second stage over BM25's best candidates, with no service: each passage is scored again on
 * how much of the question it covers (rare words weigh more), how close together the question's
 * words stand in it, and whether they are in its heading or question line; navigation passages
 * indexed before they were recognised (parsing/navigation.ts) fall to the bottom; the first five
 * hold at most one passage per page (more pages among them: recall@5 of the hard set 0.887 → 0.900).
 * A Chinese question's Latin-script name that few candidates hold (an option, a command, a code) is
 * what it asks about: a passage holding none of its names keeps less of its score.
 * The same coverage decides when nothing relevant was found (abstention).
 */
import { stemmer } from 'stemmer';
import { looksLikeNavigation } from '../parsing/navigation';
import { alternativesOf, charPairs, codeTokens, isMostlyLatin, queryTerms, tokens, translationsOf } from '../text/segment';
import { symbolCommands } from '../text/synonyms';
import type { Passage } from './search';

/**
 * Question words and phrasing that say what is asked, not what about ("有什么区别" matches every
 * FAQ question asking for a difference): their tokens weigh little in coverage.
 */
const QUESTION_WORDS = /什么|怎么|怎样|如何|为什么|为何|哪些|哪个|哪里|哪儿|是否|能否|可以|可否|能不能|是不是|有没有|多少|几种|吗|呢|请问|一下|一些|应该|需要|我们|你们|进行|的|了|和|与|及|或|么/gu;

const HAN = /\p{Script=Han}/u;

interface Term {
  word: string;
  weight: number;
  /** Its equivalents in the lexicon (text/synonyms.ts): a passage holding one covers the word. */
  alternatives?: string[];
  /** Its English words from the dictionary (text/segment.ts translationsOf): they cover it in an English passage (isMostlyLatin), for ranking only. */
  translations?: string[];
  /** A Chinese bigram across two words of a wordy question that no candidate holds (UNHELD_BIGRAM). */
  unheld?: boolean;
}

/**
 * How much the command of a symbol the question pastes weighs against one of its whole words. The
 * symbol is the subject of the question, and a symbol table holds its command as one short word
 * among hundreds and none of the words describing it ("集合里表示包含某个元素的那个反过来的属于号 ∋，
 * 在公式里用什么命令输入": the table writes \ni, the pages on sets and formulas write the rest). The
 * tuning pool (hard set, fresh sets 1–26) scores the same at 1, 2 and 3 (1748 of 1842); at 1 such a
 * table ranked tenth among pages each holding two of the describing words (tests/server/retrieval/
 * fusion.test.ts), so 2 was kept, the smallest that places it among the first five.
 */
const PASTED_SYMBOL = 2;

/**
 * How much a table of contents' passage found for a question about the document's outline
 * (retrieval/outline.ts) weighs against the other candidates: the part's own pages and the
 * document's first pages share the part's name and the question's words ("CTEX FAQ 的“帮助文档”部分
 * 包括哪些问题"), and only the contents lists its items together. On the tuning pool (hard set,
 * fresh sets 1–27): 1799 of 1907 without outline passages, 1814 at 1, 1816 at 1.5, 2 and 3 (false
 * and right abstentions unchanged); the middle of the best was kept.
 */
const OUTLINE_WEIGHT = 2;

/**
 * The question's tokens with weights: rarer among the candidates weighs more; question words and
 * their bigrams weigh little. In a question with WORDY_QUESTION or more of them, a Chinese bigram
 * across two of its words that no candidate holds is marked `unheld`.
 */
function weightedTerms(question: string, docs: string[][]): Term[] {
  const words = queryTerms(question).map((t) => t.slice(1, -1).replace(/""/g, '"'));
  const alternatives = alternativesOf(question);
  const translations = translationsOf(question);
  // A pasted symbol's commands (⊕: oplus) are words of the question, as whole as any: the symbol is
  // what it asks about (read on retrieval-fresh-24.json, where they weighed as little as a question
  // word and the one table writing \oplus ranked tenth). They weigh PASTED_SYMBOL.
  const commands = symbolCommands(question);
  const content = new Set([...tokens(question.normalize('NFKC').replace(QUESTION_WORDS, ' ')), ...commands]);
  // Whole words of the question (not the bigrams across two words, such as 把行 in 把行距).
  const whole = new Set([...tokens(question, { bigrams: false }), ...commands]);
  // Bigrams inside one of its longer words (青霉 and 霉素 in 青霉素): part of that word, not across two.
  const inside = new Set([...whole].filter((w) => HAN.test(w)).flatMap(charPairs));
  const n = docs.length;
  const dfs = words.map((word) => docs.filter((d) => d.includes(word)).length);
  const isStraddling = (word: string, df: number) => df === 0 && !whole.has(word) && !inside.has(word) && HAN.test(word);
  const straddlers = words.filter((w, i) => isStraddling(w, dfs[i]!)).length;
  const lengthy = straddlers >= WORDY_QUESTION;
  return words.map((word, i) => {
    const df = dfs[i]!;
    const idf = Math.log(1 + (n + 1) / (df + 0.5));
    return { word, weight: idf * (commands.includes(word) ? PASTED_SYMBOL : !content.has(word) ? 0.15 : whole.has(word) ? 1 : 0.3), alternatives: alternatives.get(word), translations: translations.get(word), unheld: lengthy && isStraddling(word, df) };
  });
}

/**
 * The share of the question's weighted terms found in a passage's tokens (0–1); a term's
 * equivalent counts when the passage holds it whole (a Chinese one in its text, an English one as a word).
 */
function coverageOf(terms: Term[], words: Set<string>, text = '', english = false): number {
  const total = terms.reduce((s, t) => s + t.weight, 0);
  if (!total) return 0;
  const has = (t: Term) =>
    words.has(t.word) || (t.alternatives?.some((a) => (HAN.test(a) ? text.includes(a) : words.has(a))) ?? false) || (english && (t.translations?.some((a) => words.has(a)) ?? false));
  return terms.reduce((s, t) => s + (has(t) ? t.weight : 0), 0) / total;
}

/** 1 when the matched terms stand together, falling towards 0 as the shortest window holding them widens. */
function proximityOf(terms: Term[], seq: string[]): number {
  const wanted = new Set(terms.filter((t) => t.weight > 0.3).map((t) => t.word));
  const present = new Set(seq.filter((w) => wanted.has(w)));
  if (present.size < 2) return present.size ? 0.5 : 0;
  // Shortest window of seq holding every present term (two pointers).
  const need = present.size;
  const have = new Map<string, number>();
  let best = Infinity;
  let lo = 0;
  for (let hi = 0; hi < seq.length; hi++) {
    const w = seq[hi]!;
    if (!present.has(w)) continue;
    have.set(w, (have.get(w) ?? 0) + 1);
    while (have.size === need) {
      best = Math.min(best, hi - lo + 1);
      const l = seq[lo]!;
      if (present.has(l)) {
        const c = have.get(l)! - 1;
        if (c) have.set(l, c);
        else have.delete(l);
      }
      lo++;
    }
  }
  // Bigrams double the tokens of a Chinese run: a window about 3× the terms is "together".
  return Math.min(1, (3 * need) / Math.max(best, 1));
}

/** A Latin-script word of the question (a name, a command, a term), as the index writes it. */
const LATIN_WORD = /^[a-z][a-z0-9_\-.]{2,}$/;

/** The question's Latin-script words, as the index writes them. */
export const latinWordsOf = (question: string) => queryTerms(question).map((t) => t.slice(1, -1)).filter((w) => LATIN_WORD.test(w));

/**
 * The question's Latin-script words that no candidate holds, not even inside a longer index word
 * (mmff in r_mmffld_potential_energy). BM25 ranks by any shared word, so the candidates mostly
 * hold every word of the question the documents have; belief() also counts a word held deeper
 * down (`mentioned`) as present. A word joined by '.', '-' or '_' is not asked whole: its parts
 * are (a file name the question makes up, fig.v2.final.png, is no name the documents should hold;
 * read on retrieval-fresh-8.json). Nor is a piece of code the question writes its own way
 * (\twocolumn[...] for the page's \twocolumn[{...}]; text/segment.ts codeTokens): its words are
 * asked (read on retrieval-fresh-12.json, where it abstained over the answering page ranked first).
 */
function absentWords(question: string, docs: string[][]): string[] {
  const held = [...new Set(docs.flat())];
  const vocabulary = held.filter((w) => /[a-z]/.test(w)).join(' ');
  const code = codeTokens(question);
  const glosses = glossesOf(question);
  // A pasted symbol's command is the product's reading, not a word the question writes: a manual may
  // name it otherwise (unicode-math's acwopencirclearrow is amssymb's circlearrowleft for ↺; read on
  // retrieval-fresh-29.json, where that question abstained over the table ranked third).
  const commands = new Set(symbolCommands(question));
  const paths = pathWordsOf(question);
  const schemes = schemesOf(question);
  return latinWordsOf(question).filter((w) => !/[._-]/.test(w) && !code.has(w) && !glosses.has(w) && !commands.has(w) && !paths.has(w) && !schemes.has(w) && !INDEFINITE.has(w) && !vocabulary.includes(w) && !spelledOut(w, docs) && !misspeltIn(w, held));
}

/**
 * Whether a long word is a candidate's word with one letter more, less or other: the same name
 * spelt otherwise by the page or the asker (lshort-zh-cn prints "Linux Biolium" for Linux Biolinum,
 * and the question naming it abstained over the answering page ranked first; read on
 * retrieval-fresh-37.json). Short words differ by one letter too often to be the same name.
 */
function misspeltIn(word: string, words: string[]): boolean {
  return word.length >= MISSPELT_LENGTH && words.some((w) => Math.abs(w.length - word.length) <= 1 && w[0] === word[0] && withinOneEdit(w, word));
}
const MISSPELT_LENGTH = 7;

/** Whether `a` becomes `b` by one insertion, deletion or substitution (or none). */
function withinOneEdit(a: string, b: string): boolean {
  if (a.length > b.length) [a, b] = [b, a];
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.length === b.length ? a.slice(i + 1) === b.slice(i + 1) : a.slice(i) === b.slice(i + 1);
}

/** A path a question writes: from a drive or a root (D:/tlbackup, C:\texlive, ~/texmf, /usr/share), or of three parts or more (texmf/tex/latex); not IC50/Ki or and/or. */
const PATH = /(?:\b[A-Za-z]:[\\/]|~\/|(?<!\w)\/)[\w.-]*(?:[\\/][\w.-]+)*[\\/]?|[\w.-]+(?:[\\/][\w.-]+){2,}[\\/]?/g;

/**
 * The words of the paths a question writes. A path is the asker's own example, as a file name is
 * ("tlmgr option backupdir D:/tlbackup 会起什么作用" abstained over the answering page ranked first,
 * which names no tlbackup; read on retrieval-fresh-35.json).
 */
function pathWordsOf(question: string): Set<string> {
  return new Set([...question.normalize('NFKC').matchAll(PATH)].flatMap((m) => latinWordsOf(m[0].replace(/[\\/:~]/g, ' '))));
}

/**
 * English indefinite words and their stems (as the index holds them): they name nothing a page
 * should hold ("whenever someone clicks a mailto: link").
 */
const INDEFINITE = new Set(
  ['whenever', 'wherever', 'whatever', 'whoever', 'someone', 'somebody', 'something', 'somewhere', 'anyone', 'anybody', 'anything', 'anywhere', 'everyone', 'everybody', 'everything', 'everywhere', 'nobody', 'nothing'].flatMap(
    (w) => [w, stemmer(w)],
  ),
);

/** A link's scheme as a question writes it: "a mailto: link", "magnet: 开头的链接", "ftp://". */
const SCHEME = /\b([a-z][a-z0-9+.-]{1,19}):(?=\/\/|\s*(?:links?|urls?|uris?|scheme|开头|的?链接|地址|协议))/gi;

/**
 * The schemes of the links a question writes. A scheme is the asker's example of a link, as a path
 * is: a specification names the mechanism (x-scheme-handler/…) and a few schemes, not each one
 * ("…someone clicks a mailto: link. Which MIME type should it list?" abstained over the answering
 * page ranked first, which names no mailto; read on retrieval-fresh-37.json and -39.json).
 */
function schemesOf(question: string): Set<string> {
  return new Set([...question.normalize('NFKC').matchAll(SCHEME)].map((m) => m[1]!.toLowerCase()));
}

/** A Chinese word's English gloss in brackets right after it: "哥特体（Fraktur）", "调色板 (palette)". */
const GLOSS = /\p{Script=Han}\s*[（(]\s*([A-Za-z][A-Za-z' -]{0,40}?)\s*[)）]/gu;

/**
 * The words of the glosses a question gives its Chinese words. A gloss says what the Chinese word
 * means, in the question's own words: the page may say it in Chinese alone, so a gloss the documents
 * never write is no name they lack ("公式里用 \mathfrak 排哥特体（Fraktur）字母…" abstained over the
 * answering page ranked first, which never writes Fraktur; read on retrieval-fresh-23.json).
 */
function glossesOf(question: string): Set<string> {
  return new Set([...question.matchAll(GLOSS)].flatMap((m) => latinWordsOf(m[1]!)));
}

/**
 * Whether a short word is the initials of consecutive words of a candidate: an abbreviation the
 * passage writes in full (FDL for Free Documentation License). Read on retrieval-fresh-16.json,
 * where "GNU FDL 里说的 Secondary Section…" abstained over the answering page ranked first, which
 * never writes FDL. On the tuning sets: false abstention 2 → 1 of 1192 answerable questions, right
 * abstention unchanged (98 of 200); retrieval-fresh-17.json, held out, unchanged.
 */
function spelledOut(word: string, docs: string[][]): boolean {
  return /^[a-z]{3,5}$/.test(word) && docs.some((seq) => initialsOf(seq).includes(word));
}

/**
 * The initials of a passage's Latin words in their order, a space where words of other scripts part
 * them. The index follows a word with its stem (documentation document): one initial for both.
 */
function initialsOf(seq: string[]): string {
  let initials = '';
  let last = '';
  for (const t of seq) {
    if (/^[a-z]{2,}/.test(t)) {
      if (last.slice(0, 3) !== t.slice(0, 3)) initials += t[0];
      last = t;
    } else if (!/^[a-z0-9]/.test(t)) {
      initials += ' ';
      last = '';
    }
  }
  return initials;
}

/** The Latin-script words of a Chinese question that some but few candidates hold (the things it names). */
function namesIn(question: string, docs: string[][], share: number): string[] {
  if (!HAN.test(question)) return [];
  return latinWordsOf(question).filter((w) => {
    const df = docs.filter((d) => d.includes(w)).length;
    return df > 0 && df <= docs.length * share;
  });
}

/**
 * How far the question's coverage is believed, given the words the documents lack (not those
 * `mentioned` by a passage below the candidates): a Chinese question naming something in Latin
 * letters the documents never mention (Nginx, Photoshop, IC50) is not answered from them, whatever
 * else matches (0); an English question with two or more of its words of four letters or more
 * missing needs a quarter more coverage. Tuned on the even half of bench/data/retrieval-hard.json
 * (bench/retrieval-hard-halves.ts reports both halves).
 */
function belief(question: string, docs: string[][], firstRanked = docs.length, mentioned: ReadonlySet<string> = new Set()): number {
  const unheld = absentWords(question, docs);
  // Held by no candidate but by a passage below them: the documents do not lack it.
  const elsewhere = new Set(unheld.filter((w) => mentioned.has(w)));
  const absent = unheld.filter((w) => !elsewhere.has(w));
  if (HAN.test(question)) {
    if (absent.length) return 0;
    if (firstRanked >= docs.length) return 1;
    // Names that only the passages added from deeper down hold (fusion.ts namedCandidates) count
    // when one passage holds them all: two names in two unrelated passages ("Python 里怎么读取
    // Excel 表格" over a page naming Python and another naming Excel) are not what was asked. On the
    // tuning sets this keeps that one unanswerable question abstained on and costs no answer; asking
    // every Chinese question with two names for a passage holding both cost five answers.
    const deeper = absentWords(question, docs.slice(0, firstRanked)).filter((w) => !elsewhere.has(w));
    const vocabularyOf = (d: string[]) => d.filter((w) => /[a-z]/.test(w)).join(' ');
    return deeper.length < 2 || docs.slice(firstRanked).some((d) => deeper.every((w) => vocabularyOf(d).includes(w))) ? 1 : 0;
  }
  return absent.filter((w) => w.length >= 4).length >= 2 ? ENGLISH_MISSING_BELIEF : 1;
}
/**
 * What an English question missing two of its words keeps of its coverage: first tuned as "needs
 * 0.25 where others need 0.19" (0.76). Indexing code with its words (text/segment.ts
 * readsAsSmiles) let "What was Apple's stock price at the end of 2020?" reach the threshold over a
 * LaTeX example holding apple and end, and the hard set's right abstentions fell below their 0.8
 * target (17 of 22). 0.74 is the smallest change that restores it (18 of 22) and keeps the
 * threshold tuned on the hard set's even half at the shipped 0.16. On the tuning sets (the hard set
 * and fresh sets one to nine) lower values abstain on more unanswerable questions (0.6: 69 of 123,
 * 0.74: 65) and on no more answerable ones down to 0.55, but move that tuned threshold (to 0.13).
 */
const ENGLISH_MISSING_BELIEF = 0.74;

export interface Scored extends Passage {
  /** Share of the question's weighted words the passage holds (0–1). */
  coverage: number;
}

/**
 * The candidates reordered by the second stage (best first), each with its coverage. BM25's score
 * (normalised to the best candidate's) is multiplied by how much of the question the passage
 * covers, how close together, and whether its first line (a heading or question) holds it.
 */
/** The second stage's weights (bench/retrieval-hard-halves.ts tunes them on half of the hard set). */
export interface RerankWeights {
  /** Exponent of BM25's normalised score (below 1: the second stage's signals count for more). */
  bm25: number;
  /** Weight of the share of the question's Chinese characters the passage holds (paraphrases: 行距 / 行间距). */
  chars: number;
  /** Weight of the same share in the passage's first line (a heading or FAQ question). */
  headingChars: number;
  /** What a passage covering none of the question keeps of its BM25 score (coverage adds to it). */
  floor: number;
  /** Weight of how close together the question's words stand in the passage. */
  proximity: number;
  /** Weight of the share of the question's words in the passage's first line (a heading or FAQ question). */
  heading: number;
  /** At most this many passages of one page among the first `diverseTop` (the rest move down). */
  perPage: number;
  diverseTop: number;
  /**
   * What a passage keeps of its score when a Chinese question names something in Latin letters
   * that few candidates hold (desktop_integration, fbox, IC50) and the passage holds none of it
   * (1: nothing lost); `namedShare` is the share of candidates above which a name is too common to count.
   */
  nameMissing: number;
  namedShare: number;
}
// Chosen on the even half of the hard set and checked on the odd half (bench/retrieval-hard-tune.ts):
// the character shares raised the tuning half's recall@5 (0.880 → 0.920) but not the held-out
// half's (0.920 → 0.920, MRR 0.800 → 0.786), so they stay off; one passage per page helped both.
// A missing name (nameMissing, namedShare) came from reading a miss of the odd half
// ("desktop_integration 选项在哪个系统上起作用": the page with the option's row ranked below FAQ
// entries sharing only 选项 and 起作用); on the even half no value of the grid 0.2–0.8 × 0.2–0.8
// lost a question and MRR rose most from a share of 0.5 (0.826 → 0.830, recall@5 0.920 either
// way); the odd half: recall@5 0.973 → 0.987, MRR 0.812 → 0.821. Five questions moved up, none down.
export const RERANK_WEIGHTS: RerankWeights = { bm25: 1, chars: 0, headingChars: 0, floor: 0.35, proximity: 0.35, heading: 0.5, perPage: 1, diverseTop: 5, nameMissing: 0.4, namedShare: 0.5 };

const HAN_CHAR = /\p{Script=Han}/gu;
/** The question's Chinese characters that say what it is about (not how it asks), each with a weight: rarer among the candidates weighs more. */
function weightedChars(question: string, texts: string[]): Term[] {
  const chars = [...new Set(question.normalize('NFKC').replace(QUESTION_WORDS, ' ').match(HAN_CHAR) ?? [])];
  const n = texts.length;
  return chars.map((c) => {
    const df = texts.filter((t) => t.includes(c)).length;
    return { word: c, weight: Math.log(1 + (n + 1) / (df + 0.5)) };
  });
}

/**
 * `mentioned`: the question's Latin-script words that a passage of BM25's deeper list holds
 * (fusion.ts): one that no candidate holds is still in the documents, so no reason to abstain. A
 * question asked in many words ranks the passages naming a common one (Ubuntu, all through an
 * installation guide whose page on the editor does not repeat it) below the candidates; read on
 * the tenth fresh set, where it abstained with the answering page ranked first.
 * `firstRanked`: how many of the candidates are the first stage's best in its order; those after them
 * were added from deeper down for holding a name the question asks about (fusion.ts namedCandidates).
 * Names that only added passages hold make a question answerable when one of them holds them all
 * (belief).
 */
export function rerank(question: string, candidates: Passage[], weights: RerankWeights = RERANK_WEIGHTS, firstRanked = candidates.length, mentioned: ReadonlySet<string> = new Set()): Scored[] {
  if (!candidates.length) return [];
  const seqs = candidates.map((p) => (p.segmented !== undefined ? p.segmented.split(' ') : tokens(p.text)));
  // The passages the question's English words found (fusion.ts) are ranked, but weigh its words
  // and judge its names only with the others: they may not change what the question asks.
  const asking = seqs.filter((_, i) => !candidates[i]!.viaDictionary);
  const vocabularies = asking.map((s) => [...new Set(s)]);
  const terms = weightedTerms(question, vocabularies);
  // Whether a passage answers at all is judged with the question's words that carry evidence: a
  // bigram across two everyday words that no candidate holds weighs less (UNHELD_BIGRAM).
  const asked = terms.map((t) => (t.unheld ? { ...t, weight: t.weight * UNHELD_BIGRAM } : t));
  const top = Math.max(...candidates.map((p) => p.score), 1e-9);
  const believed = belief(question, asking, Math.min(firstRanked, asking.length), mentioned) * lengthAllowance(question);
  const chars = weights.chars || weights.headingChars ? weightedChars(question, candidates.filter((p) => !p.viaDictionary).map((p) => p.text)) : [];
  const names = weights.nameMissing < 1 ? namesIn(question, asking, weights.namedShare) : [];
  const charsIn = (text: string) => coverageOf(chars, new Set(text.match(HAN_CHAR) ?? []));
  const ranked = candidates
    .map((p, i) => {
      const seq = seqs[i]!;
      const words = new Set(seq);
      // A question asked in Chinese about an English passage (or the reverse) is covered by the
      // words in the passage's script: "Ibuprofen 是什么类型的药物？" over an English text.
      const han = HAN.test(p.text);
      const own = asked.filter((t) => HAN.test(t.word) === han);
      const text = p.text.normalize('NFKC');
      const english = isMostlyLatin(p.text);
      const coverage = coverageOf(terms, words, text, english);
      // Whether it answers at all is judged without the dictionary's words: a word's usual English
      // senses, whatever its sense in the question, rank a passage but are no evidence that it answers
      // ("复旦大学研究生院的办公地址" is not answered by a page on Fudan graduate students' ID numbers).
      const answers = Math.max(coverageOf(asked, words, text), coverageOf(own.length ? own : asked, words, text));
      const proximity = proximityOf(terms, seq);
      const firstLine = p.text.split('\n', 1)[0]!;
      // (A long first line is no heading: its first words only place the section's heading.)
      const lineTokens = tokens(firstLine.length < 120 ? firstLine : firstLine.slice(0, 40));
      const ownHeading = firstLine.length < 120 ? coverageOf(terms, new Set(lineTokens), firstLine.normalize('NFKC'), english) : 0;
      const context = sectionContext(seq, lineTokens);
      const heading = context.length ? Math.max(ownHeading, coverageOf(terms, new Set(context), '', english)) : ownHeading;
      const nav = p.outline ? OUTLINE_WEIGHT : looksLikeNavigation(p.text) ? 0.05 : 1;
      const charShare = chars.length && weights.chars ? weights.chars * charsIn(p.text) : 0;
      const headingShare = chars.length && weights.headingChars && firstLine.length < 120 ? weights.headingChars * charsIn(firstLine) : 0;
      const named = names.length && !names.some((n) => words.has(n)) ? weights.nameMissing : 1;
      const score = (p.score / top) ** weights.bm25 * (weights.floor + coverage + charShare) * (1 + weights.proximity * proximity + weights.heading * heading + headingShare) * nav * named;
      const { segmented: _, viaDictionary: __, ...rest } = p;
      // A passage holding every name the question asks about is about what was asked: everyday
      // wording around the name ("设了新字号却没有立刻变化") is no reason to abstain on it.
      const aboutNamed = names.length > 0 && answers >= NAMED_COVERAGE && names.every((n) => words.has(n));
      return { ...rest, score, coverage: Math.min(1, Math.max(answers, aboutNamed ? ABSTAIN_BELOW : 0) * nav * believed) };
    })
    .sort((a, b) => b.score - a.score);
  return diversified(ranked, weights);
}

/**
 * The index words before a passage's own (before its first line's first words): the heading or
 * FAQ question of the section it continues over a page break or after a long first part, which
 * parsing/chunks.ts indexes with it. It counts as the passage's heading: a page that goes on with
 * "2.2.2 手动卸载" or a mime.cache table's section is about what that heading names (an SDF record's
 * are its file's name words, parsing/sdf.ts: the set it belongs to). Read on
 * the tuning pool (hard set and fresh sets 1–20): answer-level recall 1383 → 1384 of 1452 (two
 * gained, one lost), right abstention 121 → 122 of 244; the same from 0.7 to 1.2 times the weight
 * of a first line. retrieval-fresh-21.json, held out, unchanged.
 */
function sectionContext(seq: string[], lineTokens: string[]): string[] {
  const head = lineTokens.slice(0, 3);
  if (!head.length) return [];
  for (let i = 1; i + head.length <= seq.length && i < 40; i++) if (head.every((t, j) => seq[i + j] === t)) return seq.slice(0, i);
  return [];
}

/**
 * At most `perPage` passages of one page among the first `diverseTop`: the others of that page move
 * just below them. A passage of a file without pages (an SDF's molecule, a PDB's ligand, a text
 * file's section) is a place of its own: counted as one page, a question naming one molecule saw
 * it pushed below other documents by the file's summary that lists every name (seventeenth fresh set).
 */
function diversified<T extends Passage>(ranked: T[], { perPage, diverseTop }: RerankWeights): T[] {
  if (perPage >= diverseTop) return ranked;
  const head: T[] = [];
  const later: T[] = [];
  const perKey = new Map<string, number>();
  for (const p of ranked) {
    const key = p.page == null ? `${p.docId}\u0000#${p.text}` : `${p.docId}\u0000${p.page}`;
    const seen = perKey.get(key) ?? 0;
    if (head.length < diverseTop && seen < perPage) {
      perKey.set(key, seen + 1);
      head.push(p);
    } else later.push(p);
  }
  return [...head, ...later];
}

/**
 * Below this coverage no passage answers the question: "not found in the chosen sources". Chosen by
 * bench/retrieval-answer-tune.ts on the even half of the hard set (the most unanswerable questions
 * abstained on while at most 2 % of the answerable ones are) and reported on the odd half; the
 * retrieval bench prints both halves and the same rule tuned on the odd half. 0.19 before issue 32
 * (tuned on retrieval's top 5 alone): 2 of the even half's 75 answerable questions abstained on.
 * Tuning allows half the 2 % budget of false abstention (bench/retrieval-answer.ts
 * TUNING_FALSE_ABSTENTION), so the rule holds on the half it was not tuned on.
 */
export const ABSTAIN_BELOW = 0.16;

/**
 * A Chinese question naming something in Latin letters that few candidates hold (namesIn: a command,
 * an option, a package) is not abstained on when a passage holds every such name and covers at least
 * this much of the question: that passage counts as covering ABSTAIN_BELOW. A question asked in many
 * everyday words covers little of any passage: "在正文中间用 \\fontsize 设了新字号却没有立刻变化，
 * 还要加什么命令" covered 0.13 of the page that answers it. Chosen on the tuning sets (the hard set
 * and the first five fresh sets): it keeps the fifth set's one answer that abstention lost and two
 * of its four false abstentions, and no unanswerable question is answered for it (with no minimum,
 * "CDK2 抑制剂通常和铰链区的哪个氨基酸残基形成氢键" was, over a cdk2 record covering 0.08 of it).
 * On the sixth fresh set, held out for it: answer-level recall 0.896 → 0.925, false abstention
 * 0.060 → 0.030. With UNHELD_BIGRAM beside it, it still keeps one answer of the tuning sets.
 */
const NAMED_COVERAGE = 0.1;

/**
 * What a Chinese bigram straddling two words of the question (种大 and 段没 in "那种大段没有…")
 * keeps of its weight in the coverage that decides abstention, when no candidate holds it. Such a
 * bigram is an artefact of indexing Chinese in pairs; held by no passage it gets the highest
 * rarity of all, so a question asked in many everyday words covered too little of the page that
 * answers it ("那种大段没有实际意义的占位文字，在排版里通常拿来做什么用": 0.15 of the zhlipsum
 * page, ranked second; 0.17 now). Ranking keeps the full weights. Chosen on the tuning sets (the
 * hard set and the first six fresh sets; ABSTAIN_BELOW unchanged, as its tuning on the even half
 * still picks it): 0 and 0.1 cost the hard set's right abstention its 0.8 target (17 of 22); 0.5
 * keeps it (18 of 22) and takes the pool's false abstentions from 4 to 1 (answers 499 → 500 of 527,
 * right abstentions 50 → 49 of 90). Only in a question with at least WORDY_QUESTION such pairs:
 * in a short one they are much of what it asks ("青霉素是谁发现的" has four, and over LaTeX manuals
 * sharing only 发现 it must abstain). On the seventh fresh set, held out: false abstention 0.030 →
 * 0.015, answer-level recall 0.896 → 0.910, equal to recall@5.
 */
const UNHELD_BIGRAM = 0.5;
/**
 * A question with at least this many unheld pairs across its words is worded at length in everyday
 * terms (UNHELD_BIGRAM). Any value from 5 to 10 gives the same tuning figures and keeps the short
 * question above abstaining; 13 and more give back false abstentions.
 */
const WORDY_QUESTION = 8;

/**
 * A Chinese question of at least LONG_QUESTION Han characters is believed LONG_ALLOWANCE times its
 * coverage when deciding whether to abstain. Coverage is the share of the question's weighted
 * words a passage holds; a long question asked in everyday words has many words its page says
 * otherwise, so the page that answers it covers less of it than a short question's page does
 * ("前面好几张图表因为放不下一直被往后推，怎样让它们在换页之前全部排出来": 0.115 of the page
 * with \clearpage, ranked first). Read on the ninth fresh set's misses and chosen on the tuning
 * sets (the hard set and fresh sets one to nine): answerable questions abstained on 6 → 1 of 728,
 * unanswerable ones 66 → 65 of 123; 26 and 1.45 are where the grid (24–28 × 1.3–1.6) lost the
 * fewest of either. Ranking is unchanged. retrieval-fresh-10.json, committed before it, is held out.
 */
const LONG_QUESTION = 26;
const LONG_ALLOWANCE = 1.45;
const lengthAllowance = (question: string) => ((question.match(HAN_CHAR) ?? []).length >= LONG_QUESTION ? LONG_ALLOWANCE : 1);

/** Whether the reranked passages leave the question unanswered (nothing covers enough of it). */
export const nothingRelevant = (passages: Array<Passage & { coverage?: number }>, below = ABSTAIN_BELOW) => !passages.some((p) => (p.coverage ?? 1) >= below);

/**
 * How many of retrieval's best passages an answer cites: the top five, the passages recall@5
 * measures (what retrieval found is not lost between retrieval and the answer).
 */
export const CITED_TOP = 5;

/**
 * The passages an answer cites, in retrieval's order: none when no passage it was given covers
 * enough of the question (abstention), else those of the top CITED_TOP that are not
 * navigation (contents, index) and, after the first, that cover enough of the question (reranked
 * passages) or of which `related` says they share a word of its subject. Passages not reranked
 * (no coverage) are never a reason to abstain. Not re-chosen by score or cut to fewer: the
 * answer at 0–3 passages chosen by score lost 9 of the hard set's 143 answering pages that
 * retrieval's top 5 held (answer-level recall 0.893 against recall@5 0.953).
 */
export function citedPassages<T extends Passage & { coverage?: number }>(passages: T[], related: (p: T) => boolean = () => true, below = ABSTAIN_BELOW): T[] {
  if (nothingRelevant(passages, below)) return [];
  return passages.slice(0, CITED_TOP).filter((p, i) => (p.outline || !looksLikeNavigation(p.text)) && (i === 0 || (p.coverage !== undefined && p.coverage >= below) || related(p)));
}

/**
 * The rest of retrieval's top CITED_TOP that an answer citing `chosen` (citedPassages) left out
 * because they cover little of the question, navigation excepted; none when the answer abstains.
 * The answer lists them after its quotes, so nothing retrieval ranked best is lost between
 * retrieval and the answer: a page worded unlike its question (a list of collections for 乐谱,
 * whose page says music) covers little of it and still answers.
 */
export function alsoRetrieved<T extends Passage>(passages: T[], chosen: readonly T[]): T[] {
  if (!chosen.length) return [];
  return passages.slice(0, CITED_TOP).filter((p) => !chosen.includes(p) && (p.outline || !looksLikeNavigation(p.text)));
}
