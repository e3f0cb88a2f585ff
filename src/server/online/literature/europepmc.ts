import { z } from 'zod';
import { type AdapterOptions, bareDoi, getServiceJson, httpUrl, type LiteratureAdapter, type LiteratureHit, snippetOf } from './common';
import { serviceFailed } from '../../net/service';

const fullTextUrl = z.object({ availabilityCode: z.string().optional(), documentStyle: z.string().optional(), url: z.string().optional() });

/** One result of `/search?resultType=core&format=json`. */
const coreResult = z.object({
  id: z.string().optional(),
  source: z.string().optional(),
  pmid: z.string().optional(),
  pmcid: z.string().optional(),
  doi: z.string().optional(),
  title: z.string().optional(),
  authorString: z.string().optional(),
  authorList: z.object({ author: z.array(z.object({ fullName: z.string().optional(), collectiveName: z.string().optional() })).optional() }).optional(),
  journalInfo: z.object({ journal: z.object({ title: z.string().optional(), isoabbreviation: z.string().optional() }).optional(), yearOfPublication: z.union([z.number(), z.string()]).optional() }).optional(),
  pubYear: z.string().optional(),
  abstractText: z.string().optional(),
  isOpenAccess: z.string().optional(),
  fullTextUrlList: z.object({ fullTextUrl: z.array(fullTextUrl).optional() }).optional(),
});
const searchAnswer = z.object({ hitCount: z.number().optional(), resultList: z.object({ result: z.array(z.unknown()) }) });

/** Europe PMC's abstracts carry a little HTML (<i>, <sup>, <h4>): plain text for the card. */
const plain = (html: string) => html.replace(/<\/?(?:i|b|em|strong|sup|sub|span|u)\b[^>]*>/gi, '').replace(/<[^>]+>/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();

function hitOf(r: z.infer<typeof coreResult>): LiteratureHit | null {
  const title = plain(r.title ?? '').replace(/\.$/, '');
  if (!title) return null;
  const abstract = r.abstractText ? plain(r.abstractText) : null;
  const authors = r.authorList?.author?.map((a) => a.fullName ?? a.collectiveName ?? '').filter(Boolean) ?? (r.authorString ?? '').replace(/\.$/, '').split(/,\s*/).filter(Boolean);
  const journal = r.journalInfo?.journal?.title ?? r.journalInfo?.journal?.isoabbreviation ?? null;
  const year = Number(r.pubYear ?? r.journalInfo?.yearOfPublication) || null;
  const urls = r.fullTextUrlList?.fullTextUrl ?? [];
  const oaPdf = urls.find((u) => u.documentStyle === 'pdf' && (u.availabilityCode === 'OA' || u.availabilityCode === 'F'));
  const pmcid = r.pmcid ?? null;
  const pdfUrl = httpUrl(oaPdf?.url) ?? (pmcid && r.isOpenAccess === 'Y' ? `https://europepmc.org/articles/${pmcid}?pdf=render` : null);
  const url = r.source && r.id ? `https://europepmc.org/article/${encodeURIComponent(r.source)}/${encodeURIComponent(r.id)}` : r.pmid ? `https://europepmc.org/article/MED/${r.pmid}` : null;
  if (!url) return null;
  return {
    url,
    title,
    site: 'Europe PMC',
    snippet: snippetOf(abstract, journal ?? title),
    kind: 'literature',
    source: 'europepmc',
    authors,
    journal,
    year,
    doi: bareDoi(r.doi),
    pmid: r.pmid ?? null,
    pmcid,
    abstract,
    pdfUrl,
  };
}

/** Europe PMC's REST search (`/search?query=…&resultType=core&format=json`): metadata, abstract and full-text links in one call. */
export function europePmcAdapter(base: string, options: AdapterOptions = {}): LiteratureAdapter {
  return async (q) => {
    const url = new URL(`${base}/search`);
    url.searchParams.set('query', q.query);
    url.searchParams.set('resultType', 'core');
    url.searchParams.set('format', 'json');
    url.searchParams.set('pageSize', String(q.limit));
    const parsed = searchAnswer.safeParse(await getServiceJson('europepmc', url, q, options));
    if (!parsed.success) throw serviceFailed.shape('Europe PMC');
    const hits: LiteratureHit[] = [];
    for (const raw of parsed.data.resultList.result) {
      const r = coreResult.safeParse(raw);
      const hit = r.success ? hitOf(r.data) : null;
      if (hit) hits.push(hit);
    }
    return hits.slice(0, q.limit);
  };
}
