import { z } from 'zod';
import data from './dictionary.json';

/** One compound of the bundled table: its Chinese and English names, systematic name and SMILES. */
const dictionaryEntry = z.object({
  zh: z.array(z.string().min(1)),
  en: z.array(z.string().min(1)).min(1),
  iupac: z.string().min(1),
  smiles: z.string().min(1),
});
export type DictionaryEntry = z.infer<typeof dictionaryEntry>;

/** Every entry of dictionary.json (sources and licence are named in that file). */
export const DICTIONARY_ENTRIES: readonly DictionaryEntry[] = z.object({ entries: z.array(dictionaryEntry) }).parse(data).entries;

/**
 * The form names are matched in: NFKC (full-width letters and digits become ASCII), lower case,
 * without spaces, hyphens, apostrophes and middle dots ("Acetyl-salicylic acid" = "acetylsalicylic acid").
 */
export function normaliseName(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\-‐‑‒–—_'’·•]+/g, '');
}

/** Trade, trivial, INN and Chinese names → entry, built once. */
export function createDictionary(entries: readonly DictionaryEntry[] = DICTIONARY_ENTRIES) {
  const byName = new Map<string, DictionaryEntry>();
  for (const entry of entries) {
    for (const name of [...entry.zh, ...entry.en, entry.iupac]) {
      const key = normaliseName(name);
      if (key && !byName.has(key)) byName.set(key, entry);
    }
  }
  // Longest first, so "乙酰水杨酸" is found before "水杨酸" inside a sentence.
  const chineseNames = [...new Set(entries.flatMap((e) => e.zh))].sort((a, b) => b.length - a.length);
  return {
    size: entries.length,
    lookup(name: string): DictionaryEntry | undefined {
      return byName.get(normaliseName(name));
    },
    /** The Chinese names of the table found in a sentence (阿司匹林的ADMET性质 → 阿司匹林), longest match first, without overlaps. */
    mentions(text: string): string[] {
      const found: string[] = [];
      let rest = text.normalize('NFKC');
      for (const name of chineseNames) {
        if (name.length < 2 || !rest.includes(name)) continue;
        found.push(name);
        rest = rest.split(name).join('\u0000');
      }
      return found;
    },
  };
}

export type Dictionary = ReturnType<typeof createDictionary>;
