import type { MainModule, Mol } from '@rdkit/rdkit';

/** A SMARTS pattern compiled once per worker and kept for its lifetime. */
export interface Pattern {
  smarts: string;
  query: Mol;
}

/** Compiles SMARTS patterns; a pattern RDKit cannot read is a bug in shipped data, so it throws. */
export function compilePatterns(rdkit: MainModule, smarts: readonly string[]): Pattern[] {
  return smarts.map((s) => {
    const query = rdkit.get_qmol(s);
    if (!query || !query.is_valid()) throw new Error(`Invalid SMARTS in shipped ADMET data: ${s}`);
    return { smarts: s, query };
  });
}

/** Whether the molecule has at least one match. */
export const hasMatch = (mol: Mol, p: Pattern) => mol.get_substruct_match(p.query) !== '{}';

/** Unique matches of a pattern (RDKit's default: uniquified, at most 1000). */
export function matchAtoms(mol: Mol, p: Pattern): number[][] {
  const raw = mol.get_substruct_matches(p.query);
  if (!raw || raw === '{}') return [];
  const parsed = JSON.parse(raw) as { atoms: number[] }[] | { atoms: number[] };
  return (Array.isArray(parsed) ? parsed : [parsed]).map((m) => m.atoms);
}
