// `npm run bench`: every benchmark, each figure a ratio to a baseline measured in the same run.
// `npm run bench -- server` runs one group.
import { printFigures, type Figure } from './lib';

const groups: Record<string, () => Promise<{ run(): Promise<Figure[]> }>> = {
  server: () => import('./server.bench'),
  web: () => import('./web.bench'),
  mol: () => import('./mol.bench'),
  widgets: () => import('./widgets.bench'),
  knowledge: () => import('./knowledge.bench'),
  ask: () => import('./ask.bench'),
  streams: () => import('./streams.bench'),
  viewer: () => import('./viewer.bench'),
  retrieval: () => import('./retrieval.bench'),
  'retrieval-scale': () => import('./retrieval-scale.bench'),
  admet: () => import('./admet.bench'),
  names: () => import('./names.bench'),
  molsearch: () => import('./molsearch.bench'),
  sandbox: () => import('./sandbox.bench'),
  crawl: () => import('./crawl.bench'),
  docking: () => import('./docking.bench'),
  crash: () => import('./crash.bench'),
  load: () => import('./load.bench'),
  ocr: () => import('./ocr.bench'),
  fuzz: () => import('./fuzz.bench'),
  chemdocs: () => import('./chemdocs.bench'),
};

const wanted = process.argv.slice(2);
let missed = 0;
for (const [name, load] of Object.entries(groups)) {
  if (wanted.length && !wanted.includes(name)) continue;
  const figures = await (await load()).run();
  printFigures(name, figures);
  missed += figures.filter((f) => f.target && !(f.target.op === '>=' ? f.ratio >= f.target.ratio : f.ratio <= f.target.ratio)).length;
}
console.log(`\n${missed === 0 ? 'All targets met.' : `${missed} target(s) missed.`}`);
