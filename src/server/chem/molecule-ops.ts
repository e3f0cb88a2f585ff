/**
 * The molecule database's RDKit work, run in the chemistry workers (rdkit-worker.ts)
 * like every other RDKit call: the keys and fingerprints of stored molecules, what a query is, and
 * substructure matching of screened candidates. Pure and synchronous over a loaded RDKit module.
 */
import type { MainModule, Mol } from '@rdkit/rdkit';
import { using } from './rdkit-loader';
import { z } from 'zod';
import { MOL_LIMITS } from '../../contract/mol';
import type { MoleculeSearchMode } from '../../contract/molecules';
import { overAtomLimit } from './atom-count';
import { ChemInputError, checkAtomCount } from './engine';
import type { MoleculeTask, QueryForm, RecordInput } from './molecule-task';
import type { CallLimits, ChemService } from './service';

/** Morgan radius 2 (ECFP4-like) and both fingerprints 2048 bits long: 256 bytes each. */
export const FP_BITS = 2048;
export const FP_BYTES = FP_BITS / 8;
const MORGAN = JSON.stringify({ radius: 2, nBits: FP_BITS });
const PATTERN = JSON.stringify({ nBits: FP_BITS });

export type { MoleculeTask, QueryForm, RecordInput } from './molecule-task';

/** What the database keeps of one molecule. `inchiKey` is '' when InChI cannot describe it (e.g. `*` atoms). */
export interface MoleculeRecord {
  canonicalSmiles: string;
  inchiKey: string;
  heavyAtoms: number;
  hasCarbon: boolean;
  morgan: Uint8Array;
  pattern: Uint8Array;
  /** RDKit's binary form: read back without parsing or sanitising again. */
  pickle: Uint8Array;
  /** The standardised parent's key (InChIKey, or canonical SMILES where InChI has none): equal to this molecule's own key when it is its own parent. */
  parentKey: string;
  /** The parent's canonical SMILES when it differs from the molecule (a salt, a mixture, a charged form); else null. */
  parentSmiles: string | null;
}

export interface PreparedQuery {
  form: QueryForm;
  /** Canonical SMILES of a molecule query; the pattern itself for SMARTS. */
  display: string;
  inchiKey: string;
  morgan: Uint8Array | null;
  pattern: Uint8Array;
  /** The standardised parent's key of a molecule query ('' for SMARTS). */
  parentKey: string;
  /** The parent's canonical SMILES when it differs from the query; else null. */
  parentSmiles: string | null;
}

const bytes = z.instanceof(Uint8Array);
const record = z.object({
  canonicalSmiles: z.string(),
  inchiKey: z.string(),
  heavyAtoms: z.number().int(),
  hasCarbon: z.boolean(),
  morgan: bytes,
  pattern: bytes,
  pickle: bytes,
  parentKey: z.string(),
  parentSmiles: z.string().nullable(),
});
/** The atoms and bonds of a molecule (indices in its canonical SMILES) that a substructure query matched. */
const matchedAtoms = z.object({ atoms: z.array(z.number().int()), bonds: z.array(z.number().int()) });
export type MatchedAtoms = z.infer<typeof matchedAtoms>;

/** The shape of each task's answer, checked on the main thread. */
export const moleculeTaskResult = {
  records: z.array(record.nullable()),
  query: z.object({ form: z.enum(['mol', 'smarts']), display: z.string(), inchiKey: z.string(), morgan: bytes.nullable(), pattern: bytes, parentKey: z.string(), parentSmiles: z.string().nullable() }),
  /** Indices into the candidates sent that match, in order, at most `limit`. */
  match: z.array(z.number().int()),
  /** Per molecule sent (canonical SMILES), the atoms and bonds of the query's first match; null when it does not match. */
  highlight: z.array(matchedAtoms.nullable()),
} satisfies Record<MoleculeTask['kind'], z.ZodType>;
export type MoleculeTaskResult<K extends MoleculeTask['kind']> = z.infer<(typeof moleculeTaskResult)[K]>;

/** Characters only SMARTS has (`[#6]`, `~`, `;`, `,`, `&`, `!`, `$(`): such a query is never read as SMILES. */
const SMARTS_ONLY = /[~;,&!$]|\[#/;
const isMolfile = (s: string) => /^M {2}END\s*$/m.test(s) && /V[23]000/.test(s);


const shorten = (s: string, max = 60) => (s.length > max ? `${s.slice(0, max)}…` : s);

/** InChIKey of a molecule, '' when InChI refuses it (query atoms, some organometallics). */
function inchiKeyOf(rdkit: MainModule, mol: Mol): string {
  try {
    const inchi = mol.get_inchi();
    return inchi ? rdkit.get_inchikey_for_inchi(inchi) : '';
  } catch {
    return '';
  }
}

/** Carbon in a canonical SMILES: `c`, or `C` not starting Cl/Ca/Co/Cu/…, not the `c` of Sc/Tc. */
const HAS_CARBON = /(^|[^A-Z])c|C(?![adeflmnorsu])/;

/** A charge in a canonical SMILES (`[NH3+]`, `[O-]`, `[Fe+2]`). */
const CHARGED = /[+-]\d*\]/;
/** Elements whose charge is neutralised by adding or removing hydrogens. */
const TAKES_H = new Set([6, 7, 8, 15, 16, 34]);

interface JsonAtom {
  z?: number;
  chg?: number;
  impHs?: number;
}
interface MolJson {
  defaults: { atom: Required<JsonAtom> };
  molecules: { atoms: JsonAtom[]; bonds: { atoms: [number, number] }[] }[];
}

export function createMoleculeOps(rdkit: MainModule) {
  /**
   * The fragment a registration system files a salt or mixture under (RDKit MolStandardize's
   * LargestFragmentChooser, preferring organic fragments): the one with carbon, then the most heavy
   * atoms, then the first canonical SMILES. The caller deletes the molecule returned; null: `mol` itself.
   */
  function largestFragment(mol: Mol): Mol | null {
    const { molList } = mol.get_frags() as { molList: { size(): number; at(i: number): Mol | null; delete(): void } };
    try {
      if (molList.size() < 2) return null;
      let best: { mol: Mol; organic: boolean; heavy: number; smiles: string } | undefined;
      for (let i = 0; i < molList.size(); i++) {
        const frag = molList.at(i);
        if (!frag) continue;
        const smiles = frag.get_smiles();
        const candidate = { mol: frag, organic: HAS_CARBON.test(smiles), heavy: frag.get_num_atoms(true), smiles };
        const better = !best || (Number(candidate.organic) - Number(best.organic) || candidate.heavy - best.heavy || (candidate.smiles < best.smiles ? 1 : -1)) > 0;
        if (better) {
          best?.mol.delete();
          best = candidate;
        } else frag.delete();
      }
      return best?.mol ?? null;
    } finally {
      molList.delete();
    }
  }

  /**
   * The molecule with its charges neutralised as RDKit's Uncharger does: hydrogens taken off
   * positive atoms that have them, added to negative atoms, except as many negative charges as
   * positive ones remain (a quaternary ammonium's counter-charge, a nitro group stay). Null: no change.
   */
  function neutralised(mol: Mol): Mol | null {
    const json = JSON.parse(mol.get_json()) as MolJson;
    const defaults = json.defaults.atom;
    const molecule = json.molecules[0];
    if (!molecule) return null;
    const atoms = molecule.atoms;
    const field = (a: JsonAtom, k: 'z' | 'chg' | 'impHs') => a[k] ?? defaults[k];
    let changed = false;
    let positive = 0;
    for (const a of atoms) {
      const chg = field(a, 'chg');
      if (chg <= 0) continue;
      const h = field(a, 'impHs');
      const off = TAKES_H.has(field(a, 'z')) ? Math.min(chg, h) : 0;
      if (off) {
        a.chg = chg - off;
        a.impHs = h - off;
        changed = true;
      }
      positive += chg - off;
    }
    const bonded = new Set<number>();
    for (const b of molecule.bonds) {
      const [x, y] = b.atoms;
      if (field(atoms[x]!, 'chg') > 0) bonded.add(y);
      if (field(atoms[y]!, 'chg') > 0) bonded.add(x);
    }
    // Negative atoms next to a positive one keep their charge first (zwitterions, N-oxides, nitro).
    const negatives = atoms.map((a, i) => i).filter((i) => field(atoms[i]!, 'chg') < 0).sort((x, y) => Number(bonded.has(x)) - Number(bonded.has(y)));
    let spare = negatives.reduce((n, i) => n - field(atoms[i]!, 'chg'), 0) - positive;
    for (const i of negatives) {
      const a = atoms[i]!;
      if (spare <= 0) break;
      if (!TAKES_H.has(field(a, 'z'))) continue;
      const on = Math.min(-field(a, 'chg'), spare);
      a.chg = field(a, 'chg') + on;
      a.impHs = field(a, 'impHs') + on;
      spare -= on;
      changed = true;
    }
    if (!changed) return null;
    const out = rdkit.get_mol(JSON.stringify(json));
    if (out && !out.is_valid()) {
      out.delete();
      return null;
    }
    return out;
  }

  /** The standardised parent of a molecule: its key and, when it differs, its canonical SMILES. */
  function parentOf(mol: Mol, ownSmiles: string, ownKey: string): { parentKey: string; parentSmiles: string | null } {
    const own = { parentKey: ownKey || ownSmiles, parentSmiles: null };
    if (!ownSmiles.includes('.') && !CHARGED.test(ownSmiles)) return own;
    try {
      const fragment = ownSmiles.includes('.') ? largestFragment(mol) : null;
      const base = fragment ?? mol;
      const neutral = CHARGED.test(base.get_smiles()) ? neutralised(base) : null;
      const parent = neutral ?? base;
      try {
        const smiles = parent.get_smiles();
        if (smiles === ownSmiles) return own;
        return { parentKey: inchiKeyOf(rdkit, parent) || smiles, parentSmiles: smiles };
      } finally {
        neutral?.delete();
        fragment?.delete();
      }
    } catch {
      return own;
    }
  }

  function describeRecord(mol: Mol): MoleculeRecord | null {
    const heavyAtoms = mol.get_num_atoms(true);
    if (heavyAtoms === 0) return null;
    const canonicalSmiles = mol.get_smiles();
    const inchiKey = inchiKeyOf(rdkit, mol);
    return {
      ...parentOf(mol, canonicalSmiles, inchiKey),
      canonicalSmiles,
      inchiKey,
      heavyAtoms,
      hasCarbon: HAS_CARBON.test(canonicalSmiles),
      morgan: Uint8Array.from(mol.get_morgan_fp_as_uint8array(MORGAN) as Uint8Array),
      pattern: Uint8Array.from(mol.get_pattern_fp_as_uint8array(PATTERN) as Uint8Array),
      pickle: Uint8Array.from(mol.get_as_uint8array() as Uint8Array),
    };
  }

  function records(inputs: RecordInput[]): (MoleculeRecord | null)[] {
    return inputs.map((input) => {
      // Larger than any molecule call reads (MOL_LIMITS.atoms): not indexed, like a structure RDKit cannot read.
      if ('smiles' in input ? overAtomLimit(input.smiles, 'smiles') : overAtomLimit(input.molfile, 'molfile')) return null;
      const mol = 'smiles' in input ? rdkit.get_mol(input.smiles) : rdkit.get_mol(input.molfile, JSON.stringify({ removeHs: true }));
      if (!mol) return null;
      try {
        return mol.is_valid() ? describeRecord(mol) : null;
      } catch {
        return null;
      } finally {
        mol.delete();
      }
    });
  }

  /** The query as a molecule (SMILES or molfile) or, for substructure search, as SMARTS. */
  function parseQuery(raw: string, mode: MoleculeSearchMode): { mol: Mol; form: QueryForm } {
    const text = raw.trim();
    if (!text) throw new ChemInputError('invalid_smiles', '请输入查询结构（SMILES、SMARTS 或绘制的结构）', 'query');
    if (isMolfile(text)) {
      // A molfile's first line is its title, often empty (RDKit, Ketcher): only its end is trimmed.
      const molfile = raw.trimEnd();
      checkAtomCount(molfile, 'molfile', 'query');
      const mol = rdkit.get_mol(molfile, JSON.stringify({ removeHs: true }));
      if (!mol) throw new ChemInputError('invalid_molfile', '无法解析绘制的结构（Molfile），请检查结构是否完整', 'query');
      return { mol, form: 'mol' };
    }
    if (text.length > MOL_LIMITS.smilesLength) throw new ChemInputError('input_too_large', `查询结构不能超过${MOL_LIMITS.smilesLength}个字符`, 'query');
    if (!/^[\x21-\x7e]+$/.test(text) || text.startsWith('{')) {
      throw new ChemInputError('invalid_smiles', '查询结构只能是一行 SMILES 或 SMARTS，不能包含空格或其他字符', 'query');
    }
    checkAtomCount(text, 'smiles', 'query');
    if (!SMARTS_ONLY.test(text)) {
      const mol = rdkit.get_mol(text);
      if (mol) return { mol, form: 'mol' };
    }
    if (mode !== 'substructure') {
      throw new ChemInputError('invalid_smiles', `无法解析 SMILES：${shorten(text)}。精确检索和相似性检索需要完整的结构（SMARTS 只能用于子结构检索）`, 'query');
    }
    const query = rdkit.get_qmol(text);
    if (!query) throw new ChemInputError('invalid_smarts', `无法解析查询结构：${shorten(text)} 既不是有效的 SMILES，也不是有效的 SMARTS`, 'query');
    return { mol: query, form: 'smarts' };
  }

  function query(raw: string, mode: MoleculeSearchMode): PreparedQuery {
    const { mol, form } = parseQuery(raw, mode);
    return using(mol, (m) => {
      if (m.get_num_atoms() === 0) throw new ChemInputError('empty_structure', '查询结构中没有原子', 'query');
      if (m.get_num_atoms() > MOL_LIMITS.depictHeavyAtoms) throw new ChemInputError('too_many_atoms', `查询结构过大：超过 ${MOL_LIMITS.depictHeavyAtoms} 个原子`, 'query');
      const pattern = Uint8Array.from(m.get_pattern_fp_as_uint8array(PATTERN) as Uint8Array);
      if (form === 'smarts') return { form, display: raw.trim(), inchiKey: '', morgan: null, pattern, parentKey: '', parentSmiles: null };
      const display = m.get_smiles();
      const inchiKey = inchiKeyOf(rdkit, m);
      return {
        form,
        display,
        inchiKey,
        ...parentOf(m, display, inchiKey),
        morgan: Uint8Array.from(m.get_morgan_fp_as_uint8array(MORGAN) as Uint8Array),
        pattern,
      };
    });
  }

  /** Which of the candidates (pickles) contain the query, in order, stopping after `limit`. */
  function match(raw: string, form: QueryForm, pickles: Uint8Array[], limit: number): number[] {
    const q = form === 'smarts' ? rdkit.get_qmol(raw.trim()) : parseQuery(raw, 'substructure').mol;
    if (!q) throw new ChemInputError('invalid_smarts', `无法解析查询结构：${shorten(raw)}`, 'query');
    return using(q, (query) => {
      const hits: number[] = [];
      for (let i = 0; i < pickles.length && hits.length < limit; i++) {
        const mol = rdkit.get_mol_from_uint8array(pickles[i]);
        if (!mol) continue;
        using(mol, (m) => {
          if (m.get_substruct_match(query) !== '{}') hits.push(i);
        });
      }
      return hits;
    });
  }

  /**
   * The atoms and bonds of the query's first match in each molecule, numbered as in the molecule's
   * canonical SMILES (what a picture of the hit is drawn from); null where it does not match.
   */
  function highlight(raw: string, form: QueryForm, smiles: string[]): (MatchedAtoms | null)[] {
    const q = form === 'smarts' ? rdkit.get_qmol(raw.trim()) : parseQuery(raw, 'substructure').mol;
    if (!q) throw new ChemInputError('invalid_smarts', `无法解析查询结构：${shorten(raw)}`, 'query');
    return using(q, (query) =>
      smiles.map((s) => {
        const mol = rdkit.get_mol(s);
        if (!mol) return null;
        return using(mol, (m) => {
          const found = JSON.parse(m.get_substruct_match(query)) as { atoms?: number[]; bonds?: number[] };
          return found.atoms?.length ? { atoms: found.atoms, bonds: found.bonds ?? [] } : null;
        });
      }),
    );
  }

  return {
    run(task: MoleculeTask): unknown {
      switch (task.kind) {
        case 'records':
          return records(task.inputs);
        case 'query':
          return query(task.query, task.mode);
        case 'match':
          return match(task.query, task.form, task.pickles, task.limit);
        case 'highlight':
          return highlight(task.query, task.form, task.smiles);
      }
    },
  };
}

/** The molecule tasks through the chemistry service, each answer checked against its schema. */
export function moleculeChem(chem: Pick<ChemService, 'molecules'>) {
  return {
    records: async (inputs: RecordInput[], limits?: CallLimits) => moleculeTaskResult.records.parse(await chem.molecules({ kind: 'records', inputs }, limits)),
    query: async (query: string, mode: MoleculeSearchMode) => moleculeTaskResult.query.parse(await chem.molecules({ kind: 'query', query, mode })),
    match: async (query: string, form: QueryForm, pickles: Uint8Array[], limit: number) =>
      moleculeTaskResult.match.parse(await chem.molecules({ kind: 'match', query, form, pickles, limit })),
    highlight: async (query: string, form: QueryForm, smiles: string[]) =>
      moleculeTaskResult.highlight.parse(await chem.molecules({ kind: 'highlight', query, form, smiles })),
  };
}
