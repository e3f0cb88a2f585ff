import type { MainModule, Mol } from '@rdkit/rdkit';

/** A SMARTS pattern compiled once per worker and kept for its lifetime, with its screen. */
export interface Pattern {
  smarts: string;
  query: Mol;
  /**
   * RDKit's pattern fingerprint of the query: a substructure screen — a bit of the query missing
   * from the molecule's pattern fingerprint rules a match out (the screen RDKit's SubstructLibrary uses).
   */
  screen: Uint8Array;
}

/** A fingerprint from RDKit (typed `any` by its declarations) as bytes. */
function toBytes(fp: unknown): Uint8Array {
  if (!(fp instanceof Uint8Array)) throw new Error('RDKit returned no pattern fingerprint');
  return fp;
}

/** Compiles SMARTS patterns; a pattern RDKit cannot read is a bug in shipped data, so it throws. */
export function compilePatterns(rdkit: MainModule, smarts: readonly string[]): Pattern[] {
  return smarts.map((s) => {
    const query = rdkit.get_qmol(s);
    if (!query || !query.is_valid()) throw new Error(`Invalid SMARTS in shipped ADMET data: ${s}`);
    return { smarts: s, query, screen: toBytes(query.get_pattern_fp_as_uint8array()) };
  });
}

/** A molecule and its pattern fingerprint, for screened searches. */
export interface Target {
  mol: Mol;
  fp: Uint8Array;
}

export const target = (mol: Mol): Target => ({ mol, fp: toBytes(mol.get_pattern_fp_as_uint8array()) });

/** Whether the screen lets the pattern through (every query bit present in the molecule). */
function passes(t: Target, p: Pattern): boolean {
  const q = p.screen;
  const m = t.fp;
  for (let i = 0; i < q.length; i++) if ((q[i]! & ~m[i]!) !== 0) return false;
  return true;
}

/** Whether the molecule has at least one match. */
export const hasMatch = (t: Target, p: Pattern) => passes(t, p) && t.mol.get_substruct_match(p.query) !== '{}';

/** Unique matches of a pattern (RDKit's default: uniquified, at most 1000). */
export function matchAtoms(t: Target, p: Pattern): number[][] {
  if (!passes(t, p)) return [];
  const raw = t.mol.get_substruct_matches(p.query);
  if (!raw || raw === '{}') return [];
  const parsed = JSON.parse(raw) as { atoms: number[] }[] | { atoms: number[] };
  return (Array.isArray(parsed) ? parsed : [parsed]).map((m) => m.atoms);
}
