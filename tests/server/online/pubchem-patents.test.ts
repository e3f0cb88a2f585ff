import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pubchemPatentAdapter, patentDetailsOf } from '../../../src/server/online/patents/pubchem';
import { ASPIRIN_KEY, startFakePubChem, type FakePubChem } from './pubchem-server';

// PubChem's patent cross-references are numbers only: title, assignee and date come from each
// patent's PUG View record (a local server speaking PubChem's documented shapes).
// A server of its own for each test: a request of an earlier test (one a stop cut off) that the
// server reads only after that test ended, on a busy machine, must not count as this test's.
let pubchem: FakePubChem;
beforeEach(async () => {
  pubchem = await startFakePubChem();
});
afterEach(() => pubchem?.close());

const signal = () => AbortSignal.timeout(20_000);
const adapter = (options: { detailsBudgetMs?: number; minIntervalMs?: number } = {}) => pubchemPatentAdapter({ baseUrl: pubchem.url, minIntervalMs: 0, ...options });
const page = (n: string) => `https://pubchem.ncbi.nlm.nih.gov/patent/${n}`;
const unknown = (number: string) => ({ number, title: null, assignee: null, date: null, url: page(number), source: 'pubchem' });

describe('PubChem patent details', () => {
  it('fills title, assignee and publication date from the PUG View record; what a record lacks stays missing', async () => {
    const hits = await adapter().byStructure({ inchiKey: ASPIRIN_KEY }, 10, signal());
    expect(hits).toEqual([
      { number: 'US-10000000-B2', title: 'Acetylsalicylic acid formulation', assignee: 'BAYER AG; BAYER PHARMA AG', date: '2018-06-19', url: page('US-10000000-B2'), source: 'pubchem' },
      // A title only: no assignee or date is made up.
      { number: 'CN-101234567-A', title: '阿司匹林肠溶片及其制备方法', assignee: null, date: null, url: page('CN-101234567-A'), source: 'pubchem' },
      // No record (404 PUGVIEW.NotFound): listed with every field missing.
      unknown('JP-2001123456-A'),
    ]);
    expect(pubchem.requests.filter((r) => r.startsWith('/rest/pug_view/')).sort()).toEqual([
      '/rest/pug_view/data/patent/CN-101234567-A/JSON',
      '/rest/pug_view/data/patent/JP-2001123456-A/JSON',
      '/rest/pug_view/data/patent/US-10000000-B2/JSON',
    ]);
  });

  it('reads only the records of the patents it lists, and remembers them', async () => {
    const a = adapter();
    expect((await a.byText('aspirin', 1, signal())).map((h) => h.title)).toEqual(['Acetylsalicylic acid formulation']);
    expect(pubchem.requests.filter((r) => r.startsWith('/rest/pug_view/'))).toEqual(['/rest/pug_view/data/patent/US-10000000-B2/JSON']);
    pubchem.requests.length = 0;
    expect((await a.byText('aspirin', 3, signal()))[0]).toMatchObject({ assignee: 'BAYER AG; BAYER PHARMA AG' });
    // The first is remembered; only the two new ones are asked.
    expect(pubchem.requests.filter((r) => r.startsWith('/rest/pug_view/'))).toHaveLength(2);
  });

  it.each(['503', 'malformed'] as const)('a PUG View that answers %s leaves the fields missing and the patents listed', async (view) => {
    pubchem.view = view;
    const hits = await adapter().byText('aspirin', 10, signal());
    expect(hits).toEqual(['US-10000000-B2', 'CN-101234567-A', 'JP-2001123456-A'].map(unknown));
    // Not remembered: asked again once PubChem answers.
    pubchem.view = 'ok';
    const again = adapter();
    expect((await again.byText('aspirin', 1, signal()))[0]!.title).toBe('Acetylsalicylic acid formulation');
  });

  it('records that do not come within the budget are given up, the patents still listed', async () => {
    pubchem.view = 'hang';
    const hits = await adapter({ detailsBudgetMs: 300 }).byText('aspirin', 10, signal());
    expect(hits.map((h) => h.title)).toEqual([null, null, null]);
  });

  it('a stop while records are read stops the search', async () => {
    pubchem.view = 'hang';
    const ctl = new AbortController();
    const search = adapter().byText('aspirin', 10, ctl.signal);
    setTimeout(() => ctl.abort(new Error('stopped')), 100);
    await expect(search).rejects.toThrow();
  });

  it('spaces its requests as PubChem asks (at most 5 a second)', async () => {
    const started = Date.now();
    await pubchemPatentAdapter({ baseUrl: pubchem.url }).byText('aspirin', 3, signal());
    // 2 PUG REST requests and 3 records: the fifth cannot start before 4 × 200 ms have passed.
    expect(pubchem.requests).toHaveLength(5);
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);
  });

  it('reads a record whose dates are written with slashes, and several assignee headings', () => {
    expect(
      patentDetailsOf({
        Record: {
          RecordTitle: '  Kinase inhibitors ',
          Section: [
            { TOCHeading: 'Important Dates', Section: [{ TOCHeading: 'Publication Date', Information: [{ Value: { DateISO8601: ['2020/01/01'] } }] }] },
            { TOCHeading: 'Assignee', Information: [{ Value: { StringWithMarkup: [{ String: 'NOVARTIS AG' }, { String: 'NOVARTIS AG' }, { String: '' }] } }] },
          ],
        },
      }),
    ).toEqual({ title: 'Kinase inhibitors', assignee: 'NOVARTIS AG', date: '2020-01-01' });
    expect(patentDetailsOf({ Record: { RecordTitle: '' } })).toEqual({ title: null, assignee: null, date: null });
  });
});
