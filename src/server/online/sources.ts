import type { FastifyBaseLogger } from 'fastify';
import type { OnlineHit, OnlineQuery, OnlineSearch } from './hit';
import { createLiteratureSearch, literatureOnline, type LiteratureSearch } from './literature';
import { createPatentSearch, patentAdapters, patentsOnline, type PatentSearch } from './patents';
import { webSearchFromConfig, type WebSearch } from './web';

/**
 * The configured online services of this server, each built once (in runtime.ts) and handed to the
 * tools (web_search, patent_search), the routes (literature search) and answering: absent when
 * not configured.
 */
export interface OnlineServices {
  web?: WebSearch | undefined;
  literature?: LiteratureSearch | undefined;
  patents?: PatentSearch | undefined;
}

type OnlineConfig = Parameters<typeof webSearchFromConfig>[0] & Parameters<typeof createLiteratureSearch>[0] & Parameters<typeof patentAdapters>[0];

/** The services of a configuration. */
export function onlineServices(config: OnlineConfig, log?: Pick<FastifyBaseLogger, 'warn'>): OnlineServices {
  const patents = patentAdapters(config);
  return {
    web: webSearchFromConfig(config, log),
    literature: createLiteratureSearch(config) ?? undefined,
    patents: patents.length ? createPatentSearch(patents) : undefined,
  };
}

/** The services as the search-type menu's sources (what answering and deep research search). */
export function onlineSources({ web, literature, patents }: OnlineServices): OnlineSources {
  return { web, literature: literature && literatureOnline(literature), patents: patents && patentsOnline(patents) };
}

/**
 * The online sources of this server: web search (§1), literature (§3) and patents (§4),
 * each present only when configured. Made once in runtime.ts and handed to answering and deep research.
 */
export interface OnlineSources {
  web?: OnlineSearch | undefined;
  literature?: OnlineSearch | undefined;
  patents?: OnlineSearch | undefined;
}

export type OnlineKind = keyof OnlineSources;
export const ONLINE_KINDS: readonly OnlineKind[] = ['web', 'literature', 'patents'];

/** The search-type menu's values (全部/网页/文献/专利) and the sources each searches. */
export const SEARCH_TYPE_SOURCES: Record<string, readonly OnlineKind[]> = {
  all: ONLINE_KINDS,
  web: ['web'],
  paper: ['literature'],
  patent: ['patents'],
};

/** The sources a search type asks for (an unknown type: all). */
export const kindsOf = (searchType: string): readonly OnlineKind[] => SEARCH_TYPE_SOURCES[searchType] ?? ONLINE_KINDS;

/** What the answer says once when online search is on and nothing is configured for the chosen type. */
export const NOT_CONFIGURED: Record<OnlineKind | 'all', string> = {
  all: '未配置联网搜索服务，本次回答没有进行联网搜索',
  web: '未配置网页搜索服务，本次回答没有进行网页搜索',
  literature: '未配置文献检索服务，本次回答没有检索文献',
  patents: '未配置专利检索服务，本次回答没有检索专利',
};

/**
 * What to configure for each source, for administrators: GET /online/status, GET /diagnostics,
 * the reason a search tool is off (GET /tools) and the literature search's 503.
 */
export const SOURCE_SETUP: Record<OnlineKind, string> = {
  web: '未配置联网搜索服务：请设置 SEARXNG_URL（自建 SearXNG）、TAVILY_API_KEY、BOCHA_API_KEY 或 WEB_SEARCH_CUSTOM_URL 中的至少一个，并重启服务。',
  literature: '未配置文献检索服务：请设置 PUBMED_URL、EUROPEPMC_URL 或 OPENALEX_URL 中的至少一个（见 README 的配置表），然后重启服务。',
  patents: '未配置专利检索服务：请设置 SURECHEMBL_URL（如 https://www.surechembl.org/api）或 CSAI_PUBCHEM_URL（如 https://pubchem.ncbi.nlm.nih.gov/rest/pug），然后重启服务。',
};

/** What to configure for each source this server lacks (for administrators: GET /diagnostics, GET /online/status). */
export function missingSetup(sources: OnlineSources): Partial<Record<OnlineKind, string>> {
  return Object.fromEntries(ONLINE_KINDS.filter((k) => !sources[k]).map((k) => [k, SOURCE_SETUP[k]]));
}

/** The notice for a search type none of whose sources is configured; undefined when one is. */
export function notConfiguredNotice(sources: OnlineSources, searchType: string): string | undefined {
  const kinds = kindsOf(searchType);
  if (kinds.some((k) => sources[k])) return undefined;
  return kinds.length === 1 ? NOT_CONFIGURED[kinds[0]!] : NOT_CONFIGURED.all;
}

/**
 * A URL as compared for duplicates: scheme and host lower-cased, "www." and the default port
 * dropped, the fragment and tracking parameters (utm_*, fbclid, gclid) removed, the other
 * parameters sorted, a trailing slash dropped; http and https count as one.
 */
export function normalizeUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return raw.trim();
  }
  const host = u.hostname.toLowerCase().replace(/^www\./, '');
  const params = [...u.searchParams.entries()].filter(([k]) => !/^(utm_|fbclid$|gclid$|spm$)/i.test(k)).sort(([a], [b]) => a.localeCompare(b));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  const path = u.pathname.replace(/\/+$/, '') || '';
  return `${host}${path}${query}`;
}

/** Hits of several sources in one list, each URL once (the first kept), interleaved so each source's best come first. */
export function mergeHits(lists: readonly OnlineHit[][], limit: number): OnlineHit[] {
  const out: OnlineHit[] = [];
  const seen = new Set<string>();
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest && out.length < limit; i++) {
    for (const list of lists) {
      const hit = list[i];
      if (!hit) continue;
      const key = normalizeUrl(hit.url);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(hit);
      if (out.length >= limit) break;
    }
  }
  return out;
}

/** What one online search of a question found: the hits, and the sources that failed (with why). */
export interface OnlineFinding {
  hits: OnlineHit[];
  /** Chinese messages of the sources that failed (the others' hits are still given). */
  failures: string[];
  /** The sources searched. */
  searched: OnlineKind[];
}

/**
 * Searches the configured sources of a search type at once and merges their hits. A source that
 * fails does not fail the others; its message is in `failures`. A stop through the signal throws.
 */
export async function searchOnline(sources: OnlineSources, searchType: string, q: OnlineQuery): Promise<OnlineFinding> {
  const searched = kindsOf(searchType).filter((k) => sources[k]);
  const settled = await Promise.allSettled(searched.map((k) => sources[k]!(q)));
  if (q.signal.aborted) throw q.signal.reason;
  const failures: string[] = [];
  const lists: OnlineHit[][] = [];
  for (const r of settled) {
    if (r.status === 'fulfilled') lists.push(r.value);
    else failures.push(r.reason instanceof Error ? r.reason.message : String(r.reason));
  }
  return { hits: mergeHits(lists, q.limit), failures, searched };
}
