import { DOMParser } from 'linkedom';
import { z } from 'zod';
import { type AdapterOptions, bareDoi, getService, getServiceJson, type LiteratureAdapter, type LiteratureHit, snippetOf } from './common';
import { serviceFailed } from '../../net/service';

/** esearch.fcgi?retmode=json: `esearchresult.idlist`, or `esearchresult.ERROR` when the term is bad. */
const esearchAnswer = z.object({
  esearchresult: z.object({ idlist: z.array(z.string()).optional(), ERROR: z.string().optional() }),
});

const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** One PubmedArticle of efetch's XML as a hit. */
function articleHit(article: Element): LiteratureHit | null {
  const pmid = text(article.querySelector('MedlineCitation > PMID'));
  const title = text(article.querySelector('ArticleTitle')).replace(/\.$/, '');
  if (!pmid || !title) return null;
  const authors = [...article.querySelectorAll('AuthorList > Author')]
    .map((a) => {
      const collective = text(a.querySelector('CollectiveName'));
      if (collective) return collective;
      return [text(a.querySelector('ForeName')) || text(a.querySelector('Initials')), text(a.querySelector('LastName'))].filter(Boolean).join(' ');
    })
    .filter(Boolean);
  // Structured abstracts have labelled parts ("BACKGROUND: …").
  const parts = [...article.querySelectorAll('Abstract > AbstractText')].map((p) => {
    const label = p.getAttribute('Label');
    return label ? `${label}: ${text(p)}` : text(p);
  });
  const abstract = parts.join('\n') || null;
  const journal = text(article.querySelector('Journal > Title')) || text(article.querySelector('MedlineJournalInfo > MedlineTA')) || null;
  const yearText = text(article.querySelector('JournalIssue > PubDate > Year')) || /\d{4}/.exec(text(article.querySelector('JournalIssue > PubDate > MedlineDate')))?.[0] || '';
  const ids = new Map([...article.querySelectorAll('PubmedData > ArticleIdList > ArticleId')].map((el) => [el.getAttribute('IdType') ?? '', text(el)]));
  const doi = bareDoi(ids.get('doi')) ?? bareDoi(text(article.querySelector('ELocationID[EIdType="doi"]')));
  const pmcid = ids.get('pmc') || null;
  return {
    url: `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`,
    title,
    site: 'PubMed',
    snippet: snippetOf(abstract, journal ?? title),
    kind: 'literature',
    source: 'pubmed',
    authors,
    journal,
    year: yearText ? Number(yearText) : null,
    doi,
    pmid,
    pmcid,
    abstract,
    // PubMed Central articles are open access; Europe PMC renders their PDF.
    pdfUrl: pmcid ? `https://europepmc.org/articles/${pmcid}?pdf=render` : null,
  };
}

/**
 * PubMed through NCBI E-utilities: `esearch.fcgi` (JSON) for the PMIDs of a query, then
 * `efetch.fcgi` (PubMed XML) for their titles, authors, journal, year, DOI and abstract.
 */
export function pubmedAdapter(base: string, apiKey: string | undefined, options: AdapterOptions = {}): LiteratureAdapter {
  const withKey = (url: URL) => {
    if (apiKey) url.searchParams.set('api_key', apiKey);
    url.searchParams.set('tool', 'csai');
    return url;
  };
  return async (q) => {
    const search = withKey(new URL(`${base}/esearch.fcgi`));
    search.searchParams.set('db', 'pubmed');
    search.searchParams.set('term', q.query);
    search.searchParams.set('retmode', 'json');
    search.searchParams.set('retmax', String(q.limit));
    search.searchParams.set('sort', 'relevance');
    const parsed = esearchAnswer.safeParse(await getServiceJson('pubmed', search, q, options));
    if (!parsed.success) throw serviceFailed.shape('PubMed');
    if (parsed.data.esearchresult.ERROR) throw serviceFailed.reported('PubMed', parsed.data.esearchresult.ERROR);
    const ids = (parsed.data.esearchresult.idlist ?? []).filter((id) => /^\d+$/.test(id)).slice(0, q.limit);
    if (!ids.length) return [];
    const fetch = withKey(new URL(`${base}/efetch.fcgi`));
    fetch.searchParams.set('db', 'pubmed');
    fetch.searchParams.set('id', ids.join(','));
    fetch.searchParams.set('retmode', 'xml');
    const xml = await getService('pubmed', fetch, 'application/xml, text/xml', q, options);
    const doc = new DOMParser().parseFromString(xml, 'text/xml');
    const articles = [...doc.getElementsByTagName('PubmedArticle')];
    if (!articles.length && !/<PubmedArticleSet/.test(xml)) throw serviceFailed.shape('PubMed');
    const byId = new Map(articles.map(articleHit).filter((h): h is LiteratureHit => h !== null).map((h) => [h.pmid!, h]));
    // In esearch's order (relevance).
    return ids.map((id) => byId.get(id)).filter((h): h is LiteratureHit => h !== undefined);
  };
}
