import { beforeAll, describe, expect, it } from 'vitest';
import { ChemInputError, createChemEngine, type ChemEngine } from '../../../src/server/chem/engine';
import { loadRdkit } from '../../../src/server/chem/rdkit-loader';
import { MOL_LIMITS } from '../../../src/contract/mol';
import { DRUGS } from './drugs';
import { inspectSvg } from './svg-check';

let engine: ChemEngine;
beforeAll(async () => {
  engine = createChemEngine(await loadRdkit());
});

const refusal = (fn: () => unknown): ChemInputError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ChemInputError) return err;
    throw err;
  }
  throw new Error('expected a ChemInputError');
};

describe('describing real drugs', () => {
  it.each(DRUGS)('$name: canonical SMILES, formula and heavy atoms', (drug) => {
    expect(engine.describe({ smiles: drug.smiles })).toEqual({ canonicalSmiles: drug.canonical, formula: drug.formula, numAtoms: drug.heavyAtoms });
  });

  it('keeps the stereo centres of morphine (5) and atorvastatin (2)', () => {
    const stereo = (s: string) => (engine.describe({ smiles: s }).canonicalSmiles.match(/@/g) ?? []).length;
    expect(stereo(DRUGS.find((d) => d.name === 'morphine')!.smiles)).toBeGreaterThanOrEqual(5);
    expect(engine.describe({ smiles: DRUGS.find((d) => d.name === 'morphine')!.smiles }).canonicalSmiles).toContain('[C@]23');
    expect(engine.describe({ smiles: DRUGS.find((d) => d.name === 'atorvastatin')!.smiles }).canonicalSmiles).toContain('[C@@H](O)C[C@@H](O)');
  });

  it('counts isotopic hydrogens in the formula but not as heavy atoms', () => {
    expect(engine.describe({ smiles: '[2H]C([2H])([2H])Cl' })).toMatchObject({ formula: 'CH3Cl', numAtoms: 2 });
    expect(engine.describe({ smiles: '[NH4+]' })).toMatchObject({ formula: 'H4N+', numAtoms: 1 });
    expect(engine.describe({ smiles: 'O=S(=O)([O-])[O-]' })).toMatchObject({ formula: 'O4S-2' });
  });

  it('gives RDKit descriptors as numbers', () => {
    const d = engine.descriptors({ smiles: 'CC(=O)Oc1ccccc1C(=O)O' });
    expect(d.amw).toBeCloseTo(180.159, 2);
    expect(d.NumHBD).toBe(1);
    expect(d.CrippenClogP).toBeCloseTo(1.31, 2);
    expect(d.tpsa).toBeCloseTo(63.6, 1);
  });
});

describe('drawing', () => {
  it.each(DRUGS)('$name: a well-formed, safe SVG with one mark per bond and a coloured label per heteroatom', (drug) => {
    const d = engine.depict({ smiles: drug.smiles });
    expect(d.canonicalSmiles).toBe(drug.canonical);
    const svg = inspectSvg(d.svg);
    expect(svg.width).toBe('400px');
    const hs = drug.drawnHydrogens ?? 0;
    expect(svg.bonds.size).toBe(drug.bonds + hs);
    expect([...svg.bonds].every((b) => b < drug.bonds + hs)).toBe(true);
    expect(svg.colouredLabels.size).toBe(drug.labelled);
    expect(svg.labels.size).toBeGreaterThanOrEqual(drug.labelled + hs);
    expect(svg.elements.has('rect')).toBe(false); // transparent background
    expect(d.svg).not.toMatch(/<\?xml|<script|\son\w+=|xlink|href|<!--/i);
  });

  it('draws at the requested size', () => {
    const svg = inspectSvg(engine.depict({ smiles: 'c1ccccc1' }, { width: 120, height: 90 }).svg);
    expect([svg.width, svg.height]).toEqual(['120px', '90px']);
  });

  it('highlights every match of a SMARTS pattern (the two carbonyl groups of aspirin)', () => {
    const d = engine.depict({ smiles: 'CC(=O)Oc1ccccc1C(=O)O' }, { highlight: { smarts: '[CX3]=O' } });
    expect(d.highlightedAtoms).toEqual([1, 2, 10, 11]);
    expect(d.highlightedBonds).toEqual([1, 10]);
    const plain = engine.depict({ smiles: 'CC(=O)Oc1ccccc1C(=O)O' });
    expect(d.svg.length).toBeGreaterThan(plain.svg.length);
    expect(d.svg).toContain('#FF9933');
    expect(plain.svg).not.toContain('#FF9933');
  });

  it('highlights atoms and bonds given by index, merged with SMARTS matches', () => {
    const d = engine.depict({ smiles: 'CCO' }, { highlight: { atoms: [0], bonds: [1], smarts: 'O' } });
    expect(d.highlightedAtoms).toEqual([0, 2]);
    expect(d.highlightedBonds).toEqual([1]);
  });

  it('draws nothing highlighted when the SMARTS does not match', () => {
    const d = engine.depict({ smiles: 'CCO' }, { highlight: { smarts: 'c1ccccc1' } });
    expect(d.highlightedAtoms).toEqual([]);
  });

  it('reads a molfile and writes one back', () => {
    const molfile = engine.molfile({ smiles: 'CC(=O)Nc1ccc(O)cc1' });
    expect(molfile).toMatch(/V2000/);
    expect(molfile).toMatch(/^M {2}END$/m);
    const d = engine.depict({ molfile });
    expect(d).toMatchObject({ canonicalSmiles: 'CC(=O)Nc1ccc(O)cc1', formula: 'C8H9NO2', numAtoms: 11 });
    expect(inspectSvg(d.svg).bonds.size).toBe(11);
  });
});

describe('refusing bad input', () => {
  it.each([
    ['an unclosed ring', 'C1CC'],
    ['a made-up element', 'CXc1ccccc1'],
    ['a pentavalent carbon', 'C(C)(C)(C)(C)C'],
    ['plain words', 'aspirin tablet'],
    ['a JSON molecule in the SMILES field', '{"molecules":[]}'],
    ['a line break', 'CC\nO'],
  ])('invalid SMILES: %s', (_label, smiles) => {
    const err = refusal(() => engine.depict({ smiles }));
    expect(err.code).toBe('invalid_smiles');
    expect(err.message).toMatch(/SMILES/);
    expect(err.field).toBe('smiles');
  });

  it('an empty SMILES', () => {
    expect(refusal(() => engine.describe({ smiles: '  ' })).message).toBe('SMILES 不能为空');
  });

  it('a SMILES longer than the limit', () => {
    const err = refusal(() => engine.describe({ smiles: 'C'.repeat(MOL_LIMITS.smilesLength + 1) }));
    expect(err.code).toBe('input_too_large');
  });

  it('too many heavy atoms to draw, with the count in the message', () => {
    const err = refusal(() => engine.depict({ smiles: 'C'.repeat(MOL_LIMITS.depictHeavyAtoms + 1) }));
    expect(err.code).toBe('too_many_atoms');
    expect(err.message).toContain(`${MOL_LIMITS.depictHeavyAtoms + 1}`);
    // Any call refuses more atoms than MOL_LIMITS.atoms (RDKit's WASM build traps on very large
    // structures), counted from the text; up to it a structure is read.
    expect(refusal(() => engine.describe({ smiles: 'C'.repeat(MOL_LIMITS.atoms + 1) })).code).toBe('too_many_atoms');
    expect(refusal(() => engine.describe({ smiles: `[CH3]${'C'.repeat(MOL_LIMITS.atoms)}` })).message).toBe(`分子过大：含 ${MOL_LIMITS.atoms + 1} 个原子，上限为 ${MOL_LIMITS.atoms} 个`);
    expect(engine.describe({ smiles: 'C'.repeat(MOL_LIMITS.atoms) }).numAtoms).toBe(MOL_LIMITS.atoms);
  });

  it('a molfile that is not one', () => {
    expect(refusal(() => engine.depict({ molfile: 'hello' })).code).toBe('invalid_molfile');
    // A bond to atom 9 of a 3-atom molecule.
    const broken = engine.molfile({ smiles: 'CCO' }).replace(/^ {2}1 {2}2 {2}1 {2}0$/m, '  1  9  1  0');
    expect(broken).not.toBe(engine.molfile({ smiles: 'CCO' }));
    expect(refusal(() => engine.depict({ molfile: broken })).code).toBe('invalid_molfile');
  });

  it('a molfile without atoms', () => {
    const empty = '\n  empty\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n';
    expect(refusal(() => engine.depict({ molfile: empty })).message).toBe('结构中没有原子');
  });

  it('an invalid SMARTS', () => {
    const err = refusal(() => engine.depict({ smiles: 'CCO' }, { highlight: { smarts: '[[[' } }));
    expect(err.code).toBe('invalid_smarts');
    expect(err.field).toBe('highlight.smarts');
  });

  it('highlight indices beyond the molecule', () => {
    expect(refusal(() => engine.depict({ smiles: 'CCO' }, { highlight: { atoms: [3] } })).message).toContain('共 3 个原子');
    expect(refusal(() => engine.depict({ smiles: 'CCO' }, { highlight: { bonds: [2] } })).message).toContain('共 2 个键');
  });

  it('a size outside the bounds', () => {
    expect(refusal(() => engine.depict({ smiles: 'CCO' }, { width: 10 })).field).toBe('width');
    expect(refusal(() => engine.depict({ smiles: 'CCO' }, { height: 100_000 })).field).toBe('height');
  });

  it('keeps working after a run of failures (molecules are freed)', () => {
    for (let i = 0; i < 200; i++) {
      expect(() => engine.depict({ smiles: 'C1CC' })).toThrow(ChemInputError);
      expect(() => engine.depict({ smiles: 'CCO' }, { highlight: { atoms: [99] } })).toThrow(ChemInputError);
    }
    expect(engine.describe({ smiles: 'CCO' }).formula).toBe('C2H6O');
  });
});

describe('3D input', () => {
  it('draws a molfile with 3D coordinates from fresh 2D coordinates', () => {
    // Ethanol with 3D coordinates (z ≠ 0).
    const molfile = [
      'ethanol',
      '  3D',
      '',
      '  3  2  0  0  0  0  0  0  0  0999 V2000',
      '   -0.8883    0.1670   -0.0273 C   0  0  0  0  0  0  0  0  0  0  0  0',
      '    0.4658   -0.5116   -0.0368 C   0  0  0  0  0  0  0  0  0  0  0  0',
      '    1.4311    0.3924    0.4631 O   0  0  0  0  0  0  0  0  0  0  0  0',
      '  1  2  1  0',
      '  2  3  1  0',
      'M  END',
      '',
    ].join('\n');
    const d = engine.depict({ molfile });
    expect(d).toMatchObject({ canonicalSmiles: 'CCO', formula: 'C2H6O', numAtoms: 3 });
    expect(inspectSvg(d.svg).bonds.size).toBe(2);
  });
});
