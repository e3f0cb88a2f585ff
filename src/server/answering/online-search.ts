import type { WebSearchOutput } from '../../contract/online';
import { notConfiguredNotice, searchOnline, type OnlineSources } from '../online/sources';
import { hitLines } from '../tools/web-search';
import type { AnswerSink, NumberedHit } from './engine';

/** Online results searched before an answer. */
export const ONLINE_RESULTS_PER_ANSWER = 6;
/** Characters of the question sent as the search query. */
const QUERY_CHARS = 200;

/** A page read in full: what a page crawler gives. */
export interface ReadPage {
  (url: string, signal: AbortSignal): Promise<{ title: string; markdown: string }>;
}

/** The question as a search query: whitespace collapsed, cut to QUERY_CHARS characters. */
export const searchQueryOf = (question: string) => [...question.replace(/\s+/g, ' ').trim()].slice(0, QUERY_CHARS).join('');

/**
 * The online search made before an answer when 联网搜索 is on: the sources of the question's search
 * type (全部/网页/文献/专利) searched with the question, shown as one `web_search` call and result,
 * the hits numbered from `firstN` to be cited like passages. Nothing configured for the type: no
 * search (the caller says so once, `notConfiguredNotice`). A source that fails is said as a notice;
 * the others' hits are kept.
 */
export async function searchBeforeAnswer(
  { online, searchType, question, firstN, signal }: { online: OnlineSources; searchType: string; question: string; firstN: number; signal: AbortSignal },
  sink: AnswerSink,
): Promise<NumberedHit[]> {
  if (notConfiguredNotice(online, searchType)) return []; // said by the caller, before anything else
  const query = searchQueryOf(question);
  const callId = 'online_search';
  sink.toolCall({ call_id: callId, name: 'web_search', arguments: JSON.stringify({ query, search_type: searchType }) });
  const found = await searchOnline(online, searchType, { query, limit: ONLINE_RESULTS_PER_ANSWER, signal });
  const fetchedAt = new Date().toISOString();
  const hits: NumberedHit[] = found.hits.map((h, i) => ({ ...h, n: firstN + i, fetchedAt }));
  const data: WebSearchOutput = { query, search_type: searchType, hits: hits.map(({ fetchedAt: _f, ...h }) => h) };
  const failed = !hits.length && found.failures.length > 0;
  sink.toolResult({ call_id: callId, name: 'web_search', ok: !failed, content: failed ? found.failures.join('；') : hitLines(data), ...(failed ? {} : { data }) });
  for (const f of found.failures) if (!failed) sink.notice(f);
  return hits;
}
