import { sql } from 'kysely';
import { MOLECULE_SEARCH_LIMITS, type MoleculeHit, type MoleculeSearchMode, type MolSearchResult } from '../../contract/molecules';
import { moleculeChem, type PreparedQuery } from '../chem/molecule-ops';
import type { ChemService } from '../chem/service';
import type { Db } from '../db/database';
import { docReadable, type Viewer } from '../access/access';
import { fingerprintWords, moleculeFingerprints } from './fingerprints';
import type { ActivityFilter } from '../../contract/chemdocs';
import { linkedMolecules, withActivities } from './activity-filter';

/** An InChIKey's second block when the structure has no stereo and no isotope layer. */
const STEREO_FREE = 'UHFFFAOYSA';
/** An isotope mark in a SMILES atom ([2H], [13CH3]). */
const ISOTOPE = /\[\d/;

/** Candidates a chemistry worker matches in one call (~0.1 ms each), and calls in flight at once. */
const MATCH_CHUNK = 1500;
const MATCH_PARALLEL = 2;

export interface MoleculeQuery {
  query: string;
  mode: MoleculeSearchMode;
  threshold?: number;
  topK?: number;
  /** Exact search also finds the query's salts, mixtures and charged forms by their standardised parent (default true). */
  matchParent?: boolean;
  /** Only molecules linked to an activity satisfying this (molecules/activity-filter.ts). */
  activity?: ActivityFilter;
}

/**
 * Molecule search over the molecules of every document the viewer may read
 * (`docReadable`): exact structure by InChIKey (canonical SMILES where InChI has none) in SQL;
 * similarity as a scan of the in-memory Morgan fingerprints; substructure as a pattern-fingerprint
 * screen in memory, then RDKit matching of the candidates in the chemistry workers, closest in size
 * first, stopping once top_k are found. Bad queries throw ChemInputError (a 400 with its message).
 */
export function moleculeSearch({ db, chem }: { db: Db; chem: Pick<ChemService, 'molecules'> }) {
  const rdkit = moleculeChem(chem);
  const index = moleculeFingerprints(db);

  /** The indexed documents the viewer may read. */
  const readableDocs = async (viewer: Viewer) =>
    (
      await db
        .selectFrom('molecule_docs')
        .innerJoin('kb_documents', 'kb_documents.id', 'molecule_docs.doc_id')
        .select('kb_documents.id')
        .where('molecule_docs.molecules', '>', 0)
        .where(docReadable(viewer.userId))
        .execute()
    ).map((r) => r.id);

  /** The stored rows of the given molecules as hits, in the order given. */
  async function hitsOf(
    ids: number[],
    scores: Map<number, number | null>,
    extra: { matched?: (row: { id: number; inchikey: string; canonical_smiles: string }) => MoleculeHit['matched'] } = {},
  ): Promise<MoleculeHit[]> {
    if (!ids.length) return [];
    const rows = await db
      .selectFrom('molecules')
      .innerJoin('kb_documents', 'kb_documents.id', 'molecules.doc_id')
      .leftJoin('doc_structures', 'doc_structures.id', 'molecules.structure_id')
      .select(['molecules.id', 'molecules.doc_id', 'molecules.source', 'molecules.ordinal', 'molecules.page', 'molecules.name', 'molecules.canonical_smiles', 'molecules.inchikey', 'molecules.parent_smiles', 'kb_documents.title', 'kb_documents.type'])
      .select(['molecules.structure_id', 'doc_structures.bbox', 'doc_structures.label'])
      .where('molecules.id', 'in', ids)
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const r = byId.get(id);
      if (!r) return []; // replaced since the scan
      return [{
        molecule_id: r.id,
        doc_id: r.doc_id,
        doc_title: r.title,
        doc_type: r.type,
        source: r.source,
        page: r.page,
        name: r.name,
        mol_key: r.source === 'sdf' ? `${r.doc_id}:${r.ordinal}` : null,
        smiles: r.canonical_smiles,
        inchikey: r.inchikey,
        score: scores.get(id) ?? null,
        matched: extra.matched?.(r) ?? null,
        parent_smiles: r.parent_smiles,
        highlight: null,
        ...(r.source === 'figure' ? { bbox: r.bbox ? (JSON.parse(r.bbox) as [number, number, number, number]) : null, label: r.label, structure_id: r.structure_id } : {}),
      }];
    });
  }

  /**
   * The query's structure (InChIKey; canonical SMILES where InChI has none) and, with `matchParent`,
   * every molecule with the same standardised parent: the hydrochloride of a free base, the free base
   * of a salt, a mixture containing it as its largest organic part; and, when the query gives no
   * stereo, its stereoisomers (the same InChIKey skeleton: a drawing's double bond read as E, one
   * enantiomer of a racemate). The structure itself comes first, then its stereoisomers.
   */
  async function exact(viewer: Viewer, q: PreparedQuery, topK: number, matchParent: boolean, only?: ReadonlySet<number>) {
    const isStructure = (r: { inchikey: string; canonical_smiles: string }) => (q.inchiKey ? r.inchikey === q.inchiKey : r.inchikey === '' && r.canonical_smiles === q.display);
    const skeleton = q.inchiKey && q.inchiKey.slice(15, 25) === STEREO_FREE ? q.inchiKey.slice(0, 14) : null;
    // The key's second block also holds isotopes: a labelled form ([2H], [13C]) is no stereoisomer.
    const isStereoisomer = (r: { inchikey: string; canonical_smiles: string }) => skeleton !== null && r.inchikey.startsWith(`${skeleton}-`) && !ISOTOPE.test(r.canonical_smiles);
    const isParent = (r: { parent_key: string }) => matchParent && !!q.parentKey && r.parent_key === q.parentKey;
    const rows = await db
      .selectFrom('molecules')
      .innerJoin('kb_documents', 'kb_documents.id', 'molecules.doc_id')
      .select(['molecules.id', 'molecules.inchikey', 'molecules.canonical_smiles', 'molecules.parent_key'])
      .where((eb) => {
        const same = q.inchiKey ? eb('molecules.inchikey', '=', q.inchiKey) : eb.and([eb('molecules.inchikey', '=', ''), eb('molecules.canonical_smiles', '=', q.display)]);
        const alike = [same];
        // The expression the migration indexes (0030_molecules_skeleton).
        if (skeleton) alike.push(eb(sql<string>`substr(inchikey, 1, 14)`, '=', skeleton));
        if (matchParent && q.parentKey) alike.push(eb('molecules.parent_key', '=', q.parentKey));
        return eb.or(alike);
      })
      .where(docReadable(viewer.userId))
      .$if(only !== undefined, (qb) => qb.where('molecules.id', 'in', only!.size ? [...only!] : [-1]))
      .orderBy('kb_documents.created_at')
      .orderBy('molecules.ordinal')
      .limit(MOLECULE_SEARCH_LIMITS.maxTopK * 2 + 1)
      .execute();
    // How each row matched, in the order shown (a row found by its skeleton alone that is an isotope-labelled form is dropped).
    const MATCHES = ['structure', 'stereo', 'parent'] as const;
    const ordered = rows
      .map((r) => ({ id: r.id, how: isStructure(r) ? 0 : isStereoisomer(r) ? 1 : isParent(r) ? 2 : -1 }))
      .filter((r) => r.how >= 0)
      .sort((a, b) => a.how - b.how);
    const ids = ordered.slice(0, topK).map((r) => r.id);
    const matched = new Map(ordered.map((r) => [r.id, MATCHES[r.how]!]));
    return { hits: await hitsOf(ids, new Map(ids.map((id) => [id, 1])), { matched: (r) => matched.get(r.id) ?? null }), truncated: ordered.length > topK };
  }

  async function substructure(queryText: string, q: PreparedQuery, candidates: number[], topK: number) {
    const found: number[] = [];
    // Chunks in order, MATCH_PARALLEL at a time; stop once more than top_k are known.
    for (let start = 0; start < candidates.length && found.length <= topK; start += MATCH_CHUNK * MATCH_PARALLEL) {
      const chunks: number[][] = [];
      for (let c = 0; c < MATCH_PARALLEL; c++) {
        const chunk = candidates.slice(start + c * MATCH_CHUNK, start + (c + 1) * MATCH_CHUNK);
        if (chunk.length) chunks.push(chunk);
      }
      const matched = await Promise.all(chunks.map((chunk) => rdkit.match(queryText, q.form, chunk.map((i) => index.pickles[i]!), topK + 1 - found.length)));
      chunks.forEach((chunk, c) => {
        for (const k of matched[c]!) found.push(index.ids[chunk[k]!]!);
      });
    }
    const ids = found.slice(0, topK);
    const hits = await hitsOf(ids, new Map());
    // The matched atoms, numbered as in each hit's canonical SMILES (its picture), for highlighting.
    const highlights = hits.length ? await rdkit.highlight(queryText, q.form, hits.map((h) => h.smiles)) : [];
    return { hits: hits.map((h, i) => ({ ...h, highlight: highlights[i] ?? null })), truncated: found.length > topK };
  }

  return {
    async search(viewer: Viewer, { query, mode, threshold = MOLECULE_SEARCH_LIMITS.defaultThreshold, topK = MOLECULE_SEARCH_LIMITS.defaultTopK, matchParent = true, activity }: MoleculeQuery): Promise<MolSearchResult> {
      const started = performance.now();
      const [prepared, docs] = await Promise.all([rdkit.query(query, mode), readableDocs(viewer), index.refresh()]);
      const mask = index.maskOf(docs);
      // An activity filter: the search runs within the molecules linked to a matching activity.
      const only = activity ? (await linkedMolecules(db, viewer, activity)).ids : undefined;
      const kept = (i: number) => !only || only.has(index.ids[i]!);
      let result: { hits: MoleculeHit[]; truncated: boolean; searched: number };
      if (mode === 'exact') {
        const found = await exact(viewer, prepared, topK, matchParent, only);
        result = { ...found, searched: countReadable(mask) };
      } else if (mode === 'similarity') {
        const found = index.similar(fingerprintWords(prepared.morgan ?? new Uint8Array(0)), mask, threshold, only ? index.count : topK);
        const hits = found.hits.filter((h) => kept(h.index));
        const ids = hits.slice(0, topK).map((h) => index.ids[h.index]!);
        result = { hits: await hitsOf(ids, new Map(hits.map((h) => [index.ids[h.index]!, round(h.score)]))), truncated: only ? hits.length > topK : found.more, searched: found.searched };
      } else {
        const { candidates, searched } = index.screen(fingerprintWords(prepared.pattern), mask);
        result = { ...(await substructure(query, prepared, only ? candidates.filter(kept) : candidates, topK)), searched };
      }
      result.hits = await withActivities(db, viewer, result.hits, activity);
      return { mode, query: { form: prepared.form, text: prepared.display, parent: prepared.parentSmiles }, ...result, took_ms: Math.round((performance.now() - started) * 10) / 10 };
    },

    /** The molecules linked to an activity satisfying `activity`, without a structure query (intelligence_search). */
    async linked(viewer: Viewer, activity: ActivityFilter, topK: number): Promise<{ hits: MoleculeHit[]; truncated: boolean; searched: number }> {
      const { ids, truncated } = await linkedMolecules(db, viewer, activity);
      const sorted = [...ids].sort((a, b) => a - b);
      const hits = await withActivities(db, viewer, await hitsOf(sorted.slice(0, topK), new Map()), activity);
      return { hits, truncated: truncated || ids.size > topK, searched: ids.size };
    },
  };

  function countReadable(mask: Uint8Array): number {
    let n = 0;
    for (let i = 0; i < index.count; i++) {
      const slot = index.slots[i]!;
      if (slot >= 0 && mask[slot]) n++;
    }
    return n;
  }
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Readable documents in SQL for callers that only need the ids (the text part of intelligence search). */
export const readableDocumentIds = async (db: Db, viewer: Viewer, limit: number) =>
  (
    await db
      .selectFrom('kb_documents')
      .select('id')
      .where('parse_status', '=', 2)
      .where(docReadable(viewer.userId))
      .orderBy(sql`case when owner_id = ${viewer.userId} then 0 else 1 end`)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute()
  ).map((r) => r.id);
