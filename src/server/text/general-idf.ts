/**
 * How informative a Chinese word is in general Chinese text, from the word list and inverse
 * document frequencies that ship inside the `@node-rs/jieba` package (jieba's dict.txt and idf.txt,
 * ~270k words, from a general news and web corpus; nothing is fetched at run time). A question's
 * tokens are weighted by it in the second stage (retrieval/rerank.ts): 马上 / 还要 / 以后 (said in
 * any text) weigh less than 宏包 / 镜像 / 方框, whatever a small document collection's own counts say.
 * Loaded on first use (~0.3 s, ~40 MB).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Jieba } from '@node-rs/jieba';

const HAN = /\p{Script=Han}/u;

interface General {
  jieba: Jieba;
  idf: Map<string, number>;
}
let loaded: General | undefined;

function general(): General {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve('@node-rs/jieba/package.json'));
  const jieba = Jieba.withDict(fs.readFileSync(path.join(dir, 'dict.txt')));
  const idf = new Map<string, number>();
  for (const line of fs.readFileSync(path.join(dir, 'idf.txt'), 'utf8').split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) idf.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  loaded = { jieba, idf };
  return loaded;
}

/** The inverse document frequency above which a word counts as fully informative (jieba's idf.txt: median 11.95, 的 0.9, 升级 6.7, 镜像 9.8). */
export const INFORMATIVE_IDF = 10;

/**
 * The words jieba cuts a question into (its dictionary, and its HMM for words it lacks: 宏包,
 * 刚装), for telling a question's words from the character pairs across two of them (级宏 in 升级宏包).
 */
export function generalWords(question: string): Set<string> {
  return new Set(general().jieba.cut(question.normalize('NFKC'), true).filter((w) => HAN.test(w)));
}

/**
 * A Chinese token's informativeness in general text, 0–1: its idf over INFORMATIVE_IDF (capped at
 * 1); a word jieba's corpus never counted (a term of art, a name) is 1; a character pair that is no
 * word of the question (not in `words`, not in the word list) is `pair`. Tokens without Han characters are 1.
 */
export function informativeness(token: string, words: Set<string>, pair: number): number {
  if (!HAN.test(token)) return 1;
  const idf = general().idf.get(token);
  if (idf !== undefined) return Math.min(1, idf / INFORMATIVE_IDF);
  return words.has(token) ? 1 : pair;
}
