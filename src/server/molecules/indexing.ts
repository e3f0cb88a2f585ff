import type { FastifyBaseLogger } from 'fastify';
import { engineOf, jsonText } from '../db/dialect';
import { sql, type Insertable } from 'kysely';
import { smilesInText } from '../../contract/smiles';
import { moleculeChem, type MoleculeRecord, type RecordInput } from '../chem/molecule-ops';
import { createChemService, type ChemService } from '../chem/service';
import { now, type Db, type Executor } from '../db/database';
import type { MoleculeTable } from '../db/schema';
import { jobQueue, type Job } from '../jobs/queue';
import { jobRunner } from '../jobs/runner';
import type { FileStore } from '../files/file-store';
import { ligandMolfile, ligandSmiles, pdbLigands, perceptionFailed } from './pdb-ligands';

/**
 * Filling the molecule table: a durable job per document, queued when the document is
 * parsed or re-indexed (parse-job.ts `onParsed`) and, at start-up, for every parsed document not yet
 * indexed by this version (documents parsed before the table existed). The document's molecules are
 * replaced in one transaction, with a row in molecule_changes so every process's in-memory
 * fingerprints catch up (fingerprints.ts).
 */
export const MOLECULE_JOB = 'index_molecules';
/** Bump when what is stored changes: every document is indexed again at the next start (2: parent keys, PDB ligands by formula). */
export const MOLECULE_INDEX_VERSION = 2;
const MAX_ATTEMPTS = 3;
/** Structures sent to the chemistry worker in one call (well inside its time limit). */
const BATCH = 100;
/** SMILES taken from one document's text at most, and per passage. */
const MAX_TEXT_CANDIDATES = 5000;
const PER_PASSAGE = 50;
/** A SMILES found in prose counts as a molecule from this many heavy atoms, with carbon. */
const MIN_TEXT_HEAVY_ATOMS = 3;
const MAX_PDB_BYTES = 50 * 1024 * 1024;

interface MoleculeJobPayload {
  moleculeDocId: string;
}

interface Candidate {
  source: MoleculeTable['source'];
  ordinal: number;
  page: number | null;
  name: string | null;
  input: RecordInput;
  /** Read when RDKit refuses `input` (a PDB ligand's bonds worked out from its formula). */
  fallback?: RecordInput;
  /** A drawing's structure row (source `figure`). */
  structureId?: number;
}

function payloadOf(job: Job): MoleculeJobPayload | undefined {
  try {
    const value: unknown = JSON.parse(job.payload);
    if (value && typeof value === 'object' && 'moleculeDocId' in value && typeof value.moleculeDocId === 'string') return { moleculeDocId: value.moleculeDocId };
  } catch {
    // fall through: a malformed payload fails the job
  }
  return undefined;
}

/** Queues the document's molecule indexing unless it is already waiting. */
export async function queueMoleculeIndex(ex: Executor, docId: string): Promise<boolean> {
  return jobQueue(ex).enqueueOnce(MOLECULE_JOB, 'moleculeDocId', docId, { moleculeDocId: docId } satisfies MoleculeJobPayload, { maxAttempts: MAX_ATTEMPTS });
}

/**
 * Queues every parsed document whose molecules are missing or were indexed by an older version or
 * from older passages, unless a job for it is waiting or running, or failed for good. Returns how many.
 */
export async function queueUnindexedDocuments(ex: Executor): Promise<number> {
  const rows = await sql<{ id: string }>`
    select d.id from kb_documents d
    left join molecule_docs md on md.doc_id = d.id
    where d.parse_status = 2
      and (md.doc_id is null or md.version < ${MOLECULE_INDEX_VERSION} or md.doc_index_version != d.index_version)
      and not exists (select 1 from jobs j where j.kind = ${MOLECULE_JOB} and ${jsonText(engineOf(ex), 'j.payload', 'moleculeDocId')} = d.id
        and j.state in ('queued', 'running', 'failed'))
    order by d.created_at`.execute(ex);
  for (const row of rows.rows) await jobQueue(ex).enqueue(MOLECULE_JOB, { moleculeDocId: row.id } satisfies MoleculeJobPayload, { maxAttempts: MAX_ATTEMPTS });
  return rows.rows.length;
}

/**
 * A copied document (knowledge/service.ts copyDocument, inside its transaction): the source's
 * molecules are copied when it is indexed by this version, else the copy is queued for indexing.
 */
export async function copyMolecules(ex: Executor, fromId: string, toId: string): Promise<void> {
  const source = await ex.selectFrom('molecule_docs').selectAll().where('doc_id', '=', fromId).executeTakeFirst();
  // The drawings' structures (with their corrections) go with the copy; its molecules link to its own rows.
  const drawn = await sql`insert into doc_structures (doc_id, page, bbox, smiles, confidence, method, label, corrected_smiles, corrected_by, corrected_at)
    select ${toId}, page, bbox, smiles, confidence, method, label, corrected_smiles, corrected_by, corrected_at from doc_structures where doc_id = ${fromId} order by id`.execute(ex);
  if (!source || source.version !== MOLECULE_INDEX_VERSION || Number(drawn.numAffectedRows ?? 0) > 0) {
    await queueMoleculeIndex(ex, toId);
    return;
  }
  await sql`insert into molecules (doc_id, source, ordinal, page, name, canonical_smiles, inchikey, heavy_atoms, morgan_fp, pattern_fp, pickle, parent_key, parent_smiles)
    select ${toId}, source, ordinal, page, name, canonical_smiles, inchikey, heavy_atoms, morgan_fp, pattern_fp, pickle, parent_key, parent_smiles from molecules where doc_id = ${fromId} order by ordinal`.execute(ex);
  const t = now();
  await ex.insertInto('molecule_docs').values({ ...source, doc_id: toId, indexed_at: t }).execute();
  await ex.insertInto('molecule_changes').values({ doc_id: toId, changed_at: t }).execute();
}

/** The structures of one document: SDF records, PDB ligands, or SMILES written in its text. */
async function candidatesOf(db: Db, files: FileStore, doc: { id: string; type: number; storage_name: string; size: number }, signal?: AbortSignal): Promise<Candidate[]> {
  if (doc.type === 5) {
    const rows = await db.selectFrom('kb_molecules').select(['idx', 'name', 'smiles']).where('doc_id', '=', doc.id).orderBy('idx').execute();
    return rows.flatMap((r) => (r.smiles ? [{ source: 'sdf' as const, ordinal: r.idx, page: null, name: r.name, input: { smiles: r.smiles } }] : []));
  }
  if (doc.type === 6) {
    if (doc.size > MAX_PDB_BYTES) return [];
    const ligands = pdbLigands((await files.readAll(doc.storage_name)).toString('latin1'));
    const smiles = await ligandSmiles(ligands, signal);
    return ligands.flatMap((l, i) => {
      // Open Babel perceives bond orders from the geometry; where that leaves a radical or a
      // five-valent carbon (a distorted ring), the bonds are worked out from the file's formula.
      const s = smiles[i];
      const input = s && !perceptionFailed(s) ? { smiles: s } : null;
      const molfile = ligandMolfile(l);
      const fallback = molfile ? { molfile } : undefined;
      return input || fallback ? [{ source: 'pdb' as const, ordinal: i + 1, page: null, name: l.name, input: input ?? fallback!, ...(input && fallback ? { fallback } : {}) }] : [];
    });
  }
  const chunks = await db.selectFrom('kb_chunks').select(['page', 'text']).where('doc_id', '=', doc.id).orderBy('ordinal').execute();
  const seen = new Set<string>();
  const found: Candidate[] = await figureCandidates(db, doc.id);
  for (const chunk of chunks) {
    for (const token of smilesInText(chunk.text, PER_PASSAGE)) {
      const key = `${chunk.page ?? ''}|${token}`;
      if (seen.has(key)) continue;
      seen.add(key);
      found.push({ source: 'text', ordinal: found.length + 1, page: chunk.page, name: null, input: { smiles: token } });
      if (found.length >= MAX_TEXT_CANDIDATES) return found;
    }
  }
  return found;
}

/** The structures read from the document's drawings: a reader's correction wins over the recognition. */
async function figureCandidates(db: Db, docId: string): Promise<Candidate[]> {
  const rows = await db.selectFrom('doc_structures').select(['id', 'page', 'label', 'smiles', 'corrected_smiles']).where('doc_id', '=', docId).orderBy('page').orderBy('id').execute();
  return rows.map((r, i) => ({ source: 'figure' as const, ordinal: i + 1, page: r.page, name: r.label, input: { smiles: r.corrected_smiles ?? r.smiles }, structureId: r.id }));
}

const blob = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Indexes one document's molecules now: reads its structures, asks RDKit for keys and fingerprints,
 * and replaces its rows. Returns how many molecules were stored (undefined: the document is gone or not parsed).
 */
export async function indexDocumentMolecules(db: Db, files: FileStore, chem: Pick<ChemService, 'molecules'>, docId: string, signal?: AbortSignal): Promise<number | undefined> {
  const doc = await db.selectFrom('kb_documents').select(['id', 'type', 'parse_status', 'storage_name', 'size', 'index_version']).where('id', '=', docId).executeTakeFirst();
  if (!doc || doc.parse_status !== 2) return undefined;
  const candidates = await candidatesOf(db, files, doc, signal);
  const rdkit = moleculeChem(chem);
  const records: (MoleculeRecord | null)[] = [];
  for (let i = 0; i < candidates.length; i += BATCH) {
    if (signal?.aborted) throw new Error('stopped');
    records.push(...(await rdkit.records(candidates.slice(i, i + BATCH).map((c) => c.input))));
  }
  const retry = candidates.flatMap((c, i) => (!records[i] && c.fallback ? [i] : []));
  if (retry.length) {
    const second = await rdkit.records(retry.map((i) => candidates[i]!.fallback!));
    retry.forEach((i, k) => (records[i] = second[k] ?? null));
  }
  const rows: Insertable<MoleculeTable>[] = [];
  const seenInText = new Set<string>();
  // Text molecules are numbered after the drawings'.
  const figures = candidates.filter((c) => c.source === 'figure').length;
  candidates.forEach((c, i) => {
    const r = records[i];
    if (!r) return;
    if (c.source === 'text') {
      // Prose: only what is plainly a molecule, once per page.
      if (!r.hasCarbon || r.heavyAtoms < MIN_TEXT_HEAVY_ATOMS) return;
      const key = `${c.page ?? ''}|${r.inchiKey || r.canonicalSmiles}`;
      if (seenInText.has(key)) return;
      seenInText.add(key);
    }
    rows.push({
      doc_id: doc.id,
      source: c.source,
      ordinal: c.source === 'text' ? figures + seenInText.size : c.ordinal,
      structure_id: c.structureId ?? null,
      page: c.page,
      name: c.name,
      canonical_smiles: r.canonicalSmiles,
      inchikey: r.inchiKey,
      heavy_atoms: r.heavyAtoms,
      morgan_fp: blob(r.morgan),
      pattern_fp: blob(r.pattern),
      pickle: blob(r.pickle),
      parent_key: r.parentKey,
      parent_smiles: r.parentSmiles,
    });
  });
  return db.transaction().execute(async (tx) => {
    // Deleted (or re-parsing) meanwhile: nothing to store.
    const still = await tx.selectFrom('kb_documents').select(['parse_status', 'index_version']).where('id', '=', doc.id).executeTakeFirst();
    if (!still || still.parse_status !== 2) return undefined;
    await tx.deleteFrom('molecules').where('doc_id', '=', doc.id).execute();
    for (let i = 0; i < rows.length; i += 200) await tx.insertInto('molecules').values(rows.slice(i, i + 200)).execute();
    const t = now();
    await tx
      .insertInto('molecule_docs')
      .values({ doc_id: doc.id, version: MOLECULE_INDEX_VERSION, doc_index_version: still.index_version, molecules: rows.length, indexed_at: t })
      .onConflict((oc) => oc.column('doc_id').doUpdateSet({ version: MOLECULE_INDEX_VERSION, doc_index_version: still.index_version, molecules: rows.length, indexed_at: t }))
      .execute();
    await tx.insertInto('molecule_changes').values({ doc_id: doc.id, changed_at: t }).execute();
    return rows.length;
  });
}

/**
 * Runs molecule indexing jobs in this process (one at a time, in a chemistry worker of its own so
 * a large SDF does not hold up drawings), after queueing the documents indexed by no or an older version.
 */
export async function startMoleculeIndexing({ db, files, log, chem }: { db: Db; files: FileStore; log: FastifyBaseLogger; chem?: ChemService }) {
  const ownChem = chem ? undefined : createChemService({ workers: 1, cacheSize: 0, timeoutMs: 60_000 });
  const service = chem ?? ownChem!;
  const stopping = new AbortController();
  const backfilled = await queueUnindexedDocuments(db);
  if (backfilled) log.info({ documents: backfilled, version: MOLECULE_INDEX_VERSION }, 'documents queued for molecule indexing');
  const runner = jobRunner(
    db,
    log,
    {
      [MOLECULE_JOB]: async (job) => {
        const docId = payloadOf(job)?.moleculeDocId;
        if (!docId) throw new Error('bad molecule job payload');
        const stored = await indexDocumentMolecules(db, files, service, docId, stopping.signal);
        if (stored !== undefined) log.info({ docId, molecules: stored }, 'molecules indexed');
      },
    },
    { concurrency: 1, pollMs: 1000 },
  );
  runner.start();
  return {
    /** Queues a parsed or re-indexed document (never throws: the next start's back-fill catches a miss). */
    enqueue(docId: string) {
      void queueMoleculeIndex(db, docId).then(
        () => runner.wake(),
        (err: unknown) => log.warn({ err, docId }, 'could not queue molecule indexing'),
      );
    },
    async stop() {
      stopping.abort();
      await runner.stop();
      await ownChem?.close();
    },
  };
}
