/**
 * Crossed double bonds. A double bond whose geometry is not known (an E/Z mixture, a record without
 * stereo) is drawn as two lines crossing midway between its atoms — Open Babel draws every such bond
 * so, ChemDraw's "either" bond looks the same. OSRA has no reading for it: where the lines cross it
 * puts an atom, so C=C comes out as C–C–C (O=C(C=Cc1ccco1)… read as O=C(CCCc1ccco1)…).
 *
 * That atom is recognisable by where OSRA places it: a carbon with two bonds, in a straight line
 * between its neighbours, each bond about half as long as the drawing's bonds, its neighbours a
 * bond's length apart and each bonded on to the rest of the molecule. A drawn chain bends at every
 * atom and its bonds are of one length, so nothing else looks like this. Each such atom is taken
 * out and its neighbours joined by a double bond of unknown geometry. recognize.ts offers the
 * result beside OSRA's reading; judge.ts scores both. The limits below leave room around the exact
 * figures (half bonds of 0.5, a span of 1, 180°), not tuned; on the tuning half of the chemdocs set
 * (bench/chemdocs.bench.ts) they read two more molecules and lose none.
 */

import { readV2000, withoutAtoms, type MolAtom } from './molfile';

/** A crossing's two half bonds are each this share of the drawing's bond length. */
const HALF_BOND: [number, number] = [0.3, 0.72];
/** Its neighbours are this share of the bond length apart (the double bond it stands for). */
const SPAN: [number, number] = [0.75, 1.3];
/** The angle at the crossing, in degrees, is at least this (a straight line). */
const STRAIGHT_DEG = 155;

/**
 * The molfile `molfile` (V2000) with each crossing atom taken out and its neighbours joined by a
 * double bond of unknown geometry, or null when it has none (or is not a V2000 molfile).
 */
export function uncrossed(molfile: string): string | null {
  const read = readV2000(molfile);
  if (!read || read.atoms.length < 3) return null;
  const { atoms, bonds } = read;
  const length = (i: number, j: number) => Math.hypot(atoms[i]!.x - atoms[j]!.x, atoms[i]!.y - atoms[j]!.y);
  const lengths = bonds.map((b) => length(b.a, b.b)).sort((p, q) => p - q);
  const typical = lengths[Math.floor(lengths.length / 2)]!;
  if (!(typical > 0)) return null;

  // Each atom's bonds, once.
  const bondsOf = atoms.map((_, i) => bonds.filter((b) => b.a === i || b.b === i));
  const removed = new Set<number>();
  const joined: Array<[number, number]> = [];
  for (let x = 0; x < atoms.length; x++) {
    const mine = bondsOf[x]!;
    if (atoms[x]!.symbol !== 'C' || mine.length !== 2 || mine.some((b) => b.order > 2)) continue;
    const [p, q] = mine.map((b) => (b.a === x ? b.b : b.a)) as [number, number];
    // Each neighbour is an atom of the chain the double bond is in: it has bonds of its own (a line
    // ending at the crossing is a stroke of the cross read apart, not a bond).
    if (removed.has(p) || removed.has(q) || bondsOf[p]!.length < 2 || bondsOf[q]!.length < 2) continue;
    const half = [length(x, p), length(x, q)].map((l) => l / typical);
    const span = length(p, q) / typical;
    if (half.some((h) => h < HALF_BOND[0] || h > HALF_BOND[1]) || span < SPAN[0] || span > SPAN[1]) continue;
    const angle = angleAt(atoms[x]!, atoms[p]!, atoms[q]!);
    if (angle < STRAIGHT_DEG) continue;
    if (bondsOf[p]!.some((b) => b.a === q || b.b === q)) continue;
    removed.add(x);
    joined.push([p, q]);
  }
  if (!removed.size) return null;

  // Stereo 3 on a double bond: cis or trans, not known.
  return withoutAtoms(molfile, removed, joined.map(([a, b]) => ({ a, b, order: 2, stereo: 3 })));
}

/** The angle p–x–q at x, in degrees. */
function angleAt(x: MolAtom, p: MolAtom, q: MolAtom): number {
  const u = [p.x - x.x, p.y - x.y];
  const v = [q.x - x.x, q.y - x.y];
  const cos = (u[0]! * v[0]! + u[1]! * v[1]!) / (Math.hypot(u[0]!, u[1]!) * Math.hypot(v[0]!, v[1]!));
  return (Math.acos(Math.max(-1, Math.min(1, cos))) * 180) / Math.PI;
}
