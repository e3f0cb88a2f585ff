/**
 * Activities of a medicinal chemistry paper or patent: IC50, Ki, Kd, EC50 and % inhibition at a
 * concentration, read from activity tables (`Block.rows` of `parsing/pdf-layout.ts`, for text
 * pages and OCR'd pages alike) and from sentences ("IC50 = 12 nM", "对 CDK2 的 IC50 为 45 nM"),
 * each with its target, relation, value and unit, the value in nM where the unit allows, and the
 * compound's label key (`labels.ts`) that links it to a structure of the same document.
 *
 * Normalisation to nM: pM × 0.001, nM × 1, μM (µM, uM, μmol/L) × 1000, mM × 10⁶, M × 10⁹.
 * A pIC50 / pKi / pKd / pEC50 value p is stored as the measure itself (IC50, …) with unit `pIC50`
 * (etc.), `value` = p as printed and `valueNm` = 10^(9 − p); its relation is turned around
 * (pIC50 > 7 is IC50 < 100 nM). % inhibition has unit `%`, no nM value and its concentration
 * ("10 μM") when the header or sentence gives one.
 *
 * Table rows carry a box estimated from the table's box: the table's height shared equally by its
 * rows (layout keeps one box per table, and table rows are lines of one size).
 *
 * Pure functions over plain data; no I/O.
 */
import type { Block, Box } from '../pdf-layout.js';
import { normaliseLabel } from '../../text/compound-label';

export const MEASURES = ['IC50', 'Ki', 'Kd', 'EC50', 'inhibition'] as const;
export type Measure = (typeof MEASURES)[number];
export const RELATIONS = ['=', '<', '>', '~', '<=', '>='] as const;
export type Relation = (typeof RELATIONS)[number];

/** One activity as the parse worker reports it (`ParseResult.activities`), stored in `doc_activities`. */
export interface ParsedActivity {
  page: number | null;
  bbox: Box | null;
  /** The compound's label key (labels.ts), or null when the row or sentence names none. */
  label: string | null;
  target: string | null;
  measure: Measure;
  relation: Relation;
  /** The value as printed (a pIC50 stays a pIC50). */
  value: number;
  /** nM, μM, pM, mM, M, %, pIC50, pKi, …; '' when neither cell nor header gives one. */
  unit: string;
  valueNm: number | null;
  /** The test concentration of a % inhibition ("10 μM"), else null. */
  concentration: string | null;
  source: 'table' | 'text';
  /** The table row (cells joined by " | ") or the sentence it was read from. */
  text: string;
}

const TO_NM: Record<string, number> = { pM: 1e-3, nM: 1, μM: 1e3, mM: 1e6, M: 1e9 };

/** The unit as stored (nM, μM, …) of a unit as printed, or null when it is no concentration unit. */
export function concentrationUnit(raw: string): string | null {
  const u = raw.normalize('NFKC').replace(/\s+/g, '');
  const m = /^([pnuμm]?)(?:M|mol\/L|mol·L-1|mol\/l)$/.exec(u);
  if (!m) return null;
  const prefix = m[1] === 'u' ? 'μ' : m[1]!;
  return `${prefix}M`;
}

/** The value in nM of `value` in `unit`, or null when the unit is not a concentration. */
export function toNanomolar(value: number, unit: string): number | null {
  const factor = TO_NM[unit];
  return factor === undefined ? null : round(value * factor);
}

const round = (x: number) => Number(x.toPrecision(6));

/** No activity is over 1 M: such a value is a misread unit (OCR's "6722M" for "6722 nM"), not stored. */
const MAX_NM = 1e9;

const RELATION_OF: Record<string, Relation> = { '<': '<', '＜': '<', '>': '>', '＞': '>', '≤': '<=', '<=': '<=', '⩽': '<=', '≥': '>=', '>=': '>=', '⩾': '>=', '~': '~', '∼': '~', '≈': '~', '～': '~', '=': '=' };
const FLIPPED: Record<Relation, Relation> = { '=': '=', '~': '~', '<': '>', '>': '<', '<=': '>=', '>=': '<=' };
const REL = '(<=|>=|≤|≥|⩽|⩾|<|>|＜|＞|~|∼|≈|～)';
const NUM = '(\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?|\\.\\d+)';
const UNIT = '(?<![A-Za-z])(pM|nM|μM|µM|uM|mM|M|[pnuμµm]?mol\\s*/\\s*[lL])(?![A-Za-z])';
/** A quantity with its unit ("10 μM"), not the digits of a word ("T790M"). */
const QTY = `(?<![A-Za-z0-9.])${NUM}\\s*${UNIT}`;
const number = (s: string) => Number(s.replace(/,/g, ''));
/** A relation written as words before a value ("IC50 above 1 μM", "IC50 小于 10 nM"). */
const WORD_REL = '(?:not\\s+(?:less|lower|more|greater|higher)\\s+than|(?:less|lower|more|greater|higher)\\s+than|above|below|over|under|exceeding|不低于|不小于|不高于|不大于|大于|小于|高于|低于|超过)';
/** The relation of the words in `text` (WORD_REL), or null when it has none. */
function wordRelation(text: string): Relation | null {
  if (/不低于|不小于|not\s+(?:less|lower)\s+than/iu.test(text)) return '>=';
  if (/不高于|不大于|not\s+(?:more|greater|higher)\s+than/iu.test(text)) return '<=';
  // A number may follow straight on ("above10000nM", as OCR reads it).
  if (/大于|高于|超过|\b(?:above|over|exceeding)(?![A-Za-z])|(?:more|greater|higher)\s+than/iu.test(text)) return '>';
  if (/小于|低于|\b(?:below|under)(?![A-Za-z])|(?:less|lower)\s+than/iu.test(text)) return '<';
  return null;
}

/**
 * What a measure word in a header or sentence stands for, and whether it is a p-value (pIC50): as
 * MEASURE_WORD finds it, with a leading %, subscript digits (IC₅₀) and a 0 read as o (IC5o).
 */
function measureOf(word: string): { measure: Measure; negLog: boolean } | null {
  const w = word.normalize('NFKC').replace(/[\s_%]/g, '').replace(/5[oO]$/, '50').replace(/^(p?K)[,;]$/, '$1i');
  const m = /^(p?)(IC50|EC50|Ki|Kd|KD|KI)$/i.exec(w);
  if (!m) return /inhibition|inh\.?|抑制率/i.test(w) ? { measure: 'inhibition', negLog: false } : null;
  const base = m[2]!.toUpperCase();
  const measure: Measure = base === 'IC50' ? 'IC50' : base === 'EC50' ? 'EC50' : base === 'KI' ? 'Ki' : 'Kd';
  return { measure, negLog: m[1]!.toLowerCase() === 'p' };
}

// IC50 and EC50 also straight after a word, as OCR glues them ("PI3KaIC50", "c-MetIC50", "anIC50"),
// or with the 0 read as a letter ("IC5o"), "inhibition" straight after a target's name ("BRAFinhibition"),
// and a Ki whose subscript i OCR read as a comma or semicolon before its unit ("BRAF K, (μM)").
const MEASURE_WORD = /((?<![A-Za-z])p?K[,;](?=\s*[(（])|(?<![A-Za-z])p?(?:IC|EC)\s?5[0oO]|(?<=[A-Za-z0-9α-ω])(?:IC|EC)5[0oO]|(?<![A-Za-z])(?:p?IC₅₀|p?EC₅₀|p?K[iIdD](?![a-zA-Z])|%\s*inhibition|inhibition|inh\.|抑制率)|(?<=[A-Z0-9α-ω])inhibition)/gu;
/** Words that look like targets in a header or sentence but are not. */
const NOT_TARGET = /^(?:the|a|an|of|compounds?|cpds?|this|these|its|their|value|values|activity|activities|assay|cells?|data|nM|μM|uM|pM|mM|M|IC50|EC50|Ki|Kd|SD|SEM|mean|n|ND|NT|and|or|in|at|with|was|were|is|are|table|entry|example|化合物|实施例)$/i;
const TARGET_TOKEN = /[A-Za-z][A-Za-z0-9α-ωΑ-Ω/-]{0,19}(?:\s(?:[A-Z]\d{2,4}[A-Z]|WT|wt|mutant))?/u;

/** A plausible target name: a gene or protein symbol, a cell line (CDK2, EGFR T790M, hERG, HCT116, PI3Kα). */
function cleanTarget(raw: string | undefined): string | null {
  if (!raw) return null;
  const t = raw
    .normalize('NFKC')
    .replace(/^[\s(（[]+|[\s)）\],，:：;；.]+$/g, '')
    .replace(/(?:激酶|酶|受体|蛋白)$/u, '')
    // A word OCR glued to a symbol ("EGFRwith"), with what it glued on after it ("EGFRwithanIC50above1").
    .replace(/(?<=^[A-Z][A-Z0-9-]*[A-Z0-9])(?:with|and|was|were|for|from|in|at|by|as|is|on|to|of)(?:[a-z].*)?$/u, '')
    .trim();
  if (t.length < 2 || t.length > 30 || NOT_TARGET.test(t)) return null;
  if (!/[A-Z]/.test(t) && !/^h[A-Z]/.test(t)) return null; // gene and protein symbols carry capitals
  if (!/[A-Za-z]/.test(t) || measureOf(t) || concentrationUnit(t)) return null;
  if (normaliseLabel(t) !== null) return null;
  return greek(t);
}

/**
 * A symbol's Greek isoform letter read as Latin (OCR reads PI3Kα as "PI3Ka", GSK3β as "GSK3b"): a
 * capital or digit followed by one final a, b, g or d is the Greek letter.
 */
const GREEK: Record<string, string> = { a: 'α', b: 'β', g: 'γ', d: 'δ' };
const greek = (t: string) => t.replace(/(?<=[A-Z0-9][A-Z0-9]*[A-Z0-9])([abgd])$/u, (ch) => GREEK[ch]!);

/** The target a sentence or caption names: "against CDK2", "对 CDK2 的", "CDK2 inhibitory", "CDK2 IC50". */
export function targetIn(text: string): string | null {
  const s = text.normalize('NFKC');
  const patterns = [
    // The word may follow a label straight on ("compound 14jinhibited", as OCR glues it).
    new RegExp(`(?:\\b|(?<=\\d[a-z]?))(?:against|towards?|on|for|versus|vs\\.?|inhibit(?:ion|ors?|ing)?\\s+of|inhibit(?:s|ed)?)\\s+(?:the\\s+)?(${TARGET_TOKEN.source})`, 'iu'),
    new RegExp(`(?:对|针对|抑制)\\s*(${TARGET_TOKEN.source})\\s*(?:激酶|酶|受体|蛋白)?\\s*(?:的|具有|有|抑制|活性)`, 'u'),
    new RegExp(`(${TARGET_TOKEN.source})\\s*(?:激酶|酶)?\\s*(?:[Ii]nhibitory|[Ii]nhibition|[Bb]inding|抑制|活性|\\(?p?(?:IC|EC)\\s?50|\\(?p?K[id]\\b)`, 'u'),
  ];
  for (const re of patterns) {
    const all = new RegExp(re.source, `g${re.flags}`);
    for (let m = all.exec(s); m; m = all.exec(s)) {
      const t = cleanTarget(m[1]);
      if (t) return t;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Tables

interface Column {
  measure: Measure;
  negLog: boolean;
  unit: string | null;
  target: string | null;
  concentration: string | null;
}

/** A header cell's measure, unit, target and concentration, or null when it is no activity column. */
export function columnOf(header: string): Column | null {
  const h = header.normalize('NFKC').replace(/\s+/g, ' ').trim();
  const word = new RegExp(MEASURE_WORD.source, 'u').exec(h);
  if (!word) return null;
  const kind = measureOf(word[1]!);
  if (!kind) return null;
  let unit: string | null = null;
  let concentration: string | null = null;
  // The concentration, also glued to its "at" as OCR reads it ("inhibitionat1μM").
  const conc = new RegExp(`(?:at|@|于|在)?\\s*(?:(?<=at|@|于|在)|(?<![A-Za-z0-9.]))${NUM}\\s*${UNIT}`, 'u').exec(h);
  if (kind.measure === 'inhibition') {
    if (conc) concentration = `${conc[1]} ${concentrationUnit(conc[2]!) ?? conc[2]}`;
    unit = '%';
  } else if (kind.negLog) {
    unit = `p${kind.measure}`;
  } else {
    const u = new RegExp(`[(（\\[/,，]\\s*${UNIT}\\s*[)）\\]]?|\\b${UNIT}\\s*$`, 'u').exec(h);
    if (u) unit = concentrationUnit(u[1] ?? u[2]!);
  }
  // The target: what is left once the measure, the unit and the concentration are taken out.
  const rest = h
    .replace(word[0], ' ')
    .replace(conc?.[0] ?? '\u0000', ' ')
    .replace(new RegExp(`[(（\\[]?\\s*(?<![0-9])${UNIT}\\s*[)）\\]]?`, 'gu'), ' ')
    .replace(/[(（][^)）]*[)）]/g, (m) => (cleanTarget(m) ? m : ' '))
    .replace(/\b(?:at|@|value|values|mean|avg|of|against|for)\b|%|\/|:|：|的|值/gi, ' ')
    .trim();
  const target = rest.split(/\s+/).length <= 3 ? cleanTarget(rest) ?? cleanTarget(rest.split(/\s+/)[0]) : null;
  return { ...kind, unit, target, concentration };
}

/** A table cell's relation and value (and the unit printed in it), or null for "ND", "–", "NT", text. */
export function cellValue(cell: string): { relation: Relation; value: number; unit: string | null } | null {
  const c = cell.normalize('NFKC').replace(/\s+/g, ' ').trim();
  const m = new RegExp(`^${REL}?\\s*${NUM}\\s*(?:(?:±|\\+/-|\\+-)\\s*${NUM.replace('(', '(?:')})?\\s*(?:${UNIT}|(%))?(?:\\s*[(（][^)）]*[)）])?\\s*[a-z*†‡§]?$`, 'u').exec(c);
  if (!m) return null;
  const value = number(m[2]!);
  if (!Number.isFinite(value)) return null;
  return { relation: m[1] ? RELATION_OF[m[1]]! : '=', value, unit: m[3] ? concentrationUnit(m[3]) : m[4] ? '%' : null };
}

const LABEL_HEADER = /^(?:compounds?|cpds?\.?|cmpds?\.?|comp\.?|examples?|ex\.?|entry|no\.?|#|ID|化合物(?:编号|序号)?|实施例|编号|序号)$/i;

/** The caption of a table: the nearest "Table N …" / "表 N …" block on its page, above it or right below. */
function captionOf(table: Block, blocks: Block[]): string | null {
  let best: { text: string; d: number } | null = null;
  for (const b of blocks) {
    if (b === table || b.page !== table.page || b.kind === 'table') continue;
    if (!/^(?:table|tab\.|表)\s*\d*/i.test(b.text.trim())) continue;
    const above = b.bbox[1] - table.bbox[3];
    const below = table.bbox[1] - b.bbox[3];
    const d = above >= -4 ? above : below >= -4 ? below + 100 : Infinity;
    if (d < 400 && (!best || d < best.d)) best = { text: b.text, d };
  }
  return best?.text ?? null;
}

/**
 * A bare label set apart next to a row whose label cell is empty: OCR may read a table's label
 * cell as a line of its own, outside the table's box (a table cut in two around it). The block
 * whose text is only a label, on the table's page, starting near the table's left edge (the label
 * column is its first), its middle within one row's height of the row's; each block one row at most.
 */
function looseLabels(table: Block, blocks: Block[], rows: number, empty: number[]): Map<number, string> {
  const out = new Map<number, string>();
  if (!empty.length) return out;
  const [x0, y0, x1, y1] = table.bbox;
  const rowHeight = (y1 - y0) / rows;
  const taken = new Set<Block>();
  for (const r of empty) {
    const middle = y1 - (r + 0.5) * rowHeight;
    let best: { b: Block; key: string; d: number } | null = null;
    for (const b of blocks) {
      if (b === table || taken.has(b) || b.page !== table.page || b.kind === 'table') continue;
      const key = normaliseLabel(b.text);
      if (!key || Math.abs(b.bbox[0] - x0) > 0.1 * (x1 - x0) + 10) continue;
      const d = Math.abs((b.bbox[1] + b.bbox[3]) / 2 - middle);
      if (d <= rowHeight && (!best || d < best.d)) best = { b, key, d };
    }
    if (best) {
      taken.add(best.b);
      out.set(r, best.key);
    }
  }
  return out;
}

/**
 * The activities of one table block; `blocks` are the document's blocks (for the caption and a label
 * set apart). `header`: the header rows of the table before it, for a table without one of its own
 * (the rest of a table layout or OCR cut in two, or one continued on the next page), used when the
 * rows have as many cells as the header.
 */
export function tableActivities(table: Block, blocks: Block[] = [], header: string[][] = []): ParsedActivity[] {
  const own = (table.rows ?? []).map((r) => r.map((c) => c.trim()));
  const width = Math.max(0, ...own.map((r) => r.length));
  const continued = own.length > 0 && !own[0]!.some((c, i) => i > 0 && cellValue(c)) ? [] : header.filter((h) => h.length === width);
  const rows = continued.length === header.length && header.length ? [...header, ...own] : own;
  const lead = rows.length - own.length;
  if (rows.length < 2) return [];
  // Header rows: the leading rows without any value cell; a header cell spanning several columns
  // (a target above "IC50 | Ki") carries to the empty cells to its right.
  let headerCount = 0;
  while (headerCount < rows.length - 1 && !rows[headerCount]!.some((c, i) => i > 0 && cellValue(c))) headerCount++;
  if (headerCount === 0) return [];
  const headers: string[] = Array.from({ length: width }, () => '');
  for (let r = 0; r < headerCount; r++) {
    let carry = '';
    for (let i = 0; i < width; i++) {
      const cell = rows[r]![i] ?? '';
      if (cell) carry = cell;
      const piece = cell || (r < headerCount - 1 && i > 0 ? carry : '');
      if (piece) headers[i] = headers[i] ? `${headers[i]} ${piece}` : piece;
    }
  }
  const columns = headers.map((h) => columnOf(h));
  if (!columns.some(Boolean)) return [];
  // The label column: a header naming compounds, else the first column whose cells are mostly labels.
  const body = rows.slice(headerCount);
  const labelShare = (i: number) => body.filter((r) => normaliseLabel(r[i] ?? '') !== null).length / body.length;
  let labelCol = headers.findIndex((h, i) => LABEL_HEADER.test(h.normalize('NFKC').replace(/\s+/g, ' ').trim()) && !columns[i]);
  if (labelCol < 0) labelCol = headers.findIndex((_, i) => !columns[i] && labelShare(i) >= 0.5);
  const caption = captionOf(table, blocks);
  const captionTarget = caption ? targetIn(caption) : null;
  const captionConc = caption ? new RegExp(`(?:at|@|于|在)\\s*${QTY}`, 'u').exec(caption.normalize('NFKC')) : null;
  const [x0, y0, x1, y1] = table.bbox;
  // Row boxes: the table's own rows share its box.
  const rowHeight = (y1 - y0) / own.length;
  const ownRow = (k: number) => headerCount + k - lead;
  // Rows with values whose label cell is empty: their label may be a line set apart beside the table.
  const emptyLabel = labelCol === 0 ? body.flatMap((row, k) => (!(row[0] ?? '') && row.some((c, i) => i > 0 && columns[i] && cellValue(c)) ? [ownRow(k)] : [])) : [];
  const apart = looseLabels(table, blocks, own.length, emptyLabel);
  const out: ParsedActivity[] = [];
  body.forEach((row, k) => {
    const r = ownRow(k);
    const label = labelCol >= 0 ? (normaliseLabel(row[labelCol] ?? '') ?? apart.get(r) ?? null) : null;
    const top = y1 - r * rowHeight;
    const bbox: Box = [x0, round(top - rowHeight), x1, round(top)];
    row.forEach((cell, i) => {
      const col = columns[i];
      if (!col || i === labelCol) return;
      const v = cellValue(cell) ?? tildeAsDash(cell, col);
      if (!v) return;
      const activity = fromValue(col, v);
      if (!activity) return;
      const concentration = col.concentration ?? (col.measure === 'inhibition' && captionConc ? `${captionConc[1]} ${concentrationUnit(captionConc[2]!)}` : null);
      out.push({
        page: table.page,
        bbox,
        label,
        target: col.target ?? captionTarget,
        ...activity,
        concentration,
        source: 'table',
        text: [headers.join(' | '), row.join(' | ')].join('\n'),
      });
    });
  });
  return out;
}

/** The header rows of a table of activities (its leading rows without a value), or none. */
export function headerRows(table: Block): string[][] {
  const rows = (table.rows ?? []).map((r) => r.map((c) => c.trim()));
  let n = 0;
  while (n < rows.length - 1 && !rows[n]!.some((c, i) => i > 0 && cellValue(c))) n++;
  return n && rows.slice(0, n).some((r) => r.some((c) => columnOf(c))) ? rows.slice(0, n) : [];
}

/**
 * A concentration cannot be negative: "-17" in an IC50, Ki, Kd or EC50 column (not a pIC50 or %
 * inhibition one) is "~17" with its tilde read as a dash, as OCR reads a scanned "~".
 */
function tildeAsDash(cell: string, col: Column) {
  const c = cell.normalize('NFKC').trim();
  if (col.measure === 'inhibition' || col.negLog || !/^[-‐–−]\s*\d/u.test(c)) return null;
  return cellValue(c.replace(/^[-‐–−]/u, '~'));
}

/** Relation, value, unit and nM value of a cell in a column. */
function fromValue(col: Column, v: { relation: Relation; value: number; unit: string | null }) {
  if (col.measure === 'inhibition') {
    if (v.unit && v.unit !== '%') return null;
    return { measure: col.measure, relation: v.relation, value: v.value, unit: '%', valueNm: null };
  }
  if (col.negLog) {
    return { measure: col.measure, relation: FLIPPED[v.relation], value: v.value, unit: `p${col.measure}`, valueNm: round(10 ** (9 - v.value)) };
  }
  if (v.unit === '%') return null;
  const unit = v.unit ?? col.unit ?? '';
  const valueNm = toNanomolar(v.value, unit);
  if (valueNm !== null && valueNm > MAX_NM) return null;
  return { measure: col.measure, relation: v.relation, value: v.value, unit, valueNm };
}

// ---------------------------------------------------------------------------------------------
// Sentences

const LABEL_IN_TEXT = /(?:化合物|实施例|compounds?|cpds?\.?|cmpds?\.?|examples?)\s*[(（]?\s*((?:[IVX]{1,4}-|[A-Z]{1,2}-)?\d{1,4}[a-z]{0,2}(?:-\d{1,3})?[′″'’]{0,3})(?![\d.])/giu;

/** The sentences of a passage (Chinese and English punctuation; decimal points are not ends). */
function sentencesOf(text: string): string[] {
  return text
    .normalize('NFKC')
    .split(/(?<=[。；;!?！？])|(?<=[a-z)\]%]\.)\s+(?=[A-Z(化本该])|\n{2,}/u)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s.length >= 6);
}

/** The label nearest before `at` in the sentence (a prefix word is needed: "compound 12a", "化合物 12a"). */
function labelBefore(sentence: string, at: number): string | null {
  let found: string | null = null;
  const re = new RegExp(LABEL_IN_TEXT.source, 'giu');
  for (let m = re.exec(sentence); m && m.index < at; m = re.exec(sentence)) found = normaliseLabel(m[1]!);
  if (found) return found;
  // "12a: IC50 = …" at the start of a sentence, or a label right after the value ("… (compound 12a)").
  const lead = /^([A-Za-z]{0,2}-?\d{1,4}[a-z]{0,2}[′'’]{0,2})\s*[:：]/u.exec(sentence);
  if (lead) return normaliseLabel(lead[1]!);
  re.lastIndex = at;
  const after = re.exec(sentence);
  return after && after.index - at < 40 ? normaliseLabel(after[1]!) : null;
}

/** The activities written in a passage of text ("IC50 = 12 nM", "Ki 0.3 μM", "% inhibition at 10 μM: 85%"). */
export function sentenceActivities(text: string, where: { page: number | null; bbox: Box | null } = { page: null, bbox: null }): ParsedActivity[] {
  const out: ParsedActivity[] = [];
  for (const sentence of sentencesOf(text)) {
    if (!new RegExp(MEASURE_WORD.source, 'u').test(sentence)) continue;
    const target = targetIn(sentence);
    const words = [...sentence.matchAll(new RegExp(MEASURE_WORD.source, 'gu'))];
    words.forEach((w, k) => {
      const kind = measureOf(w[1]!);
      if (!kind) return;
      const start = w.index + w[0].length;
      const end = Math.min(sentence.length, words[k + 1]?.index ?? sentence.length, start + 60);
      const base = { page: where.page, bbox: where.bbox, label: labelBefore(sentence, w.index), target, source: 'text' as const, text: sentence };
      if (kind.measure === 'inhibition') {
        // The percentage and the test concentration within the words around "inhibition".
        const from = Math.max(0, w.index - 40);
        const around = sentence.slice(from, Math.min(sentence.length, start + 60));
        const pct = new RegExp(`${REL}?\\s*${NUM}\\s*%`, 'u').exec(around);
        if (!pct) return;
        const conc = new RegExp(QTY, 'u').exec(around);
        out.push({ ...base, measure: 'inhibition', relation: pct[1] ? RELATION_OF[pct[1]]! : '=', value: number(pct[2]!), unit: '%', valueNm: null, concentration: conc ? `${conc[1]} ${concentrationUnit(conc[2]!)}` : null });
        return;
      }
      // "IC50 = 12 nM", "IC50 of 12 nM", "IC50 值为 45 nM", "IC50 (CDK2): < 10 nM", "pIC50 7.2".
      const tail = sentence.slice(start, end);
      const unitPart = kind.negLog ? '' : `\\s*${UNIT}`;
      const m = new RegExp(`^\\s*(?:[(（][^)）]{0,20}[)）])?(?:\\s*(?:values?|值|of|for\\s+\\S+|was|were|is|are|=|:|：|为|是|达到|约为|约|达|around|approximately|about|against\\s+\\S+))*(?:\\s*${WORD_REL})?\\s*${REL}?\\s*${NUM}${unitPart}(?![A-Za-z0-9])`, 'u').exec(tail);
      if (!m) return;
      let relation: Relation = m[1] ? RELATION_OF[m[1]]! : (wordRelation(m[0]) ?? (/约|around|approximately|about/u.test(m[0]) ? '~' : '='));
      const value = number(m[2]!);
      if (kind.negLog) {
        relation = FLIPPED[relation];
        out.push({ ...base, measure: kind.measure, relation, value, unit: `p${kind.measure}`, valueNm: round(10 ** (9 - value)), concentration: null });
        return;
      }
      const unit = concentrationUnit(m[3]!) ?? m[3]!;
      const valueNm = toNanomolar(value, unit);
      if (valueNm !== null && valueNm > MAX_NM) return;
      out.push({ ...base, measure: kind.measure, relation, value, unit, valueNm, concentration: null });
    });
  }
  return out;
}

/** Activities cut to this many per document: a table of a 300-page patent stays bounded. */
export const MAX_ACTIVITIES = 20_000;

/** Every activity of a document's blocks: its tables' rows and its sentences, in page order. */
export function extractActivities(blocks: Block[]): ParsedActivity[] {
  const out: ParsedActivity[] = [];
  // The header of the last table of activities, for the rest of it cut off (on its page or the next).
  // On its page, the rest starts within a few rows' height under it.
  type Last = { page: number; bottom: number; row: number; header: string[][] };
  let last = null as Last | null;
  for (const b of blocks) {
    if (out.length >= MAX_ACTIVITIES) break;
    if (b.kind === 'table' && b.rows) {
      const prev = last;
      const near = prev !== null && (b.page === prev.page + 1 || (b.page === prev.page && prev.bottom - b.bbox[3] <= 3 * prev.row));
      const found = tableActivities(b, blocks, near ? prev.header : []);
      const header = headerRows(b);
      const row = (b.bbox[3] - b.bbox[1]) / Math.max(1, b.rows.length);
      if (header.length) last = { page: b.page, bottom: b.bbox[1], row, header };
      else if (found.length && prev) last = { ...prev, page: b.page, bottom: b.bbox[1] };
      if (found.length) {
        out.push(...found);
        continue;
      }
    }
    out.push(...sentenceActivities(b.text, { page: b.page, bbox: b.bbox }));
  }
  // A sentence's label as its document's tables write it, when OCR dropped its prime ("化合物28e" for
  // the table's "28e′") or glued the next word's letter to it ("compound 14jinhibited").
  const tabled = new Set(out.flatMap((a) => (a.source === 'table' && a.label ? [a.label] : [])));
  for (const a of out) {
    if (a.source !== 'text' || !a.label || tabled.has(a.label)) continue;
    const key = a.label;
    const like = [...tabled].filter((t) => (t.startsWith(key) && /^'+$/.test(t.slice(key.length))) || (key.startsWith(t) && /^\d/.test(t) && /^[a-z]$/.test(key.slice(t.length))));
    if (like.length === 1) a.label = like[0]!;
  }
  return out.slice(0, MAX_ACTIVITIES);
}
