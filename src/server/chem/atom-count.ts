// How many atoms a structure declares, read from its text before RDKit reads it (a structure
// over MOL_LIMITS.atoms can trap RDKit's WASM build). No RDKit here: the parse workers use it too.
import { MOL_LIMITS } from '../../contract/mol';

/** Atoms written in a SMILES (bracket atoms, the organic subset, aromatic atoms and `*`). */
const SMILES_ATOM = /\[[^\]]*\]|Br|Cl|[BCNOPSFI]|[bcnops]|\*/g;

/** How many atoms a SMILES or molfile declares, read from its text (the molfile's counts line). */
export function declaredAtoms(text: string, kind: 'smiles' | 'molfile'): number {
  if (kind === 'smiles') return text.split(' ')[0]!.match(SMILES_ATOM)?.length ?? 0;
  const v3000 = /^M {2}V30 COUNTS (\d+)/m.exec(text);
  if (v3000) return Number(v3000[1]);
  // V2000: the counts line is the fourth, its first three columns the atom count.
  const counts = text.split(/\r?\n/)[3] ?? '';
  return Number(counts.slice(0, 3).trim()) || 0;
}

/** Whether a structure declares more atoms than any molecule call reads (MOL_LIMITS.atoms). */
export const overAtomLimit = (text: string, kind: 'smiles' | 'molfile') => declaredAtoms(text, kind) > MOL_LIMITS.atoms;
