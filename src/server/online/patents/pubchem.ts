import { z } from 'zod';
import type { PatentHit } from '../../../contract/patents';
import { parseAnswer, requestJson } from './http';
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

/** The publication date is not in PubChem's cross-references; the number is the whole record. */
const hitOf = (number: string): PatentHit => ({ number, title: null, assignee: null, date: null, url: PATENT_PAGE + encodeURIComponent(number), source: 'pubchem' });

/**
 * PubChem's patent cross-references through PUG REST at `CSAI_PUBCHEM_URL` (…/rest/pug):
 * a structure or name → CIDs (`compound/inchikey|smiles|name/…/cids/JSON`), then
 * `compound/cid/{cids}/xrefs/PatentID/JSON`. PubChem answers “not found” with 404: no hits.
 */
export function pubchemPatentAdapter({ baseUrl }: { baseUrl: string }): PatentAdapter {
  const base = baseUrl.replace(/\/+$/, '');

  const cids = async (path: string, signal: AbortSignal): Promise<number[]> => {
    const answer = await requestJson(SITE, `${base}/compound/${path}`, { signal, emptyOn: [404] });
    if (answer === undefined) return [];
    return parseAnswer(SITE, cidList, answer).IdentifierList.CID.filter((cid) => cid > 0).slice(0, MAX_CIDS);
  };

  const patents = async (found: number[], limit: number, signal: AbortSignal): Promise<PatentHit[]> => {
    if (found.length === 0) return [];
    const answer = await requestJson(SITE, `${base}/compound/cid/${found.join(',')}/xrefs/PatentID/JSON`, { signal, emptyOn: [404] });
    if (answer === undefined) return [];
    const numbers = new Set<string>();
    for (const info of parseAnswer(SITE, patentXrefs, answer).InformationList.Information) {
      for (const id of info.PatentID ?? []) {
        if (numbers.size >= limit) break;
        if (id.trim()) numbers.add(id.trim());
      }
    }
    return [...numbers].map(hitOf);
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
