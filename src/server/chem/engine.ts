import type { MainModule, Mol } from '@rdkit/rdkit';
import { using } from './rdkit-loader';
import { MOL_LIMITS, type MolHighlight } from '../../contract/mol';
import { ELEMENT_SYMBOLS, hillFormula } from './elements';
import { sanitizeSvg } from './svg-sanitize';
import { declaredAtoms } from './atom-count';
import { DomainError } from '../errors';

/** A structure as the user gave it. */
export type MolInput = { smiles: string } | { molfile: string };

export interface DepictOptions {
  width?: number;
  height?: number;
  highlight?: MolHighlight;
}

/** What RDKit made of a structure. `numAtoms` counts heavy atoms. */
export interface MolSummary {
  canonicalSmiles: string;
  formula: string;
  numAtoms: number;
}

export interface Depiction extends MolSummary {
  svg: string;
  highlightedAtoms: number[];
  highlightedBonds: number[];
}

/** RDKit's descriptor set (exactmw, amw, CrippenClogP, tpsa, NumHBD, NumHBA, …) as numbers. */
export type Descriptors = Record<string, number>;

/** A structure's identity: RDKit's canonical SMILES and the standard InChIKey ('' when InChI cannot express it, e.g. `*` atoms). */
export interface MolIdentity {
  canonicalSmiles: string;
  inchiKey: string;
}

/** Stable codes of bad chemistry input; every one is a 400 with a Chinese message. */
export const CHEM_ERROR_CODES = [
  'invalid_smiles',
  'invalid_molfile',
  'invalid_smarts',
  'empty_structure',
  'input_too_large',
  'too_many_atoms',
  'highlight_out_of_range',
  'mol_too_complex',
] as const;
export type ChemErrorCode = (typeof CHEM_ERROR_CODES)[number];

/** Input the engine refuses, with a message a chemist can act on (a domain error: errors.ts makes it a 400). */
export class ChemInputError extends DomainError {
  declare readonly code: ChemErrorCode;
  constructor(code: ChemErrorCode, message: string, field?: string) {
    super(code, message, field);
    this.name = 'ChemInputError';
  }
}

export const DEFAULT_WIDTH = 400;
export const DEFAULT_HEIGHT = 300;
const HIGHLIGHT_COLOUR = [1, 0.6, 0.2];

interface RdkitJson {
  molecules?: { atoms?: { z?: number; impHs?: number; chg?: number }[] }[];
  defaults?: { atom?: { z?: number; impHs?: number; chg?: number } };
}


/**
 * Refuses a structure with more atoms than any molecule call reads (MOL_LIMITS.atoms), before
 * RDKit reads it: a very large one can trap RDKit's WASM build.
 */
export function checkAtomCount(text: string, kind: 'smiles' | 'molfile', field: string = kind) {
  const n = declaredAtoms(text, kind);
  if (n > MOL_LIMITS.atoms) throw new ChemInputError('too_many_atoms', `分子过大：含 ${n} 个原子，上限为 ${MOL_LIMITS.atoms} 个`, field);
}

/** Reads a SMILES or molfile the user gave; bad input throws ChemInputError. The caller deletes the Mol. */
export function parseMolInput(rdkit: MainModule, input: MolInput): Mol {
  if ('smiles' in input) {
    const smiles = input.smiles.trim();
    if (!smiles) throw new ChemInputError('invalid_smiles', 'SMILES 不能为空', 'smiles');
    if (smiles.length > MOL_LIMITS.smilesLength) {
      throw new ChemInputError('input_too_large', `SMILES 不能超过${MOL_LIMITS.smilesLength}个字符`, 'smiles');
    }
    // get_mol also reads molfiles and JSON; a SMILES field holds one printable line only.
    if (!/^[\x21-\x7e]+(?: [\x20-\x7e]*)?$/.test(smiles) || smiles.startsWith('{')) {
      throw new ChemInputError('invalid_smiles', '无法解析 SMILES：包含不允许的字符', 'smiles');
    }
    // After a space RDKit reads a name (SMILES files) and ignores it: a second structure pasted
    // there would be dropped without a word. Only CXSMILES extensions (" |…|") may follow.
    const rest = smiles.indexOf(' ');
    if (rest > 0 && !smiles.slice(rest + 1).startsWith('|')) {
      throw new ChemInputError('invalid_smiles', 'SMILES 中不能有空格：一次只能提交一个结构，多个分子请分开提交', 'smiles');
    }
    checkAtomCount(smiles, 'smiles');
    const mol = rdkit.get_mol(smiles);
    if (!mol) throw new ChemInputError('invalid_smiles', `无法解析 SMILES：${shorten(smiles)}，请检查结构式是否正确`, 'smiles');
    return mol;
  }
  const molfile = input.molfile;
  if (molfile.length > MOL_LIMITS.molfileLength) throw new ChemInputError('input_too_large', 'Molfile 不能超过1 MB', 'molfile');
  if (!/^M {2}END\s*$/m.test(molfile) || !/V[23]000/.test(molfile)) {
    throw new ChemInputError('invalid_molfile', '无法解析 Molfile：缺少 V2000/V3000 头或 “M  END” 结束行', 'molfile');
  }
  checkAtomCount(molfile, 'molfile');
  const mol = rdkit.get_mol(molfile);
  if (!mol) throw new ChemInputError('invalid_molfile', '无法解析 Molfile：原子或键的定义有误', 'molfile');
  return mol;
}

/** Canonical SMILES, Hill formula (from RDKit's JSON, hydrogens included) and heavy-atom count. */
export function summariseMol(mol: Mol): MolSummary {
  const counts = new Map<string, number>();
  let charge = 0;
  const json = JSON.parse(mol.get_json()) as RdkitJson;
  const defaults = { z: 6, impHs: 0, chg: 0, ...json.defaults?.atom };
  for (const atom of json.molecules?.[0]?.atoms ?? []) {
    const z = atom.z ?? defaults.z;
    const symbol = ELEMENT_SYMBOLS[z] ?? '*';
    counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
    const hs = atom.impHs ?? defaults.impHs;
    if (hs > 0) counts.set('H', (counts.get('H') ?? 0) + hs);
    charge += atom.chg ?? defaults.chg;
  }
  return { canonicalSmiles: mol.get_smiles(), formula: hillFormula(counts, charge), numAtoms: mol.get_num_atoms(true) };
}

/**
 * The chemistry operations over one loaded RDKit module. Pure and synchronous: the caller decides
 * where it runs (the worker in service.ts, or directly in tests).
 */
export function createChemEngine(rdkit: MainModule) {
  const parse = (input: MolInput) => parseMolInput(rdkit, input);
  const summarise = summariseMol;

  function requireAtoms(mol: Mol, field: string) {
    if (mol.get_num_atoms() === 0) throw new ChemInputError('empty_structure', '结构中没有原子', field);
  }

  function highlightMatches(mol: Mol, smarts: string): { atoms: number[]; bonds: number[] } {
    const query = rdkit.get_qmol(smarts);
    if (!query) throw new ChemInputError('invalid_smarts', `高亮子结构 SMARTS 无效：${shorten(smarts)}`, 'highlight.smarts');
    return using(query, (q) => {
      const raw = mol.get_substruct_matches(q);
      const matches = JSON.parse(raw || '[]') as { atoms?: number[]; bonds?: number[] }[] | { atoms?: number[]; bonds?: number[] };
      const list = Array.isArray(matches) ? matches : [matches];
      const atoms = new Set<number>();
      const bonds = new Set<number>();
      for (const m of list) {
        m.atoms?.forEach((a) => atoms.add(a));
        m.bonds?.forEach((b) => bonds.add(b));
      }
      return { atoms: [...atoms], bonds: [...bonds] };
    });
  }

  return {
    /** RDKit's version string. */
    version: () => rdkit.version(),

    /** Canonical SMILES, Hill formula and heavy-atom count. */
    describe(input: MolInput): MolSummary {
      return using(parse(input), (mol) => {
        requireAtoms(mol, fieldOf(input));
        return summarise(mol);
      });
    },

    /** RDKit's descriptors of a structure. */
    descriptors(input: MolInput): Descriptors {
      return using(parse(input), (mol) => {
        requireAtoms(mol, fieldOf(input));
        const raw = JSON.parse(mol.get_descriptors()) as Record<string, unknown>;
        return Object.fromEntries(Object.entries(raw).filter((e): e is [string, number] => typeof e[1] === 'number'));
      });
    },

    /** Canonical SMILES and InChIKey of each SMILES; null for one RDKit cannot read or that has no atoms. */
    identify(smilesList: string[]): (MolIdentity | null)[] {
      return smilesList.map((smiles) => {
        let mol: Mol;
        try {
          mol = parse({ smiles });
        } catch (err) {
          // Too large is said as such (a name or a completion of that size is not "unreadable").
          if (err instanceof ChemInputError && err.code !== 'too_many_atoms') return null;
          throw err;
        }
        return using(mol, (m) => {
          if (m.get_num_atoms() === 0) return null;
          const inchi = m.get_inchi();
          return { canonicalSmiles: m.get_smiles(), inchiKey: inchi ? rdkit.get_inchikey_for_inchi(inchi) : '' };
        });
      });
    },

    /** The structure as a V2000 molfile (V3000 when it does not fit V2000), with 2D coordinates. */
    molfile(input: MolInput): string {
      return using(parse(input), (mol) => {
        requireAtoms(mol, fieldOf(input));
        if (!mol.has_coords()) mol.set_new_coords();
        return mol.get_molblock();
      });
    },

    /**
     * An SVG depiction safe to inline (see sanitizeSvg), transparent background, with the given
     * atoms/bonds and every match of `highlight.smarts` highlighted.
     */
    depict(input: MolInput, options: DepictOptions = {}): Depiction {
      const field = fieldOf(input);
      return using(parse(input), (mol) => {
        requireAtoms(mol, field);
        const summary = summarise(mol);
        if (summary.numAtoms > MOL_LIMITS.depictHeavyAtoms) {
          throw new ChemInputError('too_many_atoms', `分子过大：含 ${summary.numAtoms} 个重原子，绘图上限为 ${MOL_LIMITS.depictHeavyAtoms} 个`, field);
        }
        const width = clampSize(options.width ?? DEFAULT_WIDTH, 'width');
        const height = clampSize(options.height ?? DEFAULT_HEIGHT, 'height');
        const atoms = new Set<number>();
        const bonds = new Set<number>();
        const numAtoms = mol.get_num_atoms();
        const numBonds = mol.get_num_bonds();
        for (const a of options.highlight?.atoms ?? []) {
          if (!Number.isInteger(a) || a < 0 || a >= numAtoms) {
            throw new ChemInputError('highlight_out_of_range', `高亮原子序号 ${a} 超出范围（分子共 ${numAtoms} 个原子，序号从 0 开始）`, 'highlight.atoms');
          }
          atoms.add(a);
        }
        for (const b of options.highlight?.bonds ?? []) {
          if (!Number.isInteger(b) || b < 0 || b >= numBonds) {
            throw new ChemInputError('highlight_out_of_range', `高亮键序号 ${b} 超出范围（分子共 ${numBonds} 个键，序号从 0 开始）`, 'highlight.bonds');
          }
          bonds.add(b);
        }
        if (options.highlight?.smarts) {
          const found = highlightMatches(mol, options.highlight.smarts);
          found.atoms.forEach((a) => atoms.add(a));
          found.bonds.forEach((b) => bonds.add(b));
        }
        const highlightedAtoms = [...atoms].sort((x, y) => x - y);
        const highlightedBonds = [...bonds].sort((x, y) => x - y);
        const details = {
          width,
          height,
          clearBackground: false,
          atoms: highlightedAtoms,
          bonds: highlightedBonds,
          highlightColour: HIGHLIGHT_COLOUR,
        };
        // A 3D molfile (e.g. an SDF from a conformer search) is drawn from fresh 2D coordinates.
        if (mol.has_coords() === 3) mol.set_new_coords();
        const raw = mol.get_svg_with_highlights(JSON.stringify(details));
        return { ...summary, svg: sanitizeSvg(raw), highlightedAtoms, highlightedBonds };
      });
    },
  };
}

export type ChemEngine = ReturnType<typeof createChemEngine>;

const fieldOf = (input: MolInput) => ('smiles' in input ? 'smiles' : 'molfile');

function clampSize(n: number, field: string): number {
  if (!Number.isInteger(n) || n < MOL_LIMITS.minSize || n > MOL_LIMITS.maxSize) {
    throw new ChemInputError('input_too_large', `图片${field === 'width' ? '宽度' : '高度'}必须是 ${MOL_LIMITS.minSize}–${MOL_LIMITS.maxSize} 之间的整数`, field);
  }
  return n;
}

function shorten(s: string, max = 60) {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
