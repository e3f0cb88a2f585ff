import type { NumberedHit, NumberedPassage } from './engine';
import { normalizeUrl } from '../online/sources';
import type { RetrievedPassage } from '../retrieval/knowledge-port';
import { tokens } from '../text/segment';
import { overlap, subjectTokens } from './local-engine';
import type { Finding } from './research-state';

/** Passages kept per sub-question after reading. */
export const KEEP_PER_SUB_QUESTION = 4;
/** Passages weaker than this share of the best one of their search are not kept. */
const MIN_RELATIVE_SCORE = 0.25;
/** Online results kept per sub-question after reading. */
export const KEEP_ONLINE_PER_SUB_QUESTION = 3;

/** One section of the report: a sub-question with the passages kept for it, numbered as cited. */
export interface ResearchSection {
  question: string;
  passages: NumberedPassage[];
  /** Online results kept for it, numbered after its passages; `page` the text of a page read in full. */
  online: Array<NumberedHit & { page?: string }>;
}

/**
 * The words a passage must share with a sub-question to be quoted without a model: the subject
 * words as segmented, not the character pairs (a pair like 的用 matches unrelated text) nor the
 * words linking clauses.
 */
const LINK_WORDS = new Set(['以及', '并且', '而且', '还有', '另外', '此外', '同时', '分别', 'as', 'well', 'also', 'then', 'while']);
function sectionWords(question: string): Set<string> {
  const subject = subjectTokens(question);
  const words = tokens(question, { bigrams: false }).filter((t) => subject.has(t) && !LINK_WORDS.has(t));
  return words.length ? new Set(words) : subject;
}

const passageKey = (p: RetrievedPassage) => `${p.docId}\u0000${p.page ?? ''}\u0000${p.text}`;

/**
 * The passages of a sub-question about one item of the question's list, from its own search and a
 * search for the item alone: those about the item (found by its search, or naming it), each scored
 * by its share of the best score in each search it is in (so a passage both found comes first);
 * the sub-question's other passages are about another item, or none, and are left out.
 */
export function aboutItem(item: string, asked: RetrievedPassage[], named: RetrievedPassage[]): RetrievedPassage[] {
  const shares = (list: RetrievedPassage[]) => {
    const top = Math.max(...list.map((p) => p.score), 1e-9);
    return new Map(list.map((p) => [passageKey(p), p.score / top]));
  };
  const [byQuestion, byItem] = [shares(asked), shares(named)];
  const name = item.toLowerCase();
  const out = new Map<string, RetrievedPassage>();
  for (const p of [...named, ...asked]) {
    const key = passageKey(p);
    if (out.has(key) || (!byItem.has(key) && !p.text.toLowerCase().includes(name))) continue;
    out.set(key, { ...p, score: (byQuestion.get(key) ?? 0) + (byItem.get(key) ?? 0) });
  }
  return [...out.values()].sort((a, b) => b.score - a.score);
}

/**
 * The read step: per sub-question the strongest passages (none far weaker than the best; for the
 * local engine, which cannot judge them, only ones sharing a word with the sub-question), each passage under the first
 * sub-question that found it, grouped by document, numbered in the order the report shows them.
 */
export function readFindings(plan: string[], findings: ReadonlyArray<Finding | RetrievedPassage[]>, { needOverlap }: { needOverlap: boolean }): ResearchSection[] {
  const taken = new Set<string>();
  const takenUrls = new Set<string>();
  let n = 0;
  return plan.map((question, i) => {
    const entry = findings[i];
    const finding: Finding = Array.isArray(entry) ? { passages: entry, online: null } : (entry ?? { passages: [], online: null });
    const found = [...finding.passages].sort((a, b) => b.score - a.score);
    const best = found[0]?.score ?? 0;
    const words = sectionWords(question);
    const kept: RetrievedPassage[] = [];
    for (const [k, p] of found.entries()) {
      if (kept.length >= KEEP_PER_SUB_QUESTION) break;
      if (k > 0 && p.score < best * MIN_RELATIVE_SCORE) continue;
      if (needOverlap && overlap(p.text, words) === 0) continue;
      if (taken.has(passageKey(p))) continue;
      taken.add(passageKey(p));
      kept.push(p);
    }
    const byDoc = new Map<string, RetrievedPassage[]>();
    for (const p of kept) byDoc.set(p.docId, [...(byDoc.get(p.docId) ?? []), p]);
    const passages = [...byDoc.values()].flat().map((p) => ({ ...p, n: ++n }));
    // Online results in the order found, each URL once in the whole report.
    const online: ResearchSection['online'] = [];
    for (const h of finding.online?.hits ?? []) {
      if (online.length >= KEEP_ONLINE_PER_SUB_QUESTION) break;
      const key = normalizeUrl(h.url);
      if (takenUrls.has(key)) continue;
      takenUrls.add(key);
      const page = finding.online?.pages[h.url];
      online.push({ ...h, n: ++n, fetchedAt: finding.online!.fetchedAt, ...(page ? { page: page.text } : {}) });
    }
    return { question, passages, online };
  });
}
