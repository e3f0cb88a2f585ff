import { searchOnline, type OnlineSources } from '../online/sources';
import type { KnowledgePort, RetrievedPassage } from '../retrieval/knowledge-port';
import type { ReadPage } from './online-search';
import { aboutItem } from './research-read';
import type { OnlineFinding } from './research-state';
import { cut } from './research-text';

/** Passages retrieved per sub-question. */
const PASSAGES_PER_SEARCH = 8;
/** Online results searched per sub-question. */
const ONLINE_PER_SEARCH = 5;
/** Pages read in full (through the page reader) per sub-question, and characters kept of each. */
const PAGES_PER_SUB_QUESTION = 2;
const PAGE_CHARS = 6000;

/**
 * One sub-question's passages in the chosen documents. A sub-question about one item of the
 * question's list is searched for that item alone too: "插图" finds the pages on figures that
 * "系统总结…插图的用法与常见问题" loses to pages on errors, whose words (总结, 常见, 问题) every
 * item's sub-question shares.
 */
export async function searchDocuments(knowledge: KnowledgePort, docIds: string[], question: string, item: string | null): Promise<RetrievedPassage[]> {
  const asked = await knowledge.search(docIds, question, PASSAGES_PER_SEARCH);
  return item ? aboutItem(item, asked, await knowledge.search(docIds, item, PASSAGES_PER_SEARCH)) : asked;
}

/** One sub-question's online search and the best pages read in full (a page that cannot be read keeps its snippet). */
export async function searchAndRead(
  { online, readPage }: { online: OnlineSources; readPage?: ReadPage | undefined },
  question: string,
  searchType: string,
  signal: AbortSignal,
): Promise<OnlineFinding> {
  const found = await searchOnline(online, searchType, { query: cut(question, 200), limit: ONLINE_PER_SEARCH, signal });
  const finding: OnlineFinding = { hits: found.hits, failures: found.failures, fetchedAt: new Date().toISOString(), pages: {}, unread: {} };
  if (!readPage) return finding;
  for (const h of found.hits.filter((x) => x.kind === 'web').slice(0, PAGES_PER_SUB_QUESTION)) {
    if (signal.aborted) break;
    try {
      const page = await readPage(h.url, signal);
      finding.pages[h.url] = { title: cut(page.title, 200), text: [...page.markdown].slice(0, PAGE_CHARS).join('') };
    } catch (err) {
      if (signal.aborted) throw err;
      finding.unread[h.url] = err instanceof Error ? err.message : String(err);
    }
  }
  return finding;
}
