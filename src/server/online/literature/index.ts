import type { Config } from '../../config';
import type { LiteratureSource } from '../../../contract/literature';
import type { OnlineSearch } from '../hit';
import { failover } from '../../net/service';
import { type AdapterOptions, type LiteratureAdapter, type LiteratureHit, type LiteratureQuery, SOURCE_NAMES } from './common';
import { europePmcAdapter } from './europepmc';
import { openAlexAdapter } from './openalex';
import { pubmedAdapter } from './pubmed';

export { SOURCE_NAMES, type LiteratureHit } from './common';

/** The configured literature services, asked in LITERATURE_ORDER with failover. */
export interface LiteratureSearch {
  /** The services that will be asked, in order. */
  sources: LiteratureSource[];
  /**
   * Papers from the first service that answers (the next one is asked on an error, 429 or
   * timeout); when every one fails, a ServiceError saying 文献检索失败 and each one's reason.
   */
  search(q: LiteratureQuery): Promise<{ source: LiteratureSource; items: LiteratureHit[] }>;
}

/** The configured services in LITERATURE_ORDER; null when none is configured. */
export function createLiteratureSearch(config: Pick<Config, 'PUBMED_URL' | 'PUBMED_API_KEY' | 'EUROPEPMC_URL' | 'OPENALEX_URL' | 'OPENALEX_MAILTO' | 'LITERATURE_ORDER'>, options: AdapterOptions = {}): LiteratureSearch | null {
  const adapters: Array<[LiteratureSource, LiteratureAdapter]> = [];
  for (const source of [...new Set(config.LITERATURE_ORDER)]) {
    if (source === 'pubmed' && config.PUBMED_URL) adapters.push([source, pubmedAdapter(config.PUBMED_URL, config.PUBMED_API_KEY, options)]);
    if (source === 'europepmc' && config.EUROPEPMC_URL) adapters.push([source, europePmcAdapter(config.EUROPEPMC_URL, options)]);
    if (source === 'openalex' && config.OPENALEX_URL) adapters.push([source, openAlexAdapter(config.OPENALEX_URL, config.OPENALEX_MAILTO, options)]);
  }
  if (!adapters.length) return null;
  return {
    sources: adapters.map(([s]) => s),
    async search(q) {
      const found = await failover(
        '文献检索',
        adapters.map(([source, adapter]) => ({ service: SOURCE_NAMES[source], ask: (signal: AbortSignal) => adapter({ ...q, signal }) })),
        q.signal,
      );
      return { source: adapters[found.index]![0], items: found.value };
    },
  };
}

/** The literature search as the search-type menu's source (文献, and 全部 beside web and patents): its hits are `LiteratureHit`s (`kind: 'literature'`). */
export const literatureOnline = (literature: LiteratureSearch): OnlineSearch => async (q) => (await literature.search(q)).items;
