// Bundles the server (and its CLI) into dist/server with esbuild; packages stay external.
// `--outdir DIR` bundles into DIR instead (the server tests' own build: tests/server/build-global.ts);
// DIR lies two levels below the repository, as dist/server does (the bundle finds node_modules
// and ../../package.json from there).
import fs from 'node:fs';
import { build } from 'esbuild';

const flag = process.argv.indexOf('--outdir');
const out = flag > 0 ? process.argv[flag + 1] : 'dist/server';

await build({
  entryPoints: {
    main: 'src/server/main.ts',
    'cli/user': 'src/server/cli/user.ts',
    // Loaded by src/server/chem/service.ts as new URL('./rdkit-worker.js', import.meta.url) from main.js.
    'rdkit-worker': 'src/server/chem/rdkit-worker.ts',
    // Loaded by src/server/parsing/worker-pool.ts as new URL('./parse-worker.js', import.meta.url) from main.js.
    'parse-worker': 'src/server/parsing/parse-worker.ts',
    // Loaded by src/server/online/crawl/extract-pool.ts as new URL('./extract-worker.js', import.meta.url) from main.js.
    'extract-worker': 'src/server/online/crawl/extract-worker.ts',
  },
  outdir: out,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});

// The ADMET data files (SMARTS lists, SA fragment scores), read by the bundled rdkit-worker.js as
// new URL('./chem-data/<file>', import.meta.url) (src/server/chem/admet/data.ts).
fs.rmSync(`${out}/chem-data`, { recursive: true, force: true });
fs.cpSync('src/server/chem/data', `${out}/chem-data`, { recursive: true, filter: (src) => !src.endsWith('README.md') });
// OPSIN's line server, run by `java` from source (src/server/tools/names/opsin.ts finds it next to main.js).
fs.copyFileSync('src/server/tools/names/OpsinServer.java', `${out}/OpsinServer.java`);
// The docking pose script (Debian's python3 with RDKit and PLIP), run by src/server/docking/poses.ts as
// new URL('./dock_poses.py', import.meta.url) from main.js.
fs.copyFileSync('src/server/docking/dock_poses.py', `${out}/dock_poses.py`);
fs.copyFileSync('src/server/docking/prepare_receptor.py', `${out}/prepare_receptor.py`);
fs.copyFileSync('src/server/docking/read_ligands.py', `${out}/read_ligands.py`);
