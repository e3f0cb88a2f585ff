import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const ASPIRIN_KEY = 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N';

/** One PUG View `Information` entry holding strings or dates, as PubChem writes them. */
const strings = (...values: string[]) => ({ ReferenceNumber: 1, Value: { StringWithMarkup: values.map((String) => ({ String })) } });
const dates = (...values: string[]) => ({ ReferenceNumber: 1, Value: { DateISO8601: values } });

/**
 * PUG View patent records (`/rest/pug_view/data/patent/{id}/JSON`) in PubChem's documented shape:
 * `Record` with `RecordType`, `RecordAccession`, `RecordTitle` and nested `Section`s named by
 * `TOCHeading`, whose `Information[].Value` holds `StringWithMarkup` or `DateISO8601`.
 */
const RECORDS: Record<string, unknown> = {
  'US-10000000-B2': {
    Record: {
      RecordType: 'Patent',
      RecordAccession: 'US-10000000-B2',
      RecordTitle: 'Acetylsalicylic acid formulation',
      Section: [
        { TOCHeading: 'Abstract', Description: 'Abstract of the patent', Information: [strings('An oral formulation of acetylsalicylic acid.')] },
        { TOCHeading: 'Inventor', Information: [strings('SMITH JOHN', 'DOE JANE')] },
        { TOCHeading: 'Assignee', Information: [strings('BAYER AG', 'BAYER PHARMA AG')] },
        {
          TOCHeading: 'Important Dates',
          Section: [
            { TOCHeading: 'Priority Date', Information: [dates('2015-03-10')] },
            { TOCHeading: 'Filing Date', Information: [dates('2016-03-09')] },
            { TOCHeading: 'Publication Date', Information: [dates('2018-06-19')] },
          ],
        },
        { TOCHeading: 'Country', Information: [strings('US')] },
      ],
      Reference: [{ ReferenceNumber: 1, SourceName: 'Google Patents', SourceID: 'US-10000000-B2' }],
    },
  },
  // Only a title: the assignee and the date are unknown (and must stay so).
  'CN-101234567-A': { Record: { RecordType: 'Patent', RecordAccession: 'CN-101234567-A', RecordTitle: '阿司匹林肠溶片及其制备方法', Section: [{ TOCHeading: 'Country', Information: [strings('CN')] }] } },
};

/**
 * What PubChem's PUG REST answers (under /rest/pug/): aspirin's CID by InChIKey, name or SMILES,
 * and its patent ids; any other compound a 404 `Fault`. Undefined for a path outside PUG REST.
 */
export function pugRestAnswer(url: URL): { status: number; body: unknown } | undefined {
  const p = decodeURIComponent(url.pathname);
  if (p === `/rest/pug/compound/inchikey/${ASPIRIN_KEY}/cids/JSON` || p === '/rest/pug/compound/name/aspirin/cids/JSON') return { status: 200, body: { IdentifierList: { CID: [2244] } } };
  if (p === '/rest/pug/compound/smiles/cids/JSON' && url.searchParams.get('smiles')) return { status: 200, body: { IdentifierList: { CID: [2244] } } };
  if (p === '/rest/pug/compound/cid/2244/xrefs/PatentID/JSON') return { status: 200, body: { InformationList: { Information: [{ CID: 2244, PatentID: ['US-10000000-B2', 'CN-101234567-A', 'JP-2001123456-A'] }] } } };
  if (p.startsWith('/rest/pug/')) return { status: 404, body: { Fault: { Code: 'PUGREST.NotFound', Message: 'No CID found', Details: ['No CID found that matches the given name'] } } };
  return undefined;
}

export interface FakePubChem {
  /** Base of PUG REST, as `CSAI_PUBCHEM_URL` is set: `http://127.0.0.1:port/rest/pug`. */
  url: string;
  requests: string[];
  /** How PUG View answers: normally, 503, malformed JSON, or never. */
  view: 'ok' | '503' | 'malformed' | 'hang';
  close(): Promise<void>;
}

/**
 * PubChem on 127.0.0.1: PUG REST (name/InChIKey/SMILES → CIDs, `xrefs/PatentID`; a miss is 404
 * with a `Fault`) and PUG View patent records (a patent without a record is 404 `PUGVIEW.NotFound`).
 */
export async function startFakePubChem(): Promise<FakePubChem> {
  const requests: string[] = [];
  const state: FakePubChem = {
    url: '',
    requests,
    view: 'ok',
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(req.url ?? '');
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof value === 'string' ? value : JSON.stringify(value));
    };
    const p = decodeURIComponent(url.pathname);
    const rest = pugRestAnswer(url);
    if (rest) return json(rest.status, rest.body);
    const record = /^\/rest\/pug_view\/data\/patent\/([^/]+)\/JSON$/.exec(p);
    if (record) {
      if (state.view === 'hang') return; // never answers
      if (state.view === '503') return json(503, { Fault: { Code: 'PUGVIEW.ServerBusy', Message: 'Too many requests or server too busy' } });
      if (state.view === 'malformed') return json(200, '{"Record": {"RecordTitle": ');
      const found = RECORDS[record[1]!];
      return found ? json(200, found) : json(404, { Fault: { Code: 'PUGVIEW.NotFound', Message: 'No record data for Patent', Details: [`Patent ${record[1]!} not found`] } });
    }
    json(404, { Fault: { Code: 'PUGREST.BadRequest', Message: 'Unrecognized request' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rest/pug`;
  return state;
}
