import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRdkit, withValidMol } from '../../../../src/server/chem/rdkit-loader';
import { uncrossed } from '../../../../src/server/parsing/chemistry/crossed';
import { osraVersion } from '../../../../src/server/parsing/chemistry/osra';
import { keyOf, readImageKeys } from './read-keys';

// Issue 28 §1: a double bond of unknown geometry is drawn as two crossing lines (Open Babel draws
// every such bond so); OSRA reads the crossing as an atom, and recognition takes it out again.

/** A V2000 molfile of `atoms` ([symbol, x, y]) and `bonds` ([from, to, order], counted from 1), with `extra` lines before M  END. */
function molfile(atoms: Array<[string, number, number]>, bonds: Array<[number, number, number]>, extra: string[] = []): string {
  const n = (v: number, w = 3) => String(v).padStart(w);
  return [
    '',
    ' OpenBabel11302600002D',
    '',
    `${n(atoms.length)}${n(bonds.length)}  0  0  0  0  0  0  0  0999 V2000`,
    ...atoms.map(([s, x, y]) => `${x.toFixed(4).padStart(10)}${y.toFixed(4).padStart(10)}${(0).toFixed(4).padStart(10)} ${s.padEnd(3)} 0  0  0  0  0  0  0  0  0  0  0  0`),
    ...bonds.map(([a, b, o]) => `${n(a)}${n(b)}${n(o)}  0  0  0  0`),
    ...extra,
    'M  END',
  ].join('\n');
}

describe('uncrossed', () => {
  // Bonds of 1.5; the chain C1–C2 … C3–C4(=O5)–O6 bends at every atom, except at X (atom 3): it
  // sits midway between C2 and C3, in a straight line, half a bond from each.
  const crossing = molfile(
    [
      ['C', 0, 0],
      ['C', 1.3, 0.75],
      ['C', 1.3, 1.5],
      ['C', 1.3, 2.25],
      ['C', 2.6, 3.0],
      ['O', 2.6, 4.5],
      ['O', 3.9, 2.25],
    ],
    [
      [1, 2, 1],
      [2, 3, 1],
      [3, 4, 1],
      [4, 5, 1],
      [5, 6, 2],
      [5, 7, 1],
    ],
  );
  const smilesOf = async (text: string) => withValidMol(await loadRdkit(), text, (m) => m.get_smiles());

  it('takes the crossing atom out and joins its neighbours by a double bond of unknown geometry', async () => {
    expect(await smilesOf(crossing)).toBe('CCCCC(=O)O');
    const fixed = uncrossed(crossing);
    expect(fixed).not.toBeNull();
    // No E/Z: the crossed bond says it is not known.
    expect(await smilesOf(fixed!)).toBe('CC=CC(=O)O');
  });

  it('keeps charges on their atoms when it renumbers them', async () => {
    const charged = crossing.replace('M  END', 'M  CHG  1   7  -1\nM  END');
    expect(await smilesOf(uncrossed(charged)!)).toBe('CC=CC(=O)[O-]');
  });

  it('leaves a drawn chain (bent at every atom, bonds of one length) as it is', () => {
    const chain = molfile(
      [
        ['C', 0, 0],
        ['C', 1.3, 0.75],
        ['C', 2.6, 0],
        ['C', 3.9, 0.75],
        ['O', 5.2, 0],
      ],
      [
        [1, 2, 1],
        [2, 3, 1],
        [3, 4, 1],
        [4, 5, 1],
      ],
    );
    expect(uncrossed(chain)).toBeNull();
    // A nitrile or an alkyne is straight, but its bonds are whole ones.
    const nitrile = molfile(
      [
        ['C', 0, 0],
        ['C', 1.3, 0.75],
        ['C', 2.8, 0.75],
        ['N', 4.3, 0.75],
      ],
      [
        [1, 2, 1],
        [2, 3, 1],
        [3, 4, 3],
      ],
    );
    expect(uncrossed(nitrile)).toBeNull();
  });

  it('leaves a stroke that ends at the crossing (a neighbour with no other bond) as it is', () => {
    const stub = molfile(
      [
        ['C', 0, 0],
        ['C', 1.3, 0.75],
        ['C', 1.3, 1.5],
        ['C', 1.3, 2.25],
      ],
      [
        [1, 2, 1],
        [2, 3, 1],
        [3, 4, 1],
      ],
    );
    expect(uncrossed(stub)).toBeNull();
  });

  it('refuses what is not a V2000 molfile', () => {
    expect(uncrossed('CC=CC')).toBeNull();
    expect(uncrossed('')).toBeNull();
    expect(uncrossed(crossing.replace('V2000', 'V3000'))).toBeNull();
  });
});

describe('a picture of an enone drawn by Open Babel', () => {
  let dir = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-crossed-'));
    return () => fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each([['O=C(C=Cc1ccco1)c1ccccc1'], ['O=C(C=Cc1ccccn1)c1ccc(Cl)cc1']])('is read with its crossed double bond: %s', async (smiles) => {
    if ((await osraVersion()) === null) throw new Error('osra is not installed: run the setup step (scripts/setup-system.sh)');
    // Open Babel's picture (513 px square, as in a paper's figure), placed at 400 dpi.
    const png = execFileSync('obabel', [`-:${smiles}`, '-opng', '-xd', '-xp', '513']);
    const file = path.join(dir, 'enone.png');
    await sharp(png).withMetadata({ density: 400 }).png().toFile(file);
    const { keys, read } = await readImageKeys(file);
    expect(keys, read).toContain(await keyOf(smiles));
  }, 120_000);
});
