// Structure drawings. Throughput of the chemistry service (worker thread, one call at a
// time, summary, SVG sanitiser) as a ratio to bare RDKit get_svg in-process on the same drugs.
// No target yet: the figure shows what the safety (time limit, sanitiser) costs.
import { createChemService } from '../src/server/chem/service';
import { loadRdkit } from '../src/server/chem/rdkit-loader';
import { DRUGS } from '../tests/server/chem/drugs';
import { median, printFigures, type Figure } from './lib';

const ROUNDS = 3;
const PER_ROUND = 20; // drawings of each drug per round

export async function run(): Promise<Figure[]> {
  const rdkit = await loadRdkit();
  // Without the drawing cache: every call goes to a worker, as a first drawing does.
  const service = createChemService({ cacheSize: 0 });
  try {
    await service.depict({ smiles: 'C' }); // start the worker and load RDKit there
    const bare: number[] = [];
    const served: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      let t = performance.now();
      for (let i = 0; i < PER_ROUND; i++) {
        for (const drug of DRUGS) {
          const mol = rdkit.get_mol(drug.smiles);
          if (!mol) throw new Error(`RDKit could not read ${drug.name}`);
          try {
            mol.get_svg_with_highlights(JSON.stringify({ width: 400, height: 300 }));
          } finally {
            mol.delete();
          }
        }
      }
      bare.push((PER_ROUND * DRUGS.length) / ((performance.now() - t) / 1000));
      t = performance.now();
      for (let i = 0; i < PER_ROUND; i++) {
        await Promise.all(DRUGS.map((drug) => service.depict({ smiles: drug.smiles })));
      }
      served.push((PER_ROUND * DRUGS.length) / ((performance.now() - t) / 1000));
    }
    const b = median(bare);
    const s = median(served);
    return [
      {
        name: 'draw_svg engine: 12 drugs via worker + sanitiser (drawings/s)',
        value: s.toFixed(0),
        baseline: `${b.toFixed(0)} bare RDKit get_svg in-process`,
        ratio: s / b,
      },
    ];
  } finally {
    await service.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) printFigures('Molecules', await run());
