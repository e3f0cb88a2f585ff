// One parse process's OCR for bench/ocr.bench.ts: reads each image file given (JSON list on argv)
// with the product's image parser (parsing/image.ts: PP-OCR and layout), one after another, and
// prints a JSON line per file (after loading the models, untimed) (markdown, CPU seconds, wall seconds), then this process's peak RSS.
import { parseImage } from '../src/server/parsing/image';
import { ppocrAvailable } from '../src/server/parsing/ppocr';

const files = JSON.parse(process.argv[2] ?? '[]') as string[];
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
// The models load once per process, before the first page (not counted in its time).
const loaded = await ppocrAvailable();
if (!loaded.ok) throw new Error(`PP-OCR models did not load: ${loaded.reason}`);
for (const file of files) {
  const c = cpu();
  const t = performance.now();
  const r = await parseImage(file, 'bench', () => {});
  console.log(JSON.stringify({ file, markdown: r.markdown, notes: r.notes, cpu: cpu() - c, wall: (performance.now() - t) / 1000 }));
}
console.log(JSON.stringify({ maxRssMb: process.resourceUsage().maxRSS / 1024 }));
