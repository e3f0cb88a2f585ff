import fs from 'node:fs';
import zlib from 'node:zlib';
import { z } from 'zod';

/**
 * The shipped data files (src/server/chem/data, see its README for sources and licences). From
 * source they sit beside this folder; the server build copies them next to the bundle as
 * dist/server/chem-data (scripts/build-server.mjs), where the bundled worker finds them.
 */
function dataUrl(name: string): URL {
  const here = import.meta.url;
  // tsx may add a query to the module URL (in worker threads): look at the path only.
  return new URL(here).pathname.endsWith('.ts') ? new URL(`../data/${name}`, here) : new URL(`./chem-data/${name}`, here);
}

const readJson = <T>(name: string, schema: z.ZodType<T>): T => {
  const raw = fs.readFileSync(dataUrl(name));
  return schema.parse(JSON.parse((name.endsWith('.gz') ? zlib.gunzipSync(raw) : raw).toString('utf8')));
};

const painsFile = z.object({ families: z.array(z.object({ family: z.string(), smarts: z.string() })) });
const brenkFile = z.object({ alerts: z.array(z.object({ name: z.string(), smarts: z.string(), minCount: z.number().int() })) });
const adsParameters = z.tuple([z.number(), z.number(), z.number(), z.number(), z.number(), z.number(), z.number()]);
const qedFile = z.object({
  properties: z.array(z.string()),
  weights: z.array(z.number()),
  ads: z.record(z.string(), adsParameters),
  acceptors: z.array(z.string()),
  alerts: z.array(z.string()),
});
const saFile = z.object({ groups: z.array(z.tuple([z.number(), z.array(z.number())])) });

export type PainsFamily = z.infer<typeof painsFile>['families'][number];
export type BrenkAlert = z.infer<typeof brenkFile>['alerts'][number];
export type QedData = z.infer<typeof qedFile>;

/** The 480 PAINS families (Baell & Holloway 2010). */
export const loadPains = () => readJson('pains.json', painsFile).families;
/** The 105 Brenk alerts (Brenk et al. 2008). */
export const loadBrenk = () => readJson('brenk.json', brenkFile).alerts;
/** QED's published parameters and SMARTS (Bickerton et al. 2012). */
export const loadQed = () => readJson('qed.json', qedFile);

/** The SA fragment scores (Ertl & Schuffenhauer 2009): Morgan environment id → score. */
export function loadFragmentScores(): Map<number, number> {
  const scores = new Map<number, number>();
  for (const [score, deltas] of readJson('sa-fpscores.json.gz', saFile).groups) {
    let id = 0;
    for (const d of deltas) {
      id += d;
      scores.set(id, score);
    }
  }
  return scores;
}
