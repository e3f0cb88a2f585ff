import { z } from 'zod';
import type { PatentHit } from '../../../contract/patents';
import { ServiceError, serviceFailed, serviceShape as parseAnswer } from '../../net/service';
import { isoDate, requestJson } from './http';
import type { PatentAdapter, StructureQuery } from './types';

const SITE = 'SureChEMBL';
/** Where a SureChEMBL patent is read by people. */
const PATENT_PAGE = 'https://www.surechembl.org/patent/';
/** Structures (SureChEMBL compound ids) whose documents are listed at most. */
const MAX_STRUCTURES = 5;
/** Longest wait for an asynchronous structure search. */
const SEARCH_WAIT_MS = 15_000;

// The documented response envelope: {status: "OK", data, error_message}.
const envelope = z.object({ status: z.string(), data: z.unknown().optional(), error_message: z.string().nullish() });
const searchJob = z.object({ hash: z.union([z.string(), z.number()]) });
const searchStatus = z.object({ message: z.string().default(''), resultCount: z.union([z.number(), z.string()]).nullish() });
const structures = z.object({
  results: z.object({ structures: z.array(z.object({ id: z.union([z.number(), z.string()]) })).default([]) }).optional(),
});
const documentRow = z.object({
  docId: z.string().min(1),
  pa: z.string().nullish(),
  metadata: z
    .object({
      titles: z.array(z.object({ lang: z.string().nullish(), titles: z.array(z.string()).nullish() })).nullish(),
      pd: z.union([z.string(), z.number()]).nullish(),
      assignees: z.array(z.string()).nullish(),
    })
    .nullish(),
});
const documents = z.object({
  results: z.object({ total_hits: z.union([z.number(), z.string()]).nullish(), documents: z.array(documentRow).default([]) }).optional(),
});

/** The hit of one SureChEMBL document row (English title preferred). */
function hitOf(row: z.infer<typeof documentRow>): PatentHit {
  const titles = row.metadata?.titles ?? [];
  const english = titles.find((t) => t.lang?.toLowerCase() === 'en' && t.titles?.length);
  const title = (english ?? titles.find((t) => t.titles?.length))?.titles?.[0] ?? null;
  const assignee = row.pa && row.pa !== 'null' ? row.pa : (row.metadata?.assignees?.[0] ?? null);
  return { number: row.docId, title, assignee, date: isoDate(row.metadata?.pd), url: PATENT_PAGE + encodeURIComponent(row.docId), source: 'surechembl' };
}

export interface SureChemblOptions {
  /** Base URL of the REST API (`https://www.surechembl.org/api`). */
  baseUrl: string;
  /** Pause between status polls (default 500 ms, doubling to 2 s). */
  pollMs?: number;
}

/**
 * SureChEMBL (EMBL-EBI), REST API at `SURECHEMBL_URL`: a structure search is an asynchronous job
 * (`POST /search/structure` → hash, `GET /search/{hash}/status`, `GET /search/{hash}/results`),
 * then the documents containing the found compounds (`POST /search/documents_for_structures`);
 * a text search is `POST /search/content`. Every answer is an envelope `{status: "OK", data}`.
 */
export function sureChemblAdapter({ baseUrl, pollMs = 500 }: SureChemblOptions): PatentAdapter {
  const base = baseUrl.replace(/\/+$/, '');
  const call = async (path: string, signal: AbortSignal, method: 'GET' | 'POST' = 'GET', body?: unknown): Promise<unknown> => {
    const answer = parseAnswer(SITE, envelope, await requestJson(SITE, base + path, { method, body, signal }));
    if (answer.status !== 'OK') throw serviceFailed.reported(SITE, answer.error_message || answer.status);
    return answer.data;
  };

  const documentsOf = async (data: unknown, limit: number): Promise<PatentHit[]> => {
    const rows = parseAnswer(SITE, documents, data ?? {}).results?.documents ?? [];
    return rows.slice(0, limit).map(hitOf);
  };

  return {
    source: 'surechembl',
    site: SITE,
    async byStructure(query: StructureQuery, limit, signal) {
      if (!query.smiles) throw new ServiceError(SITE, 'reported', `${SITE} 只能按 SMILES 检索结构，不支持仅凭 InChIKey 检索`);
      const job = parseAnswer(SITE, searchJob, await call('/search/structure', signal, 'POST', { StructureSearchRequest: { struct: query.smiles, structSearchType: 'identical', maxResults: MAX_STRUCTURES } }));
      const hash = encodeURIComponent(String(job.hash));
      const deadline = Date.now() + SEARCH_WAIT_MS;
      for (let wait = pollMs; ; wait = Math.min(wait * 2, 2000)) {
        const status = parseAnswer(SITE, searchStatus, await call(`/search/${hash}/status`, signal));
        if (status.message.startsWith('Searching finished')) {
          if (Number(status.resultCount ?? 0) === 0) return [];
          break;
        }
        if (/error|fail/i.test(status.message)) throw new ServiceError(SITE, 'reported', `${SITE} 结构检索失败：${status.message}`);
        if (Date.now() + wait > deadline) throw new ServiceError(SITE, 'reported', `${SITE} 结构检索在 ${SEARCH_WAIT_MS / 1000} 秒内未完成`);
        await new Promise<void>((resolve, reject) => {
          const onAbort = () => {
            clearTimeout(timer);
            reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
          };
          const timer = setTimeout(() => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          }, wait);
          signal.addEventListener('abort', onAbort, { once: true });
        });
      }
      const found = parseAnswer(SITE, structures, await call(`/search/${hash}/results?page=1&max_results=${MAX_STRUCTURES}`, signal));
      const ids = [...new Set((found.results?.structures ?? []).map((s) => String(s.id).replace(/^SCHEMBL/i, '')))].slice(0, MAX_STRUCTURES);
      if (ids.length === 0) return [];
      const params = new URLSearchParams({ chemicalIds: ids.join(','), page: '1', itemsPerPage: String(limit) });
      return documentsOf(await call(`/search/documents_for_structures?${params}`, signal, 'POST'), limit);
    },
    async byText(text, limit, signal) {
      const params = new URLSearchParams({ query: text, page: '0', itemsPerPage: String(limit) });
      return documentsOf(await call(`/search/content?${params}`, signal, 'POST'), limit);
    },
  };
}
