import type { MoleculeSearchMode } from '../../contract/molecules';

/** A structure to store: a SMILES, or a molfile (explicit hydrogens are folded in). */
export type RecordInput = { smiles: string } | { molfile: string };

/** How a query is matched: as a molecule (SMILES or molfile, aromaticity perceived) or as a SMARTS pattern. */
export type QueryForm = 'mol' | 'smarts';

/** One op `molecules` of the chemistry workers (`molecule-ops.ts` runs it, `service.ts` sends it). */
export type MoleculeTask =
  | { kind: 'records'; inputs: RecordInput[] }
  | { kind: 'query'; query: string; mode: MoleculeSearchMode }
  | { kind: 'match'; query: string; form: QueryForm; pickles: Uint8Array[]; limit: number }
  | { kind: 'highlight'; query: string; form: QueryForm; smiles: string[] };
