import type { Atom3d } from './structure';

/** One model of a Vina output PDBQT. */
export interface PdbqtModel {
  /** The `REMARK VINA RESULT` score, kcal/mol (NaN when absent). */
  score: number;
  /** Heavy atoms in file order. */
  atoms: Atom3d[];
  /** The model's lines (MODEL … ENDMDL). */
  text: string;
}

/** AutoDock atom type → element (upper case). */
function typeElement(type: string, name: string): string {
  const t = type.toUpperCase();
  if (t === 'A' || t === 'C') return 'C';
  if (t === 'NA' || t === 'NS' || t === 'N') return 'N';
  if (t === 'OA' || t === 'OS' || t === 'O') return 'O';
  if (t === 'SA' || t === 'S') return 'S';
  if (t === 'HD' || t === 'HS' || t === 'H') return 'H';
  if (t) return t.replace(/[^A-Z]/g, '');
  return name.replace(/[^A-Za-z]/g, '').slice(0, 1).toUpperCase();
}

/** Heavy atoms of the ATOM/HETATM lines of a PDBQT text, in order. */
export function pdbqtHeavyAtoms(text: string): Atom3d[] {
  const atoms: Atom3d[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith('ATOM') && !line.startsWith('HETATM')) continue;
    const element = typeElement(line.slice(77).trim(), line.slice(12, 16).trim());
    if (element === 'H') continue;
    atoms.push({ element, x: Number(line.slice(30, 38)), y: Number(line.slice(38, 46)), z: Number(line.slice(46, 54)) });
  }
  return atoms;
}

/** The models of a PDBQT file with several (Vina's output), or the whole text as one model. */
export function pdbqtModels(text: string): PdbqtModel[] {
  const blocks = text.split(/^(?=MODEL\b)/m).filter((b) => /^MODEL\b/.test(b));
  const parts = blocks.length ? blocks : [text];
  return parts.map((block) => {
    const score = /^REMARK VINA RESULT:\s+(-?[\d.]+)/m.exec(block);
    return { score: score ? Number(score[1]) : NaN, atoms: pdbqtHeavyAtoms(block), text: block.endsWith('\n') ? block : `${block}\n` };
  });
}

const sq = (a: Atom3d, b: Atom3d) => (a.x - b.x) ** 2 + (a.y - b.y) ** 2 + (a.z - b.z) ** 2;

/** RMSD of two atom lists in the same order, without fitting. */
export function rmsdSameOrder(a: Atom3d[], b: Atom3d[]): number {
  if (a.length !== b.length || a.length === 0) throw new Error('RMSD needs two non-empty lists of the same length');
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += sq(a[i]!, b[i]!);
  return Math.sqrt(sum / a.length);
}

/** Covalent radii (Å) of the elements of drug-like molecules (Cordero et al. 2008); others 0.8. */
const RADIUS: Record<string, number> = { C: 0.76, N: 0.71, O: 0.66, S: 1.05, P: 1.07, F: 0.57, CL: 1.02, BR: 1.2, I: 1.39, B: 0.84, SI: 1.11, SE: 1.2 };
const radius = (e: string) => RADIUS[e] ?? 0.8;

/** Bonds between heavy atoms by distance (radii sum + 0.45 Å). */
export function bondsByDistance(atoms: Atom3d[]): number[][] {
  const adj: number[][] = atoms.map(() => []);
  for (let i = 0; i < atoms.length; i++) {
    for (let j = i + 1; j < atoms.length; j++) {
      const limit = radius(atoms[i]!.element) + radius(atoms[j]!.element) + 0.45;
      if (sq(atoms[i]!, atoms[j]!) < limit * limit) {
        adj[i]!.push(j);
        adj[j]!.push(i);
      }
    }
  }
  return adj;
}

/**
 * Symmetry-aware RMSD without fitting: the smallest RMSD over every mapping of `a`'s heavy atoms
 * onto `b`'s that keeps elements and bonds (bonds perceived from distances, so bond orders,
 * charges and hydrogens do not matter). Undefined when the two are not the same molecular graph.
 * Branch and bound over a breadth-first atom order; at most `maxSteps` search steps.
 */
export function symmetricRmsd(a: Atom3d[], b: Atom3d[], maxSteps = 2_000_000): number | undefined {
  const n = a.length;
  if (n === 0 || n !== b.length) return undefined;
  const adjA = bondsByDistance(a);
  const adjB = bondsByDistance(b);
  const key = (atoms: Atom3d[], adj: number[][]) => atoms.map((x, i) => `${x.element}${adj[i]!.length}`).sort().join(',');
  if (key(a, adjA) !== key(b, adjB)) return undefined;

  // Breadth-first order of a's atoms, each later atom bonded to an earlier one where possible.
  const order: number[] = [];
  const seen = new Set<number>();
  for (let s = 0; s < n; s++) {
    if (seen.has(s)) continue;
    seen.add(s);
    const queue = [s];
    while (queue.length) {
      const v = queue.shift()!;
      order.push(v);
      for (const w of adjA[v]!) {
        if (!seen.has(w)) {
          seen.add(w);
          queue.push(w);
        }
      }
    }
  }

  const map = new Array<number>(n).fill(-1);
  const used = new Array<boolean>(n).fill(false);
  let best = Infinity;
  let steps = 0;
  const visit = (k: number, sum: number) => {
    if (++steps > maxSteps || sum >= best) return;
    if (k === n) {
      best = sum;
      return;
    }
    const v = order[k]!;
    for (let w = 0; w < n; w++) {
      if (used[w] || b[w]!.element !== a[v]!.element || adjB[w]!.length !== adjA[v]!.length) continue;
      // every already-mapped neighbour of v must map to a neighbour of w
      let fits = true;
      for (const u of adjA[v]!) {
        const mu = map[u]!;
        if (mu >= 0 && !adjB[w]!.includes(mu)) {
          fits = false;
          break;
        }
      }
      if (!fits) continue;
      map[v] = w;
      used[w] = true;
      visit(k + 1, sum + sq(a[v]!, b[w]!));
      map[v] = -1;
      used[w] = false;
    }
  };
  visit(0, 0);
  return Number.isFinite(best) ? Math.sqrt(best / n) : undefined;
}
