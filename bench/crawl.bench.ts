// Page crawl speed. (1) Extraction (Readability on linkedom + markdown with tables) over
// saved article pages, in pages/s against the 50 pages/s budget — through the page reader's pool of
// worker threads (the target) and in one thread — against the previous pipeline and a plain linkedom
// parse of the same pages measured in the same run. (2) p95 of a whole read (robots.txt cached, fetch
// through the SSRF-safe client, extraction) against a local server, against the 1.5 s budget and
// against a bare fetch of the same pages through the same client.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { NodeHtmlMarkdown } from 'node-html-markdown';
import { safeFetch } from '../src/server/net/safe-fetch';
import { extractArticle } from '../src/server/online/crawl/extract';
import { createExtractPool } from '../src/server/online/crawl/extract-pool';
import { createPageReader } from '../src/server/online/crawl/read-page';
import type { Figure } from './lib';

const EXTRACT_BUDGET_PAGES_PER_S = 50;
const READ_BUDGET_MS = 1500;
const PAGES = 40;

/** A saved news/encyclopedia-like page: navigation, a sidebar of links, an article with sections, lists and tables, comments, footer. */
export function savedPage(i: number): string {
  const words = ['aspirin', 'cyclooxygenase', 'platelet', 'prostaglandin', 'dose', 'trial', 'patients', 'inhibition', '阿司匹林', '血小板', '临床试验', 'mg/kg'];
  const sentence = (n: number) => Array.from({ length: 18 }, (_, k) => words[(n * 7 + k * 3 + i) % words.length]).join(' ') + '.';
  const para = (n: number) => `<p>${Array.from({ length: 5 }, (_, k) => sentence(n + k)).join(' ')} <a href="/ref/${n}">[${n}]</a></p>`;
  const table = (n: number) =>
    `<table><thead><tr><th>Study</th><th>Dose (mg)</th><th>Patients</th><th>Outcome</th></tr></thead><tbody>${Array.from({ length: 12 }, (_, r) => `<tr><td>Trial ${n}-${r}</td><td>${75 + r * 25}</td><td>${100 + r * 37}</td><td>${(r % 3 === 0 ? 'reduced' : 'no change')}</td></tr>`).join('')}</tbody></table>`;
  const sections = Array.from({ length: 6 }, (_, s) => `<h2>Section ${s + 1}</h2>${para(s * 10)}${para(s * 10 + 5)}${s % 2 === 0 ? table(s) : '<ul>' + Array.from({ length: 8 }, (_, k) => `<li>${sentence(s + k)}</li>`).join('') + '</ul>'}${para(s * 10 + 7)}`).join('');
  const nav = `<nav>${Array.from({ length: 60 }, (_, k) => `<a href="/section/${k}">Topic ${k}</a>`).join(' ')}</nav>`;
  const sidebar = `<aside><h3>Related</h3><ul>${Array.from({ length: 40 }, (_, k) => `<li><a href="/article/${k}">Related article ${k}</a></li>`).join('')}</ul></aside>`;
  const comments = `<section class="comments">${Array.from({ length: 15 }, (_, k) => `<div class="comment"><b>user${k}</b><p>${sentence(k)}</p></div>`).join('')}</section>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Article ${i} - Pharma News</title>
<meta property="og:site_name" content="Pharma News"><script>window.analytics = {};</script><style>body{font-family:sans-serif}</style></head>
<body><header>${nav}</header><div class="layout">${sidebar}<main><article><h1>Article ${i}: aspirin in secondary prevention</h1>${sections}</article>${comments}</main></div>
<footer>${Array.from({ length: 20 }, (_, k) => `<a href="/legal/${k}">Legal ${k}</a>`).join(' ')}</footer></body></html>`;
}

/**
 * The extraction as it was before (for the before/after figure): the same pruning, Readability
 * with its own element lookups (linkedom's querySelectorAll), the article serialised to HTML and
 * parsed again by node-html-markdown.
 */
const previousConverter = new NodeHtmlMarkdown({ keepDataImages: false, maxConsecutiveNewlines: 2 });
const PREVIOUS_PRUNED = ['script', 'style', 'noscript', 'template', 'iframe', 'svg', 'canvas', 'form', 'nav', 'footer', 'aside'];
function previousExtraction(html: string): string {
  const { document } = parseHTML(html);
  for (const tag of PREVIOUS_PRUNED) for (const el of [...document.getElementsByTagName(tag)]) el.remove();
  const article = new Readability(document, { charThreshold: 200 }).parse();
  return previousConverter.translate(article?.content ?? '').trim();
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
}

/** Pages per second of `fn` over the pages, run for at least `ms`. */
function throughput(pages: string[], fn: (html: string, i: number) => unknown, ms = 2000): number {
  let done = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    fn(pages[done % pages.length]!, done);
    done++;
  }
  return done / ((performance.now() - start) / 1000);
}

/** Pages per second through the pool with `inFlight` pages handed to it at a time, run for at least `ms`. */
async function poolThroughput(pages: string[], extract: (html: string) => Promise<unknown>, inFlight: number, ms = 2000): Promise<number> {
  let done = 0;
  let next = 0;
  const start = performance.now();
  const lane = async () => {
    while (performance.now() - start < ms) {
      await extract(pages[next++ % pages.length]!);
      done++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return done / ((performance.now() - start) / 1000);
}

export async function run(): Promise<Figure[]> {
  const pages = Array.from({ length: PAGES }, (_, i) => savedPage(i));
  const url = new URL('https://news.example.com/article');
  // Warm-up: let the JIT see both paths.
  throughput(pages, (html) => extractArticle(html, url), 500);
  throughput(pages, (html) => parseHTML(html), 500);
  throughput(pages, previousExtraction, 500);
  const extracted = throughput(pages, (html) => extractArticle(html, url));
  const parsed = throughput(pages, (html) => parseHTML(html));
  const previous = throughput(pages, previousExtraction);
  // The pool the page reader uses: its threads started and warm, then as many pages at once as it has threads (and twice as many).
  const pool = createExtractPool();
  let pooled = 0;
  try {
    await poolThroughput(pages, (html) => pool.extract(html, url), pool.size * 2, 1500);
    pooled = await poolThroughput(pages, (html) => pool.extract(html, url), pool.size * 2);
  } finally {
    await pool.close();
  }
  const kb = Math.round(pages.reduce((n, p) => n + p.length, 0) / pages.length / 1024);

  const server = http.createServer((req, res) => {
    if (req.url === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
    const i = Number(/\/article\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages[i % pages.length]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const fetch = { isAllowedAddress: (a: string) => a === '127.0.0.1', resolve: (_h: string, _f: number | undefined, cb: (e: NodeJS.ErrnoException | null, a: Array<{ address: string; family: number }>) => void) => cb(null, [{ address: '127.0.0.1', family: 4 }]) };
  const read = createPageReader({ fetch });
  const reads: number[] = [];
  const bare: number[] = [];
  try {
    const base = `http://site.bench:${port}`;
    await read(`${base}/article/0`, AbortSignal.timeout(10_000)); // robots.txt fetched and cached, JIT warm
    for (let i = 0; i < 100; i++) {
      let t = performance.now();
      await safeFetch(`${base}/article/${i}`, { ...fetch });
      bare.push(performance.now() - t);
      t = performance.now();
      await read(`${base}/article/${i}`, AbortSignal.timeout(10_000));
      reads.push(performance.now() - t);
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return [
    {
      name: `extraction (Readability on linkedom + markdown with tables) in one thread, ${PAGES} saved pages of ~${kb} KB, against the ${EXTRACT_BUDGET_PAGES_PER_S} pages/s budget`,
      value: `${extracted.toFixed(1)} pages/s`,
      baseline: `${EXTRACT_BUDGET_PAGES_PER_S} pages/s`,
      ratio: extracted / EXTRACT_BUDGET_PAGES_PER_S,
    },
    {
      name: `extraction in the page reader's pool of ${pool.size} worker threads (${pool.size * 2} pages at a time), against the ${EXTRACT_BUDGET_PAGES_PER_S} pages/s budget`,
      value: `${pooled.toFixed(1)} pages/s`,
      baseline: `${EXTRACT_BUDGET_PAGES_PER_S} pages/s`,
      ratio: pooled / EXTRACT_BUDGET_PAGES_PER_S,
      target: { op: '>=', ratio: 1 },
    },
    {
      name: 'extraction in the pool against the same extraction in one thread',
      value: `${pooled.toFixed(1)} pages/s`,
      baseline: `${extracted.toFixed(1)} pages/s in one thread`,
      ratio: pooled / extracted,
    },
    {
      name: 'extraction against the previous pipeline (querySelectorAll lookups in Readability, the article serialised and re-parsed by node-html-markdown)',
      value: `${extracted.toFixed(1)} pages/s`,
      baseline: `${previous.toFixed(1)} pages/s before`,
      ratio: extracted / previous,
    },
    {
      name: 'extraction against a plain linkedom parse of the same pages',
      value: `${extracted.toFixed(1)} pages/s`,
      baseline: `${parsed.toFixed(1)} pages/s plain parseHTML`,
      ratio: extracted / parsed,
    },
    {
      name: `p95 fetch + extract of 100 pages from a local server (robots.txt cached), against the ${READ_BUDGET_MS} ms budget`,
      value: `${p95(reads).toFixed(1)} ms`,
      baseline: `${READ_BUDGET_MS} ms`,
      ratio: p95(reads) / READ_BUDGET_MS,
      target: { op: '<=', ratio: 1 },
    },
    {
      name: 'p95 fetch + extract against a bare fetch of the same pages through the SSRF-safe client',
      value: `${p95(reads).toFixed(1)} ms`,
      baseline: `${p95(bare).toFixed(1)} ms bare fetch`,
      ratio: p95(reads) / Math.max(0.001, p95(bare)),
    },
  ];
}
