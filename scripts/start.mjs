// `npm start`: build what is missing or older than its sources, then run the server in this process.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);

// The Debian packages the tools need (installed when missing and root; else the install line is printed).
spawnSync(process.execPath, ['scripts/setup.mjs'], { stdio: 'inherit' });

function newestMtime(entries) {
  let newest = 0;
  const visit = (p) => {
    let st;
    try { st = fs.statSync(p); } catch { return; }
    if (st.isDirectory()) for (const e of fs.readdirSync(p)) visit(path.join(p, e));
    else newest = Math.max(newest, st.mtimeMs);
  };
  entries.forEach(visit);
  return newest;
}
const mtime = (p) => { try { return fs.statSync(p).mtimeMs; } catch { return 0; } };

const steps = [
  { name: 'web', stamp: 'dist/web/index.html', sources: ['src', 'index.html', 'vite.config.ts', 'package.json', 'CHANGELOG.md', 'public'], cmd: ['run', 'build:web'] },
  { name: 'server', stamp: 'dist/server/main.js', sources: ['src/server', 'src/contract', 'package.json'], cmd: ['run', 'build:server'] },
];
for (const step of steps) {
  if (mtime(step.stamp) >= newestMtime(step.sources)) continue;
  console.log(`Building ${step.name}…`);
  const r = spawnSync('npm', step.cmd, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
await import(path.join(root, 'dist/server/main.js'));
