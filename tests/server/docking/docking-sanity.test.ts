import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { finishPoses } from '../../../src/server/docking/poses';
import { runProgram } from '../../../src/server/docking/programs';
import { receptorPdb } from '../../../src/server/docking/structure';

// The pose checks (PoseBusters idea, RDKit in dock_poses.py) mark a pose that is not
// physically sensible. Poses are built here from the crystal ligand 5DN of rdkit-data's 5DPV: as is
// (passes), pushed into the protein, with a ring atom pulled out of its ring's plane, and a chiral
// amine docked as its mirror image.

const PDB = fs.readFileSync('/usr/share/RDKit/Contrib/CalcLigRMSD/data/5dpv.pdb', 'utf8');
const TEMPLATE = 'Brc1cccc(c1)c1cc(C(=O)[O-])c2c(n1)c(F)ccc2';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-sanity-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type Xyz = [string, number, number, number];
const crystal: Xyz[] = PDB.split('\n')
  .filter((l) => l.startsWith('HETATM') && l.slice(17, 20) === '5DN')
  .map((l) => [l.slice(76, 78).trim(), Number(l.slice(30, 38)), Number(l.slice(38, 46)), Number(l.slice(46, 54))]);

/** One Vina-like model: heavy atoms with AutoDock types. */
function model(n: number, atoms: Xyz[]): string {
  const lines = atoms.map(([e, x, y, z], i) => `ATOM  ${String(i + 1).padStart(5)}  ${e.padEnd(3)} UNL     1    ${x.toFixed(3).padStart(8)}${y.toFixed(3).padStart(8)}${z.toFixed(3).padStart(8)}  0.00  0.00    +0.000 ${e.toUpperCase().padEnd(2)}`);
  return `MODEL ${n}\nREMARK VINA RESULT:    -${n}.000      0.000      0.000\n${lines.join('\n')}\nENDMDL\n`;
}

describe('pose sanity', () => {
  it('passes the crystal pose and marks a pose inside the protein and one with a buckled ring', async () => {
    fs.writeFileSync(path.join(dir, 'receptor.pdb'), receptorPdb(PDB));
    // Into the protein: the ligand moved so that its first atom sits on a backbone atom 12 Å away.
    const ca = PDB.split('\n').find((l) => l.startsWith('ATOM  ') && l.slice(12, 16) === ' CA ' && Math.hypot(Number(l.slice(30, 38)) - crystal[0]![1], Number(l.slice(38, 46)) - crystal[0]![2], Number(l.slice(46, 54)) - crystal[0]![3]) > 12)!;
    const shift = [Number(ca.slice(30, 38)) - crystal[0]![1], Number(ca.slice(38, 46)) - crystal[0]![2], Number(ca.slice(46, 54)) - crystal[0]![3]];
    const inside = crystal.map(([e, x, y, z]) => [e, x + shift[0]!, y + shift[1]!, z + shift[2]!] as Xyz);
    // A buckled ring: C05 of the quinoline moved 0.8 Å along the normal of the plane of C04, C05, C06.
    const buckled = crystal.map((a) => [...a] as Xyz);
    const [c4, c5, c6] = [3, 4, 5].map((i) => crystal[i]!.slice(1) as number[]);
    const u = c5!.map((v, k) => v - c4![k]!);
    const w = c6!.map((v, k) => v - c4![k]!);
    const normal = [u[1]! * w[2]! - u[2]! * w[1]!, u[2]! * w[0]! - u[0]! * w[2]!, u[0]! * w[1]! - u[1]! * w[0]!];
    const length = Math.hypot(...normal);
    for (let k = 0; k < 3; k++) (buckled[4]![k + 1] as number) += (0.8 * normal[k]!) / length;
    fs.writeFileSync(path.join(dir, 'poses.pdbqt'), model(1, crystal) + model(2, inside) + model(3, buckled));
    fs.writeFileSync(path.join(dir, 'ligand.pdbqt'), model(1, crystal));
    const reports = await finishPoses({ dir, smiles: TEMPLATE, ligand: 'ligand.pdbqt', poses: 'poses.pdbqt', receptor: 'receptor.pdb', sdf: 'poses.sdf', interactions: false, complexPrefix: 'complex-' }, AbortSignal.timeout(60_000));
    expect(reports.map((r) => r.radicals)).toEqual([0, 0, 0]);
    expect(reports.every((r) => r.same_graph)).toBe(true);
    const [xtal, clash, bent] = reports.map((r) => r.sanity);
    expect(xtal!.passed, JSON.stringify(xtal)).toBe(true);
    expect(clash!.passed).toBe(false);
    expect(clash!.checks.protein_clash).toBe(false);
    expect(clash!.closest_contact_ratio).toBeLessThan(0.75);
    expect(bent!.passed).toBe(false);
    expect(bent!.checks.aromatic_rings_flat, JSON.stringify(bent)).toBe(false);
    expect(bent!.ring_deviation).toBeGreaterThan(0.25);
    // The SDF says so too.
    const sdf = fs.readFileSync(path.join(dir, 'poses.sdf'), 'utf8');
    expect(sdf.match(/<POSE_SANITY>.*\n(.*)/g)!.map((m) => m.split('\n')[1])).toEqual(['pass', 'fail: protein_clash', expect.stringMatching(/^fail: .*aromatic_rings_flat/)]);
  }, 60_000);

  it('marks a pose whose stereocentre is inverted', async () => {
    // The (R) amine's 3D structure docked as if it were the submitted (S) one.
    const mirror = (await runProgram('obabel', ['-:C[C@H]([NH3+])c1ccc(O)cc1', '--gen3d', '-opdbqt'], { signal: AbortSignal.timeout(60_000) })).stdout;
    const own = (await runProgram('obabel', ['-:C[C@@H]([NH3+])c1ccc(O)cc1', '--gen3d', '-opdbqt'], { signal: AbortSignal.timeout(60_000) })).stdout;
    const atoms = (text: string) => text.split('\n').filter((l) => l.startsWith('ATOM') || l.startsWith('HETATM')).join('\n');
    fs.writeFileSync(path.join(dir, 'stereo-ligand.pdbqt'), own);
    fs.writeFileSync(path.join(dir, 'stereo.pdbqt'), `MODEL 1\nREMARK VINA RESULT:    -5.000 0 0\n${atoms(own)}\nENDMDL\nMODEL 2\nREMARK VINA RESULT:    -4.000 0 0\n${atoms(mirror)}\nENDMDL\n`);
    const reports = await finishPoses({ dir, smiles: 'C[C@@H]([NH3+])c1ccc(O)cc1', ligand: 'stereo-ligand.pdbqt', poses: 'stereo.pdbqt', receptor: 'receptor.pdb', sdf: 'stereo.sdf', interactions: false, complexPrefix: 'stereo-' }, AbortSignal.timeout(60_000));
    expect(reports[0]!.sanity.checks.stereochemistry).toBe(true);
    expect(reports[1]!.sanity.checks.stereochemistry).toBe(false);
    expect(reports[1]!.sanity.stereo_changed).toEqual(['C2']);
  }, 60_000);
});
