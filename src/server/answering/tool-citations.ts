import { webSearchOutput } from '../../contract/online';
import { patentSearchOutput } from '../../contract/patents';
import type { ToolResultPayload } from '../../contract/tools';
import type { OnlineHit } from '../online/hit';
import { patentOnlineHit } from '../online/patents';
import { normalizeUrl } from '../online/sources';
import { patentLines } from '../tools/patent-search';
import { hitLines } from '../tools/web-search';
import type { Citable, NumberedHit } from './engine';
import { intelligenceSearchOutput } from '../../contract/molecules';
import { compoundCitations } from '../chemdocs/activity-answer';

/** The tools whose results are online sources an answer cites like the hits searched before it. */
export const CITING_TOOLS: ReadonlySet<string> = new Set(['web_search', 'patent_search']);
/** Tools whose results cite documents: compounds found by activity with their structures and table rows. */
export const DOCUMENT_CITING_TOOLS: ReadonlySet<string> = new Set(['intelligence_search']);

/**
 * Numbers the online results of the tools the model calls during an answer (web_search,
 * patent_search), after every source the answer could already cite (passages, then the online
 * hits searched before it), so they are cited as `[n]` exactly like those: the same `NumberedHit`,
 * the same citation events, kept with the stored answer. A page found again (also by another
 * search, compared by `normalizeUrl`) keeps its first number. `onNew` is given the newly numbered
 * hits (the answer's citation tracker adds them).
 */
export function toolCitations(citable: readonly Citable[], onNew: (hits: Citable[]) => void) {
  let next = citable.reduce((max, c) => Math.max(max, c.n), 0) + 1;
  const byUrl = new Map<string, NumberedHit>();
  for (const c of citable) if ('url' in c) byUrl.set(normalizeUrl(c.url), c);

  const numberOf = (hit: OnlineHit, fetchedAt: string, fresh: NumberedHit[]): number => {
    const key = normalizeUrl(hit.url);
    const seen = byUrl.get(key);
    if (seen) return seen.n;
    const numbered: NumberedHit = { ...hit, n: next++, fetchedAt };
    byUrl.set(key, numbered);
    fresh.push(numbered);
    return numbered.n;
  };

  return {
    /**
     * A tool's result with its online hits numbered: `data` carries each hit's `n` and `content`
     * (what the model reads) lists them as `[n]`. Other tools, failures and data of an unexpected
     * shape are given back unchanged.
     */
    cite(name: string, result: ToolResultPayload): ToolResultPayload {
      if (result.ok && DOCUMENT_CITING_TOOLS.has(name)) {
        // Compounds found by activity: each structure and activity row gets a number, listed after the tool's text.
        const parsed = intelligenceSearchOutput.safeParse(result.data);
        if (!parsed.success || !parsed.data.activity) return result;
        const { lines, citable: rows } = compoundCitations(parsed.data, next);
        if (!rows.length) return result;
        next += rows.length;
        onNew(rows);
        return { ...result, content: [result.content, '', '按活性条件找到的化合物（结构和表格行的编号 [n] 可在回答中引用）：', ...lines].join('\n') };
      }
      if (!result.ok || !CITING_TOOLS.has(name)) return result;
      const fetchedAt = new Date().toISOString();
      const fresh: NumberedHit[] = [];
      let cited: ToolResultPayload = result;
      if (name === 'web_search') {
        const parsed = webSearchOutput.safeParse(result.data);
        if (!parsed.success) return result;
        const data = { ...parsed.data, hits: parsed.data.hits.map((h) => ({ ...h, n: numberOf(h, fetchedAt, fresh) })) };
        cited = { ok: true, content: hitLines(data), data };
      } else {
        const parsed = patentSearchOutput.safeParse(result.data);
        if (!parsed.success) return result;
        const data = { ...parsed.data, hits: parsed.data.hits.map((h) => ({ ...h, n: numberOf(patentOnlineHit(h), fetchedAt, fresh) })) };
        cited = { ok: true, content: patentLines(data), data };
      }
      if (fresh.length) onNew(fresh);
      return cited;
    },
  };
}
