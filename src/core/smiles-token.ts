// No imports: the question box loads this with its first chunk and the SMILES hint (smiles-hint.ts
// and its view) only once a SMILES is typed.

/** Characters a SMILES is written with (organic subset, brackets, bonds, rings, branches, `*`). */
const SMILES_TOKEN = /^[A-Za-z0-9@+\-[\]()=#$:/\\.%*~]+$/;
/** Branch, bracket, bond or attachment syntax: what makes a token a structure rather than a word. */
const STRUCTURE_SYNTAX = /[()[\]=#%*]/;
/** Ring labels count only with aromatic atoms or three organic-subset atoms ("c1ccc", "C1CCC"; not "IC50"). */
const ringStructure = (t: string) =>
  /\d/.test(t) && (/[cnops]/.test(t) || (/^(?:Cl|Br|[BCNOPSFIcnops]|\d)+$/.test(t) && (t.match(/Cl|Br|[BCNOPSFI]/g)?.length ?? 0) >= 3));

/** Longest token looked at (the server's SMILES limit). */
const MAX_TOKEN = 2000;

/**
 * The SMILES being typed at the end of a question, if the last token looks like one (letters with
 * ring, bond, branch or bracket syntax); undefined otherwise.
 * @example smilesBeingTyped('这个分子 c1ccccc1C(=O') // 'c1ccccc1C(=O'
 */
export function smilesBeingTyped(text: string): string | undefined {
  const token = /(\S+)$/.exec(text)?.[1];
  if (!token || token.length < 3 || token.length > MAX_TOKEN) return undefined;
  if (!SMILES_TOKEN.test(token) || !(STRUCTURE_SYNTAX.test(token) || ringStructure(token)) || !/[A-Za-z*]/.test(token) || token.includes('//')) return undefined;
  return token;
}
