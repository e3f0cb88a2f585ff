import { z } from 'zod';
import { type AdapterOptions, bareDoi, getServiceJson, httpUrl, type LiteratureAdapter, type LiteratureHit, snippetOf } from './common';
import { serviceFailed } from '../../net/service';

const location = z.object({ pdf_url: z.string().nullish(), landing_page_url: z.string().nullish(), source: z.object({ display_name: z.string().nullish() }).nullish() }).nullish();

/** One work of `/works?search=`. */
const work = z.object({
  id: z.string(),
  doi: z.string().nullish(),
  title: z.string().nullish(),
  display_name: z.string().nullish(),
  publication_year: z.number().nullish(),
  authorships: z.array(z.object({ author: z.object({ display_name: z.string().nullish() }).nullish() })).nullish(),
  primary_location: location,
  best_oa_location: location,
  open_access: z.object({ is_oa: z.boolean().nullish(), oa_url: z.string().nullish() }).nullish(),
  ids: z.object({ pmid: z.string().nullish(), pmcid: z.string().nullish() }).nullish(),
  abstract_inverted_index: z.record(z.string(), z.array(z.number())).nullish(),
});
const worksAnswer = z.object({ results: z.array(z.unknown()) });

/** OpenAlex gives abstracts as word → positions; the words put back in order. */
export function abstractFromIndex(index: Record<string, number[]> | null | undefined): string | null {
  if (!index) return null;
  const words: string[] = [];
  for (const [word, positions] of Object.entries(index)) for (const p of positions) if (Number.isInteger(p) && p >= 0 && p < 100_000) words[p] = word;
  const text = words.filter((w) => w !== undefined).join(' ').trim();
  return text || null;
}

const lastSegment = (url: string | null | undefined) => (url ? (url.split('/').filter(Boolean).pop() ?? null) : null);

function hitOf(w: z.infer<typeof work>): LiteratureHit | null {
  const title = (w.title ?? w.display_name ?? '').replace(/\s+/g, ' ').trim();
  if (!title) return null;
  const abstract = abstractFromIndex(w.abstract_inverted_index);
  const journal = w.primary_location?.source?.display_name ?? null;
  const doi = bareDoi(w.doi);
  const pmid = lastSegment(w.ids?.pmid);
  const pmcid = lastSegment(w.ids?.pmcid);
  return {
    url: httpUrl(doi ? `https://doi.org/${doi}` : null) ?? httpUrl(w.id) ?? httpUrl(w.primary_location?.landing_page_url) ?? 'https://openalex.org/',
    title,
    site: 'OpenAlex',
    snippet: snippetOf(abstract, journal ?? title),
    kind: 'literature',
    source: 'openalex',
    authors: (w.authorships ?? []).map((a) => a.author?.display_name ?? '').filter(Boolean),
    journal,
    year: w.publication_year ?? null,
    doi,
    pmid: pmid && /^\d+$/.test(pmid) ? pmid : null,
    pmcid: pmcid && /^PMC\d+$/i.test(pmcid) ? pmcid.toUpperCase() : null,
    abstract,
    pdfUrl: httpUrl(w.best_oa_location?.pdf_url) ?? httpUrl(w.primary_location?.pdf_url),
  };
}

/** OpenAlex works search (`/works?search=…&per-page=…`, `mailto` for the polite pool). */
export function openAlexAdapter(base: string, mailto: string | undefined, options: AdapterOptions = {}): LiteratureAdapter {
  return async (q) => {
    const url = new URL(`${base}/works`);
    url.searchParams.set('search', q.query);
    url.searchParams.set('per-page', String(q.limit));
    if (mailto) url.searchParams.set('mailto', mailto);
    const parsed = worksAnswer.safeParse(await getServiceJson('openalex', url, q, options));
    if (!parsed.success) throw serviceFailed.shape('OpenAlex');
    const hits: LiteratureHit[] = [];
    for (const raw of parsed.data.results) {
      const w = work.safeParse(raw);
      const hit = w.success ? hitOf(w.data) : null;
      if (hit) hits.push(hit);
    }
    return hits.slice(0, q.limit);
  };
}
