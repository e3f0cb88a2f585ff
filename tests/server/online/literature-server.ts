import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** How each stand-in service answers next: normally, or with one of its documented failures. */
export type Mode = 'ok' | 'rate_limited' | 'server_error' | 'bad_json' | 'bad_term' | 'slow' | 'empty';

export interface Requests {
  path: string;
  params: URLSearchParams;
}

const PUBMED_XML = `<?xml version="1.0" ?>
<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2024//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_240101.dtd">
<PubmedArticleSet>
<PubmedArticle><MedlineCitation Status="MEDLINE" Owner="NLM"><PMID Version="1">31000002</PMID>
<Article PubModel="Print"><Journal><JournalIssue CitedMedium="Internet"><Volume>12</Volume><PubDate><MedlineDate>2019 Jan-Feb</MedlineDate></PubDate></JournalIssue><Title>British journal of pharmacology</Title></Journal>
<ArticleTitle>Second paper on aspirin.</ArticleTitle>
<Abstract><AbstractText>Plain abstract of the second paper.</AbstractText></Abstract>
<AuthorList CompleteYN="Y"><Author ValidYN="Y"><CollectiveName>Aspirin Trial Group</CollectiveName></Author></AuthorList></Article></MedlineCitation>
<PubmedData><ArticleIdList><ArticleId IdType="pubmed">31000002</ArticleId></ArticleIdList></PubmedData></PubmedArticle>
<PubmedArticle><MedlineCitation Status="MEDLINE" Owner="NLM"><PMID Version="1">31000001</PMID>
<Article PubModel="Print-Electronic"><Journal><JournalIssue CitedMedium="Internet"><Volume>62</Volume><PubDate><Year>2020</Year><Month>Mar</Month></PubDate></JournalIssue><Title>Journal of medicinal chemistry</Title></Journal>
<ArticleTitle>Aspirin and <i>cyclooxygenase</i> acetylation.</ArticleTitle>
<ELocationID EIdType="doi" ValidYN="Y">10.1021/acs.jmedchem.0c00001</ELocationID>
<Abstract><AbstractText Label="BACKGROUND" NlmCategory="BACKGROUND">Aspirin acetylates COX-1.</AbstractText><AbstractText Label="RESULTS" NlmCategory="RESULTS">Serine 530 is modified.</AbstractText></Abstract>
<AuthorList CompleteYN="Y"><Author ValidYN="Y"><LastName>Smith</LastName><ForeName>Jane</ForeName><Initials>J</Initials></Author><Author ValidYN="Y"><LastName>Wang</LastName><ForeName>Li</ForeName><Initials>L</Initials></Author></AuthorList></Article></MedlineCitation>
<PubmedData><ArticleIdList><ArticleId IdType="pubmed">31000001</ArticleId><ArticleId IdType="doi">10.1021/acs.jmedchem.0c00001</ArticleId><ArticleId IdType="pmc">PMC7000001</ArticleId></ArticleIdList></PubmedData></PubmedArticle>
</PubmedArticleSet>`;

function europePmc(pdfUrl: string) {
  return {
    version: '6.9',
    hitCount: 2,
    nextCursorMark: 'AoIIP4AAACgzMTAwMDAwMQ==',
    request: { queryString: 'aspirin', resultType: 'core', cursorMark: '*', pageSize: 10, sort: '', synonym: false },
    resultList: {
      result: [
        {
          id: '31000001', source: 'MED', pmid: '31000001', pmcid: 'PMC7000001', doi: '10.1021/acs.jmedchem.0c00001',
          title: 'Aspirin and cyclooxygenase acetylation.',
          authorString: 'Smith J, Wang L.',
          authorList: { author: [{ fullName: 'Smith J', firstName: 'Jane', lastName: 'Smith', initials: 'J' }, { fullName: 'Wang L', firstName: 'Li', lastName: 'Wang', initials: 'L' }] },
          journalInfo: { volume: '62', journal: { title: 'Journal of medicinal chemistry', isoabbreviation: 'J Med Chem' }, yearOfPublication: 2020 },
          pubYear: '2020',
          abstractText: '<h4>Background</h4>Aspirin acetylates COX-1 at <i>Ser530</i>.',
          isOpenAccess: 'Y', inEPMC: 'Y', inPMC: 'Y', hasPDF: 'Y',
          fullTextUrlList: { fullTextUrl: [
            { availability: 'Subscription required', availabilityCode: 'S', documentStyle: 'doi', site: 'DOI', url: 'https://doi.org/10.1021/acs.jmedchem.0c00001' },
            { availability: 'Open access', availabilityCode: 'OA', documentStyle: 'pdf', site: 'Europe_PMC', url: pdfUrl },
          ] },
        },
        { id: 'PPR1', source: 'PPR', title: 'A preprint without a journal', authorString: 'Li X.', pubYear: '2024', isOpenAccess: 'N' },
        { id: 'X', source: 'MED' },
      ],
    },
  };
}

function openAlex(pdfUrl: string) {
  return {
    meta: { count: 2, db_response_time_ms: 20, page: 1, per_page: 10 },
    results: [
      {
        id: 'https://openalex.org/W3000000001', doi: 'https://doi.org/10.1021/acs.jmedchem.0c00001',
        title: 'Aspirin and cyclooxygenase acetylation', display_name: 'Aspirin and cyclooxygenase acetylation', publication_year: 2020,
        ids: { openalex: 'https://openalex.org/W3000000001', doi: 'https://doi.org/10.1021/acs.jmedchem.0c00001', pmid: 'https://pubmed.ncbi.nlm.nih.gov/31000001', pmcid: 'https://www.ncbi.nlm.nih.gov/pmc/articles/7000001' },
        primary_location: { is_oa: true, landing_page_url: 'https://doi.org/10.1021/acs.jmedchem.0c00001', pdf_url: null, source: { id: 'https://openalex.org/S1', display_name: 'Journal of Medicinal Chemistry' } },
        best_oa_location: { is_oa: true, landing_page_url: 'https://europepmc.org/articles/pmc7000001', pdf_url: pdfUrl, source: null },
        open_access: { is_oa: true, oa_status: 'green', oa_url: pdfUrl },
        authorships: [{ author_position: 'first', author: { id: 'https://openalex.org/A1', display_name: 'Jane Smith' } }, { author_position: 'last', author: { id: 'https://openalex.org/A2', display_name: 'Li Wang' } }],
        abstract_inverted_index: { Aspirin: [0], acetylates: [1], 'COX-1': [2], at: [3], 'Ser530.': [4] },
      },
      {
        id: 'https://openalex.org/W3000000002', doi: null, title: null, display_name: 'Untitled dataset', publication_year: null,
        primary_location: { landing_page_url: 'javascript:alert(1)', pdf_url: 'file:///etc/passwd', source: null },
        authorships: [], abstract_inverted_index: null,
      },
    ],
  };
}

/**
 * PubMed E-utilities, Europe PMC and OpenAlex on one 127.0.0.1 server (paths `/eutils`, `/europepmc`,
 * `/openalex`), each answering in its documented shape — or, by `setMode`, with 429, 500, a broken
 * body, a bad-term error or never.
 */
export async function startLiteratureServer() {
  const modes: Record<string, Mode> = { pubmed: 'ok', europepmc: 'ok', openalex: 'ok' };
  const requests: Requests[] = [];
  let pdfUrl = 'https://europepmc.org/articles/PMC7000001?pdf=render';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push({ path: url.pathname, params: url.searchParams });
    const service = url.pathname.startsWith('/eutils') ? 'pubmed' : url.pathname.startsWith('/europepmc') ? 'europepmc' : 'openalex';
    const mode = modes[service]!;
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (mode === 'slow') return setTimeout(() => json(200, {}), 5000);
    if (mode === 'rate_limited') return json(429, service === 'openalex' ? { error: 'Too Many Requests', message: 'Rate limit exceeded' } : { error: 'API rate limit exceeded', api_key: '1.2.3.4', count: '4', limit: '3' });
    if (mode === 'server_error') return res.writeHead(500, { 'content-type': 'text/html' }).end('<html><body>Internal Server Error</body></html>');
    if (mode === 'bad_json') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"resultList": [');
    if (url.pathname === '/eutils/esearch.fcgi') {
      if (mode === 'bad_term') return json(200, { header: { type: 'esearch', version: '0.3' }, esearchresult: { ERROR: 'Invalid query: unbalanced parentheses' } });
      const ids = mode === 'empty' ? [] : ['31000001', '31000002'];
      return json(200, { header: { type: 'esearch', version: '0.3' }, esearchresult: { count: String(ids.length), retmax: String(ids.length), retstart: '0', idlist: ids, translationset: [], querytranslation: url.searchParams.get('term') } });
    }
    if (url.pathname === '/eutils/efetch.fcgi') return res.writeHead(200, { 'content-type': 'text/xml; charset=UTF-8' }).end(PUBMED_XML);
    if (url.pathname === '/europepmc/search') return json(200, mode === 'empty' ? { hitCount: 0, resultList: { result: [] } } : europePmc(pdfUrl));
    if (url.pathname === '/openalex/works') return json(200, mode === 'empty' ? { meta: { count: 0 }, results: [] } : openAlex(pdfUrl));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    env: { PUBMED_URL: `${base}/eutils`, EUROPEPMC_URL: `${base}/europepmc`, OPENALEX_URL: `${base}/openalex` },
    requests,
    setMode: (service: 'pubmed' | 'europepmc' | 'openalex', mode: Mode) => (modes[service] = mode),
    reset: () => {
      modes.pubmed = modes.europepmc = modes.openalex = 'ok';
      requests.length = 0;
    },
    setPdfUrl: (url: string) => (pdfUrl = url),
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
