import { tokens } from '../text/segment';
import type { Citable } from './engine';

/**
 * The citation check of a model's answer: every `[n]` the model writes is checked,
 * as the answer streams, against the passage it points to, by rules —
 * - `n` must be one of the passages (or online results) the model was given;
 * - every number of the sentence (with its unit, when it has one) must appear in the passage;
 * - the sentence must share enough of its words with the passage (only words that can be
 *   compared: Chinese words when the passage has Chinese text, Latin words, names and formulas
 *   otherwise — a Chinese sentence citing an English passage is judged by its names and numbers).
 * A marker that fails is removed from the text before anyone sees it (a marker of several numbers
 * keeps the ones that pass), so no `[n]` of an answer opens a passage that does not support it;
 * what was removed is said in one notice after the answer.
 */

/** Why a citation was removed. */
export type CitationProblem =
  | { n: number; reason: 'out_of_range' }
  | { n: number; reason: 'number_missing'; value: string }
  | { n: number; reason: 'unsupported' };

/** The verdict on one sentence and one passage's text. */
export type Support = { ok: true } | { ok: false; reason: 'number_missing'; value: string } | { ok: false; reason: 'unsupported' };

/** Below this many comparable words a sentence is not judged by its words (e.g. "综上 [1][2]"). */
const MIN_COMPARABLE = 2;
/** A sentence is supported by a passage holding this share of its comparable words… */
const MIN_SHARE = 0.25;
/** …or this many of them. */
const MIN_SHARED = 4;

const HAN = /\p{Script=Han}/u;
const LATIN_LETTERS = /[A-Za-z]/g;
const HAN_CHARS = /\p{Script=Han}/gu;

/** Words that say nothing about a passage's content (answer phrasing, function words). */
const FILLER = new Set(
  ('根据 依据 文献 资料 段落 原文 答案 如下 回答 可以 因此 所以 以及 其中 这个 一个 我们 进行 使用 通过 表明 显示 研究 发现 认为 指出 提到 说明 '
    + '此外 另外 同时 例如 比如 主要 包括 具有 是否 这些 那些 它们 其他 方面 总之 综上 所述 以上 上述 可能 需要 应该 已经 没有 不是 就是 还是 而且 并且 '
    + 'a an the and or but of to on by for with from into about over than then is are was were been being do does did have has had will would '
    + 'shall should can could may might must what which who when where why how this that these those there here it its they them their '
    + 'we our you your not if so such any some all each very also just according passage shows show states stated').split(' '),
);

/** Bigrams inside a filler word are filler too (根据 → 根据; 综上所述 → 综上, 上所, 所述). */
const FILLER_BIGRAMS = new Set(
  [...FILLER].filter((w) => HAN.test(w)).flatMap((w) => {
    const c = [...w];
    return c.slice(0, -1).map((x, i) => x + c[i + 1]!);
  }),
);

/** Units a number may carry, each with the spellings that mean the same. */
const UNIT_FORMS: Array<[string, string[]]> = [
  ['µg', ['μg', 'µg', 'ug', 'mcg', '微克']],
  ['mg', ['mg', '毫克']],
  ['kg', ['kg', '千克', '公斤']],
  ['g', ['g', '克']],
  ['µl', ['μl', 'µl', 'ul', '微升']],
  ['ml', ['ml', '毫升']],
  ['l', ['l', '升']],
  ['nm', ['nm', '纳米']],
  ['µm', ['μm', 'µm', 'um', '微米']],
  ['mm', ['mm', '毫米']],
  ['nmol', ['nmol']],
  ['µmol', ['μmol', 'µmol', 'umol']],
  ['mmol', ['mmol', '毫摩尔']],
  ['mol', ['mol', '摩尔']],
  ['pM', ['pm']],
  ['nM', ['nm']],
  ['µM', ['μm', 'µm', 'um']],
  ['mM', ['mm']],
  ['°C', ['°c', '℃', '摄氏度', 'oc']],
  ['%', ['%', '％', 'percent', '百分之']],
  ['h', ['h', 'hr', 'hrs', 'hours', 'hour', '小时']],
  ['min', ['min', 'mins', 'minutes', 'minute', '分钟']],
  ['s', ['s', 'sec', 'seconds', '秒']],
  ['d', ['d', 'days', 'day', '天']],
  ['kda', ['kda', '千道尔顿']],
  ['da', ['da', '道尔顿']],
  ['ppm', ['ppm']],
  ['mhz', ['mhz']],
  ['hz', ['hz']],
  ['kcal', ['kcal', '千卡']],
  ['kj', ['kj', '千焦']],
  ['mpa', ['mpa']],
  ['kpa', ['kpa']],
  ['pa', ['pa']],
  ['å', ['å', 'Å', 'angstrom']],
  ['倍', ['倍', 'fold', '-fold']],
];
// One unit spelling → the canonical units it may mean (nm is a length and a concentration; both count).
const UNIT_OF = new Map<string, Set<string>>();
for (const [canon, forms] of UNIT_FORMS) {
  for (const form of forms) {
    const key = form.toLowerCase();
    const set = UNIT_OF.get(key) ?? new Set<string>();
    set.add(canon);
    UNIT_OF.set(key, set);
  }
}
const UNIT_SPELLINGS = [...UNIT_OF.keys()].sort((a, b) => b.length - a.length).map((u) => u.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
/** A number (1,000 · 0.5 · 1.2e-3 · ×10^3 left as its parts) and the unit right after it, if any. */
const NUMBER_UNIT = new RegExp(`(?<![A-Za-z\\d.])(\\d+(?:[.,]\\d+)*)\\s*(${UNIT_SPELLINGS.join('|')})?(?![a-z])`, 'giu');

/** Things a sentence refers to by number that are not claims about the passage: list numbers, pages, section numbers. */
const NOT_CLAIM_NUMBERS = /^\s*(?:#{1,6}\s*)?(?:[-*+]\s+|\d+[.)、](?!\d)\s*|[（(]\d+[)）]\s*)|第\s*\d+\s*[页节章条]|\b(?:p|pp|page|pages)\.?\s*\d+(?:\s*[-–]\s*\d+)?|子问题\s*\d+|(?:表|图|Table|Fig\.?|Figure)\s*\d+/giu;

const normNumber = (s: string) => {
  const plain = s.replace(/,(?=\d{3}\b)/g, '');
  const v = Number(plain);
  return Number.isFinite(v) && /^\d+(?:\.\d+)?$/.test(plain) ? String(v) : plain;
};

/** The numbers of a text, each with the canonical units it carries somewhere ('' for a bare number) and how it was first written with a unit. */
function numbersOf(text: string): Map<string, { units: Set<string>; written: string }> {
  const out = new Map<string, { units: Set<string>; written: string }>();
  for (const m of text.normalize('NFKC').matchAll(NUMBER_UNIT)) {
    const value = normNumber(m[1]!);
    const entry = out.get(value) ?? { units: new Set<string>(), written: m[0].trim() };
    out.set(value, entry);
    const unit = m[2]?.toLowerCase();
    if (unit) {
      for (const u of UNIT_OF.get(unit) ?? []) entry.units.add(u);
      entry.written = m[0].trim();
    } else entry.units.add('');
  }
  return out;
}

/** The content words of a text: tokens without numbers, single characters and filler. */
function contentWords(text: string): Set<string> {
  return new Set(
    tokens(text).filter((t) => {
      if (/^[\d.,]+$/.test(t) || [...t].length < 2) return false;
      return !FILLER.has(t) && !FILLER_BIGRAMS.has(t);
    }),
  );
}

/** Whether a passage's text supports a sentence (the sentence without its citation markers). */
export function supports(sentence: string, passage: string): Support {
  const claim = sentence.replace(NOT_CLAIM_NUMBERS, ' ');
  const have = numbersOf(passage);
  for (const [value, { units, written }] of numbersOf(claim)) {
    const found = have.get(value)?.units;
    if (!found) return { ok: false, reason: 'number_missing', value: written };
    // A number with a unit needs the same unit somewhere in the passage (a bare number there may have its unit in a header).
    const needed = [...units].filter(Boolean);
    if (needed.length && !found.has('') && !needed.some((u) => found.has(u))) return { ok: false, reason: 'number_missing', value: written };
  }
  const passageHan = (passage.match(HAN_CHARS) ?? []).length;
  const passageLatin = (passage.match(LATIN_LETTERS) ?? []).length;
  const words = [...contentWords(claim)].filter((w) => (HAN.test(w) ? passageHan >= 4 : passageLatin >= 4));
  if (words.length < MIN_COMPARABLE) return { ok: true };
  const inPassage = contentWords(passage);
  const shared = words.filter((w) => inPassage.has(w)).length;
  return shared >= MIN_SHARED || shared / words.length >= MIN_SHARE ? { ok: true } : { ok: false, reason: 'unsupported' };
}

/** A complete marker at the start of a string: [1], [1, 2], [1，3、4]. */
const MARKER_AT = /^\[(\d{1,3}(?:\s*[,，、]\s*\d{1,3})*)\]/;
/** The start of what may still become a marker. */
const MARKER_PREFIX = /^\[(?:\d{1,3}(?:\s*[,，、]\s*\d{0,3})*)?$/;
const MARKER_MAX = 256;
/** Where a sentence ends. */
const SENTENCE_END = /[。！？!?；;\n]/;
/** The characters addText must look at one by one: sentence ends, a full stop, a backtick. */
const PLAIN_SPECIAL = /[。！？!?；;\n.`]/;

/**
 * Checks the citations of a text as it streams (see the module comment). `push` hands on the
 * text with unsupported markers removed; text is held back only from a `[` until it is known
 * whether a marker follows (and the spaces before it, dropped with a removed marker). `end`
 * hands on what is held and returns the citations removed.
 */
export function citationGuard(citables: readonly Citable[], out: (text: string) => void) {
  const byN = new Map(citables.map((c) => [c.n, 'url' in c ? `${c.title}\n${c.snippet}` : c.text]));
  const problems: CitationProblem[] = [];
  let held = '';
  let sentence = '';
  let previous = '';

  // A full stop ends a sentence only before a space (not in 4.2 or e.g.): known with the next character.
  let dot = false;
  const close = () => {
    if (!sentence.trim()) return;
    previous = sentence;
    sentence = '';
  };
  // Code is not checked: a[1] in `code` or a ``` block stays as written.
  let line = '';
  let fence = false;
  let tick = false;
  const addText = (text: string) => {
    if (!text) return;
    // Most deltas hold no full stop, sentence end, line end or backtick: taken whole.
    if (!PLAIN_SPECIAL.test(text)) {
      if (dot && /^\s/.test(text)) close();
      dot = false;
      sentence += text;
      line += text;
      return;
    }
    for (const ch of text) {
      if (dot && /\s/.test(ch)) close();
      dot = ch === '.';
      sentence += ch;
      if (SENTENCE_END.test(ch)) close();
      if (ch === '\n') {
        line = '';
        tick = false;
        continue;
      }
      line += ch;
      if (ch !== '`') continue;
      if (line.trimStart() === '```') fence = !fence;
      else if (!fence && !line.trimStart().startsWith('```')) tick = !tick;
    }
  };
  /** The sentence a marker belongs to: the one it ends, or the one before when it follows a full stop. */
  const context = () => (/[\p{L}\p{N}]/u.test(sentence) ? sentence : previous);

  const judge = (list: string): number[] => {
    const kept: number[] = [];
    for (const part of list.split(/[,，、]/)) {
      const n = Number(part.trim());
      if (kept.includes(n)) continue;
      const text = byN.get(n);
      if (text === undefined) {
        problems.push({ n, reason: 'out_of_range' });
        continue;
      }
      const verdict = supports(context(), text);
      if (verdict.ok) kept.push(n);
      else problems.push(verdict.reason === 'number_missing' ? { n, reason: verdict.reason, value: verdict.value } : { n, reason: verdict.reason });
    }
    return kept;
  };

  const run = (input: string, final: boolean) => {
    let text = input;
    let ready = '';
    for (;;) {
      const open = text.indexOf('[');
      if (open < 0) {
        // Spaces at the end are held: a marker may follow (and be removed with them).
        const body = final ? text : text.trimEnd();
        addText(body);
        ready += body;
        text = text.slice(body.length);
        break;
      }
      const before = text.slice(0, open);
      const spaces = before.length - before.trimEnd().length;
      const rest = text.slice(open);
      if (fence || tick) {
        addText(before + '[');
        ready += before + '[';
        text = rest.slice(1);
        continue;
      }
      const m = MARKER_AT.exec(rest);
      if (m) {
        const body = before.slice(0, before.length - spaces);
        addText(body);
        ready += body;
        const kept = judge(m[1]!);
        const all = m[1]!.split(/[,，、]/).length;
        if (kept.length) ready += before.slice(before.length - spaces) + (kept.length === all ? m[0] : `[${kept.join(', ')}]`);
        text = rest.slice(m[0].length);
        continue;
      }
      if (!final && MARKER_PREFIX.test(rest) && rest.length <= MARKER_MAX) {
        // Perhaps a marker split across deltas: hold it (with the spaces before it).
        const body = before.slice(0, before.length - spaces);
        addText(body);
        ready += body;
        text = before.slice(before.length - spaces) + rest;
        break;
      }
      // A bracket that is not a marker.
      addText(before + '[');
      ready += before + '[';
      text = rest.slice(1);
    }
    held = text;
    if (ready) out(ready);
  };

  return {
    /** Sources numbered later (online results of a tool the model called) become citable too. */
    add(more: readonly Citable[]) {
      for (const c of more) byN.set(c.n, 'url' in c ? `${c.title}\n${c.snippet}` : c.text);
    },
    push(delta: string) {
      run(held + delta, false);
    },
    /** Hands on what is held; the citations removed, in order. */
    end(): CitationProblem[] {
      if (held) run(held, true);
      held = '';
      return problems;
    },
    /** Text already written (a report continued after a restart): the sentence context only, nothing handed on. */
    seed(text: string) {
      addText(text.replace(/\[[\d\s,，、]*\]/g, ''));
    },
  };
}

/** The notice after an answer whose citations were removed (empty when none were). */
export function removedCitationsNotice(problems: readonly CitationProblem[]): string {
  if (!problems.length) return '';
  const parts = problems.slice(0, 8).map((p) =>
    p.reason === 'out_of_range'
      ? `[${p.n}] 不是提供给模型的段落编号`
      : p.reason === 'number_missing'
        ? `[${p.n}] 的段落中没有句中的“${p.value.slice(0, 40)}”`
        : `[${p.n}] 的段落不支持所在的句子`,
  );
  const more = problems.length > 8 ? `等 ${problems.length} 处` : '';
  return `已移除模型回答中无法核实的引用${more}：${parts.join('；')}`;
}
