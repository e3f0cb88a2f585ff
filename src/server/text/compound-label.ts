/**
 * Compound labels of a medicinal chemistry paper or patent: "化合物 12a", "compound 7′",
 * "Example 23", "cpd 4b", or a bare "12a" under a drawing or in a table's first column.
 *
 * A label's key (what `normaliseLabel` returns and what `doc_structures.label` /
 * `doc_activities.label` hold) is the compound's identifier alone, without its prefix word,
 * lower-cased, primes written as ASCII apostrophes: "化合物 12a" → `12a`, "Compound 7′" → `7'`,
 * "Example 23" / "实施例 23" → `23`, "化合物 I-3" → `i-3`. Papers and patents name a compound
 * by one series (a table's "Cpd." column holds the same numbers as the labels under the drawings,
 * a patent's table lists examples by their number), so dropping the prefix is what lets a table
 * row and a drawing meet. Linking is by `(doc_id, key)`.
 *
 * A pure function of text, shared by the structure reading (parsing/chemistry/labels.ts), the
 * activity extraction and the activity filters of molecule search.
 */
/** Words (Chinese and English) that may stand before a compound's identifier. */
export const LABEL_PREFIX =
  '(?:化合物|实施例|实例|例|化合物编号|编号|compounds?|cmpds?\\.?|cpds?\\.?|examples?|ex\\.?|no\\.?|#)';
/**
 * The identifier: an optional series (Roman numeral or capital letters and a hyphen, "I-3",
 * "A-12"), one to four digits, up to two letters ("12a", "7bb"), an optional "-N" part
 * ("3-1") and primes.
 */
const IDENT = "((?:[IVX]{1,4}|[A-Z]{1,2})-?)?(\\d{1,4})([a-z]{0,2})(-\\d{1,3})?([′″‴'’]{0,3})";
const LABEL = new RegExp(`^[(（\\[【]?\\s*(?:${LABEL_PREFIX}\\s*)?${IDENT}\\s*[)）\\]】]?[.:：,，;；]?$`, 'iu');

/**
 * The canonical key of a label written as `raw`, or null when `raw` is not (only) a compound
 * label. Accepts an optional prefix word (化合物, 实施例, compound, cpd, example, ex., no.) and
 * brackets around the label; rejects anything else around it (a caption, a sentence).
 */
export function normaliseLabel(raw: string): string | null {
  const text = raw
    .normalize('NFKC')
    .replace(/[*_`]/g, '') // Markdown emphasis around a bold label
    .replace(/\s+/g, ' ')
    .trim();
  if (!text || text.length > 40) return null;
  const m = LABEL.exec(text);
  if (!m) return null;
  const [, series = '', digits, letters = '', part = '', primes = ''] = m;
  // A bare year or page number is no label: 4-digit numbers need a prefix word.
  const hasPrefix = new RegExp(`^[(（\\[【]?\\s*${LABEL_PREFIX}`, 'iu').test(text);
  if (!hasPrefix && !series && digits!.length > 3) return null;
  // Series letters without a hyphen ("IC50") are not labels: "I" series need the hyphen.
  if (series && !series.endsWith('-') && !hasPrefix) return null;
  const primeKey = primes.replace(/[′'’]/g, "'").replace(/″/g, "''").replace(/‴/g, "'''");
  return `${series.toLowerCase()}${String(Number(digits))}${letters.toLowerCase()}${part}${primeKey}`;
}
