import type { Config } from '../../config';
import type { LiteratureSource } from '../../../contract/literature';
import type { OnlineSearch } from '../hit';
import { type AdapterOptions, type LiteratureAdapter, type LiteratureHit, type LiteratureQuery, LiteratureServiceError, SOURCE_NAMES } from './common';
import { europePmcAdapter } from './europepmc';
import { openAlexAdapter } from './openalex';
import { pubmedAdapter } from './pubmed';

export { LiteratureServiceError, SOURCE_NAMES, type LiteratureHit } from './common';

/** What to set when no literature service is configured (shown by the tool list and the search route). */
export const LITERATURE_NOT_CONFIGURED = '未配置文献检索服务：请设置 PUBMED_URL、EUROPEPMC_URL 或 OPENALEX_URL 中的至少一个（见 README 的配置表），然后重启服务。';

/** All configured services failed: every reason, in the order they were asked. */
export class LiteratureSearchError extends Error {
  constructor(readonly failures: LiteratureServiceError[]) {
    super(`文献检索失败：${failures.map((f) => f.message).join('；')}`);
    this.name = 'LiteratureSearchError';
  }
}

/** The configured literature services, asked in LITERATURE_ORDER with failover. */
export interface LiteratureSearch {
  /** The services that will be asked, in order. */
  sources: LiteratureSource[];
  /** Papers from the first service that answers (the next one is asked on an error, 429 or timeout). */
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
      const failures: LiteratureServiceError[] = [];
      for (const [source, adapter] of adapters) {
        try {
          return { source, items: await adapter(q) };
        } catch (err) {
          if (q.signal.aborted) throw err;
          if (err instanceof LiteratureServiceError) failures.push(err);
          else failures.push(new LiteratureServiceError(source, `${SOURCE_NAMES[source]} 出错：${err instanceof Error ? err.message : String(err)}`));
        }
      }
      throw new LiteratureSearchError(failures);
    },
  };
}

/**
 * The literature source for the search-type menu (文献, and 全部 beside web and patents): an
 * `OnlineSearch` whose hits are `LiteratureHit`s (`kind: 'literature'`); null when nothing is configured.
 */
export function searchLiterature(config: Parameters<typeof createLiteratureSearch>[0], options: AdapterOptions = {}): OnlineSearch | null {
  const literature = createLiteratureSearch(config, options);
  if (!literature) return null;
  return async (q) => (await literature.search(q)).items;
}
