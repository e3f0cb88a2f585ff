/**
 * A structure a question writes as SMILES ("哪个化合物带有环丙基甲氨基（SMILES 里写作 NCC3CC3）",
 * "which compound carries N(CCO)CCO"): a fragment of a molecule, which no molecule's passage writes
 * as such, since each writes its whole SMILES. The molecules of the asked documents are searched for
 * it as a substructure (RDKit), and the passages of the few that hold it join the second stage's
 * candidates (read on retrieval-fresh-31.json and retrieval-fresh-37.json, where both questions
 * abstained: the fragment was a name no passage held).
 */
import type { Mol, MainModule } from '@rdkit/rdkit';
import { FUNCTIONAL_GROUPS } from '../chem/functional-groups';
import { loadRdkit, using, validMol, withValidMol } from '../chem/rdkit-loader';
import type { Executor } from '../db/database';
import { queryTokens, readsAsSmiles } from '../text/segment';
import type { Passage } from './search';

/** A run a question may write a SMILES as: its characters, at least four. */
const RUN = /[A-Za-z0-9@+\-[\]()=#$/\\%.]{4,}/g;
/** At most this many molecules of the asked documents are read for one question (a larger set is left to molecule search). */
const STRUCTURE_ROWS = 5000;
/** A fragment more molecules than this hold says too little to pick their passages. */
export const STRUCTURE_DEPTH = 5;

export interface AskedStructure {
  /** The fragment as the question writes it, or the functional group's name. */
  written: string;
  /** The group's SMARTS, for a group the question names; a written fragment is its own query. */
  smarts?: string;
  /** The question's index words for it: the second stage must not take them for a name the documents lack. */
  tokens: string[];
}

/**
 * The structures a question asks for: the SMILES it writes (runs of SMILES characters with a ring
 * label, a branch, a bracket or a bond, only the organic subset's letters outside brackets, paired
 * ring labels, and at least three heavy atoms with a carbon, as RDKit reads them; "CDK2", "IC50",
 * "pH7.4" and "C++" are none), then the functional groups it names (chem/functional-groups.ts).
 */
export function structuresIn(rdkit: MainModule, question: string): AskedStructure[] {
  const out: AskedStructure[] = [];
  for (const [raw] of question.normalize('NFKC').matchAll(RUN)) {
    const written = trimmed(raw);
    if (!/[\d()[\]=#]/.test(written) || !/[A-Za-z]/.test(written) || !readsAsSmiles(written)) continue;
    const heavy = withValidMol(rdkit, written, (mol) => {
      const atoms = (JSON.parse(mol.get_json()) as { molecules: { atoms: { z?: number }[] }[] }).molecules.flatMap((m) => m.atoms);
      return atoms.filter((a) => (a.z ?? 6) !== 1).length >= 3 && atoms.some((a) => (a.z ?? 6) === 6);
    });
    // The question's own words for the run (with what trimming took off: "N…" is indexed as written) and the structure's.
    if (heavy) out.push({ written, tokens: [...new Set([...queryTokens(raw), ...queryTokens(written)])] });
  }
  // Functional groups named in words ("含磺酰胺", "a free sulfonic acid group (SO3H)"), each once; a
  // group's words are taken out before the next is looked for (sulfonamide is no amide here).
  let rest = question.normalize('NFKC');
  for (const g of FUNCTIONAL_GROUPS) {
    const said = [...rest.matchAll(new RegExp(g.words.source, 'gi'))].map((m) => m[0]);
    if (!said.length) continue;
    rest = rest.replace(new RegExp(g.words.source, 'gi'), ' ');
    out.push({ written: g.name, smarts: g.smarts, tokens: [...new Set(said.flatMap((w) => queryTokens(w)))] });
  }
  return out;
}

/** A run without the prose brackets or dots around it ("（NCC3CC3）", "N(CCO)CCO." ). */
function trimmed(run: string): string {
  let s = run;
  const count = (c: string) => s.split(c).length - 1;
  for (let before = ''; before !== s; ) {
    before = s;
    s = s.replace(/\.+$/, '');
    if (s.endsWith(')') && count(')') > count('(')) s = s.slice(0, -1);
  }
  while (s.startsWith('(') && count('(') > count(')')) s = s.slice(1);
  return s;
}

/**
 * The passages of the asked documents' molecules that hold a structure the question writes, when
 * one to {@link STRUCTURE_DEPTH} molecules hold it, with the tokens of the structures found.
 */
export async function structurePassages(db: Executor, docIds: string[], question: string): Promise<{ passages: Passage[]; tokens: string[] }> {
  const none = { passages: [], tokens: [] };
  if (!docIds.length) return none;
  const rdkit = await loadRdkit();
  const asked = structuresIn(rdkit, question);
  if (!asked.length) return none;
  const rows = await db.selectFrom('kb_molecules').select(['doc_id', 'idx', 'smiles']).where('doc_id', 'in', docIds).where('smiles', 'is not', null).orderBy('id').limit(STRUCTURE_ROWS + 1).execute();
  if (!rows.length || rows.length > STRUCTURE_ROWS) return none;
  // Each molecule is read once for all the structures asked, and freed after.
  const mols = rows.map((r) => validMol(rdkit, r.smiles!));
  let held: Array<{ s: AskedStructure; holders: Set<number> }>;
  try {
    held = asked.map((s) => {
      const holding = (query: Mol) => new Set(rows.flatMap((_, i) => (holds(mols[i] ?? null, query) ? [i] : [])));
      return { s, holders: (s.smarts ? withQueryMol(rdkit, s.smarts, holding) : withValidMol(rdkit, s.written, holding)) ?? new Set<number>() };
    });
  } finally {
    for (const m of mols) m?.delete();
  }
  // The molecules holding everything asked ("正丁氧基 and a thiazol-2-yl ketone") when they are few;
  // else those of each structure few molecules hold.
  const asking = held.filter((h) => h.holders.size > 0);
  const all = asking.length > 1 ? [...asking[0]!.holders].filter((i) => asking.every((h) => h.holders.has(i))) : [];
  const chosen = all.length && all.length <= STRUCTURE_DEPTH ? asking.map((h) => ({ ...h, holders: new Set(all) })) : asking.filter((h) => h.holders.size <= STRUCTURE_DEPTH);
  const found = [...new Set(chosen.flatMap((h) => [...h.holders]))].map((i) => rows[i]!);
  const tokens = chosen.flatMap((h) => h.s.tokens);
  if (!found.length) return none;
  // A molecule's passage starts with its number in the file (parsing/sdf.ts): "分子 37：ZINC03814439".
  const passages: Passage[] = [];
  for (const m of found) {
    const row = await db
      .selectFrom('kb_chunks')
      .select(['doc_id', 'page', 'bbox', 'text', 'segmented'])
      .where('doc_id', '=', m.doc_id)
      .where((eb) => eb.or([eb('text', 'like', `分子 ${m.idx}：%`), eb('text', 'like', `分子 ${m.idx}\n%`)]))
      .limit(1)
      .executeTakeFirst();
    if (row) passages.push({ docId: row.doc_id, page: row.page, bbox: row.bbox ? (JSON.parse(row.bbox) as [number, number, number, number]) : null, text: row.text, segmented: row.segmented, score: 0 });
  }
  return { passages, tokens: [...new Set(tokens)] };
}

/** `fn` of the query molecule of a SMARTS (null when RDKit cannot read it). */
function withQueryMol<T>(rdkit: MainModule, smarts: string, fn: (query: Mol) => T): T | null {
  let query: Mol | null = null;
  try {
    query = rdkit.get_qmol(smarts);
  } catch {
    return null;
  }
  return query ? using(query, fn) : null;
}

/** Whether a molecule holds the query as a substructure. */
const holds = (mol: Mol | null, query: Mol) => !!mol && mol.get_substruct_match(query) !== '{}';
