/**
 * SMILES written in free text (a question), found without a chemistry toolkit: the server checks
 * every candidate with RDKit before it believes it; the browser draws only candidates that pass
 * these syntax checks. Shared so both sides find the same tokens.
 */

/** Longest token taken for a structure (a drawn drug fits easily; longer runs are noise). */
export const SMILES_IN_TEXT_MAX_LENGTH = 500;

/** Candidates looked at in one text at most (a 20,000-character question stays cheap). */
const MAX_TOKENS_SCANNED = 400;

/** The characters of a SMILES string: atoms of the organic subset, brackets, bonds, rings, branches. */
const SMILES_CHARS = /^(?:Cl|Br|[BCNOPSFI]|[bcnops]|\[[A-Za-z0-9@+\-:#.*]+\]|[-=#$:/\\().%0-9@+*])+$/;
/** Ring, bond, branch or bracket syntax: a token with any of these was written as a structure. */
const STRUCTURE_SYNTAX = /[=#$()[\]0-9@/\\%]/;
/** A run of printable ASCII: Chinese text, spaces and full-width punctuation end a token. */
const ASCII_RUN = /[!-~]+/g;

/** Quotes and sentence punctuation around a token that are not part of it. */
function trimPunctuation(raw: string): string {
  let s = raw.replace(/^[`'"<]+/, '').replace(/[`'",;:!?.>]+$/, '');
  // "(CCO)" or "见 CCO)": parentheses around the structure, not branches of it (a SMILES never starts with a branch).
  while (s.startsWith('(')) s = s.slice(1);
  while (s.endsWith(')') && depthOf(s) < 0) s = s.slice(0, -1);
  return s;
}

/** Opening minus closing parentheses. */
function depthOf(s: string): number {
  let depth = 0;
  for (const c of s) depth += c === '(' ? 1 : c === ')' ? -1 : 0;
  return depth;
}

/** Branches and brackets balanced and ring closures paired, outside brackets. */
function wellFormed(s: string): boolean {
  let depth = 0;
  let inBracket = false;
  const rings = new Map<string, number>();
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (inBracket) {
      if (c === ']') inBracket = false;
      else if (c === '[') return false;
      continue;
    }
    if (c === '[') inBracket = true;
    else if (c === ']') return false;
    else if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
    else if (c === '%') {
      const label = s.slice(i + 1, i + 3);
      if (!/^\d\d$/.test(label)) return false;
      rings.set(label, (rings.get(label) ?? 0) + 1);
      i += 2;
    } else if (/\d/.test(c)) rings.set(c, (rings.get(c) ?? 0) + 1);
  }
  if (inBracket || depth !== 0) return false;
  for (const n of rings.values()) if (n % 2) return false;
  // Aromatic atoms (lowercase) exist only in rings.
  const outsideBrackets = s.replace(/\[[^\]]*\]/g, '');
  if (/[bcnops]/.test(outsideBrackets.replace(/Cl|Br/g, '')) && !rings.size) return false;
  return !/^[-=#$:/\\)%.]/.test(s) && !/[-=#$:/\\(%]$/.test(s);
}

/** Carbon atoms and all atoms of a token made of organic-subset symbols only. */
function plainAtoms(s: string): { carbons: number; atoms: number } | undefined {
  const symbols = s.match(/Cl|Br|[BCNOPSFI]/g);
  if (!symbols || symbols.join('') !== s) return undefined;
  return { carbons: symbols.filter((x) => x === 'C').length, atoms: symbols.length };
}

/**
 * Whether a token looks like a structure written as SMILES: SMILES characters, well formed, and
 * either ring/bond/branch/bracket syntax or several atoms with at least two carbons ("CCO" yes;
 * words and acronyms such as "is", "NO", "PCB" or "CNS" no).
 * @example looksLikeStructure('CC(=O)Oc1ccccc1C(=O)O') // true
 */
export function looksLikeStructure(token: string): boolean {
  const s = token.trim();
  if (s.length < 2 || s.length > SMILES_IN_TEXT_MAX_LENGTH || !SMILES_CHARS.test(s) || !/[A-Za-z]/.test(s)) return false;
  if (!wellFormed(s)) return false;
  if (STRUCTURE_SYNTAX.test(s)) return true;
  const plain = plainAtoms(s);
  return plain !== undefined && plain.atoms >= 3 && plain.carbons >= 2;
}

/**
 * The tokens of a text that look like SMILES, in order of first appearance, without repeats,
 * at most `max`. Surrounding quotes, backticks and sentence punctuation are dropped.
 * @example smilesInText('阿司匹林 CC(=O)Oc1ccccc1C(=O)O 的作用？') // ['CC(=O)Oc1ccccc1C(=O)O']
 */
export function smilesInText(text: string, max = 8): string[] {
  const found: string[] = [];
  let scanned = 0;
  for (const m of text.matchAll(ASCII_RUN)) {
    if (found.length >= max || ++scanned > MAX_TOKENS_SCANNED) break;
    if (m[0].length > SMILES_IN_TEXT_MAX_LENGTH + 8) continue;
    const token = trimPunctuation(m[0]);
    if (looksLikeStructure(token) && !found.includes(token)) found.push(token);
  }
  return found;
}
