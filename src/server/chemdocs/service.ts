import type { Selectable } from 'kysely';
import type { DocStructure } from '../../contract/structures';
import { canAccess } from '../access/access';
import type { Viewer } from '../access/access';
import { moleculeChem } from '../chem/molecule-ops';
import type { ChemService } from '../chem/service';
import { now, type Db } from '../db/database';
import type { DocStructureTable } from '../db/schema';
import { DomainError } from '../errors';
import { queueMoleculeIndex } from '../molecules/indexing';

const STRUCTURE_NOT_FOUND = '该文档中没有这个结构';
const blob = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function view(row: Selectable<DocStructureTable> & { corrected_by_name: string | null }): DocStructure {
  return {
    id: row.id,
    page: row.page,
    bbox: JSON.parse(row.bbox) as [number, number, number, number],
    smiles: row.corrected_smiles ?? row.smiles,
    recognized_smiles: row.smiles,
    confidence: row.confidence,
    method: row.method,
    label: row.label,
    corrected_by: row.corrected_by,
    corrected_by_name: row.corrected_by_name,
    corrected_at: row.corrected_at,
  };
}

/**
 * The structures read from a document's drawings: listed for its readers, and
 * corrected by any reader (the chemist who reads the paper knows the structure); a correction is
 * stored with who made it, wins over the recognition for every reader, and replaces the structure's
 * molecule in the molecule index at once.
 */
export function structureService(db: Db, chem: Pick<ChemService, 'depict' | 'molecules'>) {
  const rows = (docId: string) =>
    db
      .selectFrom('doc_structures')
      .leftJoin('users', 'users.id', 'doc_structures.corrected_by')
      .selectAll('doc_structures')
      .select('users.name as corrected_by_name')
      .where('doc_structures.doc_id', '=', docId);
  return {
    async list(viewer: Viewer, docId: string): Promise<DocStructure[]> {
      await canAccess(db, viewer, { type: 'doc', id: docId }, 'read');
      return (await rows(docId).orderBy('page').orderBy('id').execute()).map(view);
    },

    /** Throws ChemInputError for a structure RDKit refuses, `not_found` for a document or structure the viewer cannot see. */
    async correct(viewer: Viewer, docId: string, sid: number, input: { smiles: string } | { molfile: string }): Promise<DocStructure> {
      await canAccess(db, viewer, { type: 'doc', id: docId }, 'read');
      const row = await db.selectFrom('doc_structures').select('id').where('id', '=', sid).where('doc_id', '=', docId).executeTakeFirst();
      if (!row) throw new DomainError('not_found', STRUCTURE_NOT_FOUND);
      // Read before anything is written: bad input changes nothing.
      const { canonicalSmiles } = await chem.depict(input, {});
      const [record] = await moleculeChem(chem).records([{ smiles: canonicalSmiles }]);
      const t = now();
      await db.transaction().execute(async (tx) => {
        await tx.updateTable('doc_structures').set({ corrected_smiles: canonicalSmiles, corrected_by: viewer.userId, corrected_at: t }).where('id', '=', sid).execute();
        if (record) {
          const updated = await tx
            .updateTable('molecules')
            .set({
              canonical_smiles: record.canonicalSmiles,
              inchikey: record.inchiKey,
              heavy_atoms: record.heavyAtoms,
              morgan_fp: blob(record.morgan),
              pattern_fp: blob(record.pattern),
              pickle: blob(record.pickle),
              parent_key: record.parentKey,
              parent_smiles: record.parentSmiles,
            })
            .where('structure_id', '=', sid)
            .executeTakeFirst();
          if (Number(updated.numUpdatedRows) > 0) {
            await tx.insertInto('molecule_changes').values({ doc_id: docId, changed_at: t }).execute();
            return;
          }
        }
        // Not in the index yet (its recognition was no molecule, or indexing has not run): index the document.
        await queueMoleculeIndex(tx, docId);
      });
      const fresh = await rows(docId).where('doc_structures.id', '=', sid).executeTakeFirstOrThrow();
      return view(fresh);
    },
  };
}
