import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRdkit } from '../../../../src/server/chem/rdkit-loader';
import { darkenFaintGlyphs } from '../../../../src/server/parsing/chemistry/faint';
import { inchiKeyOf } from '../../../../src/server/parsing/chemistry/judge';
import { osraVersion } from '../../../../src/server/parsing/chemistry/osra';
import type { Gray } from '../../../../src/server/parsing/chemistry/regions';
import { seededRandom } from '../../../seeded-random';
import { readImageKeys } from './read-keys';

// Issue 28 §1: a coloured drawing scanned in grey keeps its bonds dark and loses its coloured
// letters (RDKit's yellow S) into the paper; recognition darkens such letters before OSRA reads.

/** A deterministic speckle in −range…range. */
const speckle = (i: number, range: number) => ((((i * 2654435761) >>> 0) % 1000) / 1000 - 0.5) * 2 * range;

/** Scanned grey paper (245 ± 6) with `ink` painted on it. */
function paper(width: number, height: number, ink: (x: number, y: number) => number | undefined): Gray {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data[y * width + x] = Math.round(ink(x, y) ?? 245 + speckle(y * width + x, 6));
  return { data, width, height };
}

describe('darkenFaintGlyphs', () => {
  // At 200 dpi: a bond 3 px wide and 160 px long at 40, a faint ring 14 × 20 px (a letter: O) at 210, above the cut,
  // a faint grey wash 150 px square (a shaded panel, no letter) at 215, a speck of 2 px at 205.
  const W = 400;
  const H = 300;
  const inRing = (x: number, y: number) => {
    const d = Math.hypot((x - 300) / 7, (y - 60) / 10);
    return d >= 0.65 && d <= 1;
  };
  const img = paper(W, H, (x, y) => {
    if (y >= 150 && y < 153 && x >= 20 && x < 180) return 40;
    if (inRing(x, y)) return 210;
    if (x >= 220 && x < 370 && y >= 120 && y < 270) return 215;
    if (x >= 100 && x < 102 && y === 60) return 205;
    return undefined;
  });
  const cut = 206;
  const out = darkenFaintGlyphs(img, [0, 0, W, H], 245, cut, 200);
  const at = (g: Gray, x: number, y: number) => g.data[y * g.width + x]!;

  it('darkens a faint letter below the cut, its stroke and not its surroundings', () => {
    expect(at(img, 300, 52)).toBeGreaterThanOrEqual(cut);
    expect(at(out, 300, 52)).toBeLessThan(cut);
    expect(at(out, 300, 68)).toBeLessThan(cut);
    // Its edge (half paper in the smoothed copy) is not: the stroke keeps its width.
    expect(at(out, 300, 50)).toBe(at(img, 300, 50));
    // The ring's hole and the paper around it stay paper.
    expect(at(out, 300, 60)).toBeGreaterThan(cut);
    expect(at(out, 300, 40)).toBeGreaterThan(cut);
  });

  it('leaves the bonds, a shaded panel and a speck as they were', () => {
    for (const [x, y] of [[100, 151], [100, 149], [100, 154], [290, 200], [101, 60], [50, 250]] as const) expect(at(out, x, y), `${x},${y}`).toBe(at(img, x, y));
  });

  it('returns the crop alone', () => {
    const part = darkenFaintGlyphs(img, [280, 40, 320, 80], 245, cut, 200);
    expect([part.width, part.height]).toEqual([40, 40]);
    expect(at(part, 20, 12)).toBe(at(out, 300, 52));
  });
});

describe('a scanned drawing with a yellow S', () => {
  let dir = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-faint-'));
    return () => fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is read with its S (without the darkening OSRA reads CSC as CCC)', async () => {
    if ((await osraVersion()) === null) throw new Error('osra is not installed: run the setup step (scripts/setup-system.sh)');
    const rdkit = await loadRdkit();
    const mol = rdkit.get_mol('COC(=O)CCSCc1ccccc1')!;
    const svg = mol.get_svg(450, 324);
    const key = inchiKeyOf(rdkit, mol);
    mol.delete();
    // Printed in colour, scanned in grey at 200 dpi: luminance, blurred, paper greyed, speckled, JPEG'd.
    const grey = await sharp(Buffer.from(svg)).flatten({ background: '#ffffff' }).greyscale().blur(0.8).raw().toBuffer({ resolveWithObject: true });
    const noise = seededRandom(12345);
    const scanned = Uint8Array.from(grey.data, (v) => Math.max(0, Math.min(255, Math.round(v * 0.93 + 10 + (noise() + noise() + noise() - 1.5) * 18))));
    const jpeg = await sharp(scanned, { raw: { width: grey.info.width, height: grey.info.height, channels: 1 } }).jpeg({ quality: 65 }).toBuffer();
    const page = path.join(dir, 'scan.png');
    await sharp(jpeg).withMetadata({ density: 200 }).png().toFile(page);
    const { keys, read } = await readImageKeys(page);
    expect(keys, read).toContain(key);
  }, 120_000);
});
