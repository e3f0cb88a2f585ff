import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { PatentHit } from '../../../contract/patents';
import { serviceShape as parseAnswer } from '../../net/service';
import { isoDate, requestJson } from './http';
import type { PatentAdapter, StructureQuery } from './types';

const SITE = 'PubChem';
/** PubChem's public patent page (PubChem mirrors link out to the same records). */
const PATENT_PAGE = 'https://pubchem.ncbi.nlm.nih.gov/patent/';
/** Compounds whose patent cross-references are read at most (a name can match several). */
const MAX_CIDS = 3;

const cidList = z.object({ IdentifierList: z.object({ CID: z.array(z.number().int()) }) });
const patentXrefs = z.object({
  InformationList: z.object({
    Information: z.array(z.object({ CID: z.number().int().optional(), PatentID: z.array(z.string()).optional() })),
  }),
});

/** What PubChem's patent record says of a patent; null where it says nothing. */
type PatentDetails = Pick<PatentHit, 'title' | 'assignee' | 'date'>;
const UNKNOWN: PatentDetails = { title: null, assignee: null, date: null };

const hitOf = (number: string, details: PatentDetails = UNKNOWN): PatentHit => ({ number, ...details, url: PATENT_PAGE + encodeURIComponent(number), source: 'pubchem' });

// PUG View's record: `Record.RecordTitle` and sections named by `TOCHeading`, nested, whose
// `Information[].Value` holds `StringWithMarkup[].String` or `DateISO8601[]`.
const information = z.object({
  Value: z.object({ StringWithMarkup: z.array(z.object({ String: z.string().optional() })).optional(), DateISO8601: z.array(z.string()).optional() }).optional(),
});
const section = z.object({
  TOCHeading: z.string().optional(),
  Information: z.array(information).optional(),
  get Section() {
    return z.array(section).optional();
  },
});
type Section = z.infer<typeof section>;
const patentRecord = z.object({ Record: z.object({ RecordTitle: z.string().optional(), Section: z.array(section).optional() }) });

/** Assignees kept at most (a record may list a dozen former owners). */
const MAX_ASSIGNEES = 3;

/** The strings (or dates) under each heading of the record, first occurrence of a heading kept. */
function headings(sections: readonly Section[], out = new Map<string, string[]>()): Map<string, string[]> {
  for (const s of sections) {
    const values = (s.Information ?? []).flatMap((i) => [...(i.Value?.StringWithMarkup ?? []).map((m) => m.String ?? ''), ...(i.Value?.DateISO8601 ?? [])]).map((v) => v.trim()).filter(Boolean);
    if (s.TOCHeading && !out.has(s.TOCHeading)) out.set(s.TOCHeading, values);
    headings(s.Section ?? [], out);
  }
  return out;
}

/** Title, assignee(s) and publication date of a PUG View patent record; what it lacks stays null. */
export function patentDetailsOf(record: z.infer<typeof patentRecord>): PatentDetails {
  const found = headings(record.Record.Section ?? []);
  const title = record.Record.RecordTitle?.trim() || null;
  const assignees = [...new Set(found.get('Assignee') ?? found.get('Assignees') ?? [])].slice(0, MAX_ASSIGNEES);
  const published = found.get('Publication Date')?.[0];
  return { title, assignee: assignees.length ? assignees.join('; ') : null, date: isoDate(published?.replace(/\//g, '-')) };
}

export interface PubchemPatentOptions {
  /** PUG REST base (`CSAI_PUBCHEM_URL`, …/rest/pug); PUG View is its sibling …/rest/pug_view. */
  baseUrl: string;
  /** Least time between two requests: PubChem asks for at most 5 a second. */
  minIntervalMs?: number;
  /** Longest the patent records of one search may take; the patents not read by then keep unknown fields. */
  detailsBudgetMs?: number;
}

/** Patent records read at once. */
const DETAIL_CONCURRENCY = 3;
/** Records remembered (a record rarely changes; a miss is asked again after an hour). */
const CACHE_SIZE = 2000;
const CACHE_FOUND_MS = 24 * 3600_000;
const CACHE_MISSING_MS = 3600_000;

/**
 * PubChem's patent cross-references through PUG REST at `CSAI_PUBCHEM_URL` (…/rest/pug):
 * a structure or name → CIDs (`compound/inchikey|smiles|name/…/cids/JSON`), then
 * `compound/cid/{cids}/xrefs/PatentID/JSON`. PubChem answers “not found” with 404: no hits.
 * The cross-references are numbers only: each patent's title, assignee and publication date are
 * read from its PUG View record (`…/rest/pug_view/data/patent/{number}/JSON`), a few at a time, at
 * most 5 requests a second, within `detailsBudgetMs`; a record that is missing, unreadable or late
 * leaves those fields null (the patent is still listed).
 */
export function pubchemPatentAdapter({ baseUrl, minIntervalMs = 200, detailsBudgetMs = 15_000 }: PubchemPatentOptions): PatentAdapter {
  const base = baseUrl.replace(/\/+$/, '');
  const viewBase = new URL('../pug_view', `${base}/`).href;
  const cache = new Map<string, { details: PatentDetails; until: number }>();

  // Request starts spaced by minIntervalMs across every search of this adapter.
  let nextStart = 0;
  const pace = async (signal: AbortSignal) => {
    const now = Date.now();
    const wait = nextStart - now;
    nextStart = Math.max(now, nextStart) + minIntervalMs;
    if (wait > 0) await sleep(wait, undefined, { signal });
  };

  const get = async (url: string, signal: AbortSignal) => {
    await pace(signal);
    return requestJson(SITE, url, { signal, emptyOn: [404] });
  };

  /** One patent's record; unknown fields when PubChem has none or answers badly. Only a stop throws. */
  const detailsOf = async (number: string, signal: AbortSignal, stop: AbortSignal): Promise<PatentDetails> => {
    const cached = cache.get(number);
    if (cached && cached.until > Date.now()) return cached.details;
    let answer: unknown;
    try {
      answer = await get(`${viewBase}/data/patent/${encodeURIComponent(number)}/JSON`, signal);
    } catch (err) {
      if (stop.aborted) throw err;
      return UNKNOWN; // 429/503, a timeout, the budget: not remembered, asked again next time
    }
    const parsed = answer === undefined ? undefined : patentRecord.safeParse(answer);
    if (parsed && !parsed.success) return UNKNOWN;
    const details = parsed ? patentDetailsOf(parsed.data) : UNKNOWN;
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(number, { details, until: Date.now() + (parsed ? CACHE_FOUND_MS : CACHE_MISSING_MS) });
    return details;
  };

  const withDetails = async (numbers: string[], stop: AbortSignal): Promise<PatentHit[]> => {
    const signal = AbortSignal.any([stop, AbortSignal.timeout(detailsBudgetMs)]);
    const details: PatentDetails[] = numbers.map(() => UNKNOWN);
    let next = 0;
    const worker = async () => {
      while (next < numbers.length && !signal.aborted) {
        const i = next++;
        details[i] = await detailsOf(numbers[i]!, signal, stop);
      }
    };
    await Promise.all(Array.from({ length: Math.min(DETAIL_CONCURRENCY, numbers.length) }, worker));
    return numbers.map((n, i) => hitOf(n, details[i]));
  };

  const cids = async (path: string, signal: AbortSignal): Promise<number[]> => {
    const answer = await get(`${base}/compound/${path}`, signal);
    if (answer === undefined) return [];
    return parseAnswer(SITE, cidList, answer).IdentifierList.CID.filter((cid) => cid > 0).slice(0, MAX_CIDS);
  };

  const patents = async (found: number[], limit: number, signal: AbortSignal): Promise<PatentHit[]> => {
    if (found.length === 0) return [];
    const answer = await get(`${base}/compound/cid/${found.join(',')}/xrefs/PatentID/JSON`, signal);
    if (answer === undefined) return [];
    const numbers = new Set<string>();
    for (const info of parseAnswer(SITE, patentXrefs, answer).InformationList.Information) {
      for (const id of info.PatentID ?? []) {
        if (numbers.size >= limit) break;
        if (id.trim()) numbers.add(id.trim());
      }
    }
    return withDetails([...numbers], signal);
  };

  return {
    source: 'pubchem',
    site: SITE,
    async byStructure(query: StructureQuery, limit, signal) {
      const found = query.inchiKey
        ? await cids(`inchikey/${encodeURIComponent(query.inchiKey)}/cids/JSON`, signal)
        : await cids(`smiles/cids/JSON?${new URLSearchParams({ smiles: query.smiles ?? '' })}`, signal);
      return patents(found, limit, signal);
    },
    async byText(text, limit, signal) {
      return patents(await cids(`name/${encodeURIComponent(text)}/cids/JSON`, signal), limit, signal);
    },
  };
}
