import type { PatentHit, PatentSource } from '../../../contract/patents';
import type { Config } from '../../config';
import type { OnlineHit, OnlineSearch } from '../hit';
import { ServiceError, serviceFailed } from '../../net/service';
import { pubchemPatentAdapter } from './pubchem';
import { sureChemblAdapter } from './surechembl';
import type { PatentAdapter, StructureQuery } from './types';

export type { PatentAdapter, StructureQuery } from './types';

/** How one source answered a search. */
export interface SourceOutcome {
  source: PatentSource;
  ok: boolean;
  hits: number;
  message?: string;
}

export interface PatentSearch {
  /** The configured sources in `PATENT_ORDER`; empty when none is configured. */
  adapters: PatentAdapter[];
  /** Every source asked at once; hits merged in source order, one per publication number. */
  search(query: { structure: StructureQuery } | { text: string }, limit: number, signal: AbortSignal): Promise<{ hits: PatentHit[]; sources: SourceOutcome[] }>;
}

/** `US-10000000-B2`, `US10000000B2` and `us 10000000 b2` are one patent. */
const numberKey = (n: string) => n.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** Fields one hit lacks are taken from another source's hit of the same patent. */
function merge(a: PatentHit, b: PatentHit): PatentHit {
  return { ...a, title: a.title ?? b.title, assignee: a.assignee ?? b.assignee, date: a.date ?? b.date };
}

/** The configured patent services (`SURECHEMBL_URL`, `CSAI_PUBCHEM_URL`) in `PATENT_ORDER`. */
export function patentAdapters(config: Pick<Config, 'SURECHEMBL_URL' | 'CSAI_PUBCHEM_URL' | 'PATENT_ORDER'>): PatentAdapter[] {
  const built: Record<PatentSource, PatentAdapter | undefined> = {
    surechembl: config.SURECHEMBL_URL ? sureChemblAdapter({ baseUrl: config.SURECHEMBL_URL }) : undefined,
    pubchem: config.CSAI_PUBCHEM_URL ? pubchemPatentAdapter({ baseUrl: config.CSAI_PUBCHEM_URL }) : undefined,
  };
  return config.PATENT_ORDER.map((source) => built[source]).filter((a): a is PatentAdapter => a !== undefined);
}

/** Patent search over `adapters`. */
export function createPatentSearch(adapters: PatentAdapter[]): PatentSearch {
  return {
    adapters,
    async search(query, limit, signal) {
      const answers = await Promise.allSettled(
        adapters.map((a) => ('text' in query ? a.byText(query.text, limit, signal) : a.byStructure(query.structure, limit, signal))),
      );
      if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
      const merged = new Map<string, PatentHit>();
      const sources: SourceOutcome[] = [];
      answers.forEach((answer, i) => {
        const adapter = adapters[i]!;
        if (answer.status === 'rejected') {
          // Anything but a described source failure is a bug: let the registry log it.
          if (!(answer.reason instanceof ServiceError)) throw answer.reason;
          sources.push({ source: adapter.source, ok: false, hits: 0, message: answer.reason.message });
          return;
        }
        sources.push({ source: adapter.source, ok: true, hits: answer.value.length });
        for (const hit of answer.value) {
          const key = numberKey(hit.number);
          const seen = merged.get(key);
          merged.set(key, seen ? merge(seen, hit) : hit);
        }
      });
      return { hits: [...merged.values()].slice(0, limit), sources };
    },
  };
}

const SITE_NAME: Record<PatentSource, string> = { surechembl: 'SureChEMBL', pubchem: 'PubChem' };

/** A patent as an online citation (the 专利 search type). */
export function patentOnlineHit(hit: PatentHit): OnlineHit {
  const facts = [hit.assignee && `申请人：${hit.assignee}`, hit.date && `公开日：${hit.date}`].filter(Boolean).join('；');
  return { url: hit.url, title: hit.title ? `${hit.number} ${hit.title}` : hit.number, site: SITE_NAME[hit.source], snippet: facts, kind: 'patent' };
}

/**
 * The patent search as the 专利 search type's text search. A source that
 * fails is skipped; when every source fails, a ServiceError naming each.
 */
export function patentsOnline(patents: PatentSearch): OnlineSearch {
  return async ({ query, limit, signal }) => {
    const { hits, sources } = await patents.search({ text: query }, limit, signal);
    const failed = sources.filter((s) => !s.ok);
    if (failed.length === sources.length) {
      throw serviceFailed.all('专利检索', failed.map((s) => new ServiceError(SITE_NAME[s.source], 'reported', s.message ?? '')));
    }
    return hits.map(patentOnlineHit);
  };
}
