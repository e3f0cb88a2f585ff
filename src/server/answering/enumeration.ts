/**
 * Enumeration questions for deep research: a question that names several items in
 * one list — "插图、表格和浮动体的用法", "比较阿司匹林、布洛芬和萘普生的作用机制", "compare aspirin,
 * ibuprofen and naproxen in terms of …", "CTeX 套装和 CTeX 宏包有什么区别" — becomes one
 * sub-question per item: the question with the list replaced by that item. Each is searched on
 * its own, and its item alone too (deep-research.ts `aboutItem`), so one item's passages do not
 * crowd out another's, nor the question's other words the item; the report has a section per item.
 */

/** Items of one list at most (a longer list is cut: each item is a search and a report section). */
export const MAX_ITEMS = 8;
/** An item longer than this is not a list item but a clause. */
const MAX_ITEM_CHARS = 40;

/** Words that say two items are compared: a list of two is split only with one of them. */
const COMPARE_ZH = /比较|对比|区别|异同|差异|不同|相比|优缺点|分别|各自|哪个|哪一个|孰/;
const COMPARE_EN = /\b(?:compare|comparison|differ|difference|differences|versus|vs\.?|between|respectively|each)\b/i;

/** Where a Chinese item starts (scanning back from the list) or ends (scanning forward). */
const ZH_BEFORE = /(?:请|比较|对比|总结|列出|列举|介绍|说明|分析|讨论|阐述|概述|描述|关于|有关|对于|其中|包括|中的|之中|中|的|在|对|了|是|把|将|：|:|，|,|。|？|\?|！|；)$/;
const ZH_AFTER = /^(?:的|之间|有什么|有何|有哪些|各自|分别|哪个|哪一个|哪种|谁|是|在|中|都|这|两|三|几|各|，|,|。|？|\?|！|；|：)/;
/** Conjunctions before the last item. */
const ZH_LAST = /^(?:以及|和|与|及|或|跟|同)/;
const EN_STOP_BEFORE = new Set('compare contrast list describe summarize summarise between of about for on in among are is do does and the all what which how explain discuss'.split(' '));
const EN_STOP_AFTER = new Set('in for with by on regarding as to at of from when where which that who whose are is do does differ compare have has'.split(' '));

const COMPARE_BEFORE = /(?:请)?(?:比较|对比)(?:一下)?|^(?:what (?:are|is) )?(?:the )?(?:differences?|comparison) (?:between|of)\s*|\b(?:compare|contrast)\s+/gi;
const COMPARE_AFTER = /(?:之间)?(?:有什么|有何)?(?:区别|异同|差异|不同)(?:是什么)?|分别|各自|哪个|哪一个|哪种|(^|\s)(?:respectively|each)\b/gi;

export interface Enumeration {
  items: string[];
  /** The question with the list replaced by each item, in order. */
  subQuestions: string[];
}

const clean = (s: string) => s.trim().replace(/^[“"'‘(（]+|[”"'’)）]+$/g, '').trim();

/** A Chinese list: items separated by 、 (and a last one after 和/与/及/或), or two joined by 和/与 when compared. */
function chineseList(q: string): { start: number; end: number; items: string[] } | null {
  // The first separator of a list: 、, or a conjunction when the question compares.
  const sep = q.indexOf('、');
  const compares = COMPARE_ZH.test(q);
  let first = sep;
  if (first < 0) {
    if (!compares) return null;
    const m = /(?:以及|和|与|及|跟|同)/.exec(q);
    if (!m) return null;
    first = m.index;
  }
  // The first item: back from the separator to a boundary word.
  let start = first;
  while (start > 0 && !ZH_BEFORE.test(q.slice(Math.max(0, start - 4), start))) start--;
  const items = [clean(q.slice(start, first))];
  let pos = first;
  for (;;) {
    const rest = q.slice(pos);
    const lead = /^、\s*/.exec(rest) ?? ZH_LAST.exec(rest) ?? (rest.startsWith('、') ? null : null);
    if (!lead) break;
    pos += lead[0].length;
    const isLast = !rest.startsWith('、') || ZH_LAST.test(q.slice(pos));
    if (ZH_LAST.test(q.slice(pos))) pos += ZH_LAST.exec(q.slice(pos))![0].length;
    // The item: up to the next 、 or conjunction (a middle item), or to a boundary (the last).
    let end = pos;
    while (end < q.length && q[end] !== '、' && !ZH_AFTER.test(q.slice(end)) && !(end > pos && ZH_LAST.test(q.slice(end)) && !isLast)) end++;
    items.push(clean(q.slice(pos, end)));
    pos = end;
    if (isLast && !q.slice(pos).startsWith('、')) break;
  }
  return { start, end: pos, items };
}

/** An English list: "a, b and c", "a, b, or c", or "a and b" when compared. */
function englishList(q: string): { start: number; end: number; items: string[] } | null {
  const compares = COMPARE_EN.test(q);
  const m = /([\w\-+()[\]/. ]+?)((?:,\s*[\w\-+()[\]/. ]+?)+),?\s+(?:and|or)\s+([\w\-+()[\]/.]+(?:\s+[\w\-+()[\]/.]+)*)/i.exec(q)
    ?? (compares ? /([\w\-+()[\]/.]+(?:\s+[\w\-+()[\]/.]+)*?)()\s+(?:and|or|versus|vs\.?)\s+([\w\-+()[\]/.]+(?:\s+[\w\-+()[\]/.]+)*)/i.exec(q) : null);
  if (!m) return null;
  // The first item: its last words before a stop word.
  const headWords = m[1]!.trim().split(/\s+/);
  let k = headWords.length;
  while (k > 0 && !EN_STOP_BEFORE.has(headWords[k - 1]!.toLowerCase()) && headWords.length - k < 3) k--;
  const firstItem = headWords.slice(k).join(' ');
  const middle = m[2] ? m[2].split(',').map((s) => s.trim()).filter(Boolean) : [];
  // The last item: its first words before a stop word.
  const tailWords = m[3]!.trim().split(/\s+/);
  let t = 0;
  while (t < tailWords.length && !EN_STOP_AFTER.has(tailWords[t]!.toLowerCase()) && t < 3) t++;
  const lastItem = tailWords.slice(0, t).join(' ').replace(/[?.!]+$/, '');
  const start = m.index + m[0].indexOf(m[1]!) + m[1]!.lastIndexOf(firstItem);
  const lastAt = m.index + m[0].lastIndexOf(m[3]!);
  const end = lastAt + (m[3]!.indexOf(lastItem) + lastItem.length);
  return { start, end, items: [firstItem, ...middle, lastItem].map(clean) };
}

/**
 * The items of the question's list and a sub-question per item, or null when the question holds
 * no list of at least two distinct items (of at most MAX_ITEM_CHARS characters each).
 */
export function enumerationOf(question: string): Enumeration | null {
  const q = question.trim();
  const found = /\p{Script=Han}/u.test(q) ? chineseList(q) : englishList(q);
  if (!found) return null;
  const items = [...new Set(found.items.filter(Boolean))].slice(0, MAX_ITEMS);
  if (items.length < 2 || items.some((i) => [...i].length > MAX_ITEM_CHARS)) return null;
  // The words that compare belong to the whole question, not to one item's sub-question.
  const before = q.slice(0, found.start).replace(COMPARE_BEFORE, '');
  let after = q.slice(found.end).replace(COMPARE_AFTER, '$1');
  if (!/[\p{L}\p{N}]/u.test(after)) after = '';
  const subQuestions = items.map((item) => `${before}${item}${after}`.replace(/\s+/g, ' ').trim());
  return { items, subQuestions };
}

/**
 * A plan with each item of the question's list searched on its own: per item the plan's
 * sub-question about that item alone (else the question with the list replaced by the item), in
 * list order, then the plan's other sub-questions; at most `max` (or one more than the items).
 */
export function withEnumeration(question: string, plan: readonly string[], max: number): string[] {
  const e = enumerationOf(question);
  if (!e) return [...plan];
  const perItem = e.items.map((item, i) => plan.find((s) => itemOf(e.items, s) === item) ?? e.subQuestions[i]!);
  const others = plan.filter((s) => !perItem.includes(s));
  return [...perItem, ...others].slice(0, Math.max(max, perItem.length + 1));
}

/** The one item of a list that a sub-question names (it is about that item alone), or null. */
export function itemOf(items: readonly string[], subQuestion: string): string | null {
  const named = items.filter((i) => subQuestion.toLowerCase().includes(i.toLowerCase()));
  return named.length === 1 ? named[0]! : null;
}
