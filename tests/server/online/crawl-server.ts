import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { makePdf } from '../knowledge-helpers';
import type { Resolver } from '../../../src/server/net/safe-fetch';

/** A saved article page with a table, a navigation bar and a footer (what Readability must see through). */
export function articleHtml(title: string, extra = ''): string {
  const para = (n: number) =>
    `<p>Paragraph ${n}: acetylsalicylic acid irreversibly inhibits cyclooxygenase, reducing prostaglandin and thromboxane synthesis. ` +
    `Low doses are used for the secondary prevention of cardiovascular events, higher doses for pain and fever.</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} - Pharma Wiki</title>
<meta property="og:site_name" content="Pharma Wiki"></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a> <a href="/contact">Contact</a></nav>
<main><article><h1>${title}</h1>${para(1)}${para(2)}
<table><thead><tr><th>Property</th><th>Value</th></tr></thead><tbody><tr><td>Molar mass</td><td>180.16 g/mol</td></tr><tr><td>Melting point</td><td>135 °C</td></tr></tbody></table>
${para(3)}<p>See <a href="/wiki/Salicylic_acid">salicylic acid</a>.</p>${extra}</article></main>
<footer>© Pharma Wiki · Privacy · Terms</footer></body></html>`;
}

export const samplePdf = makePdf([
  ['Ibuprofen pharmacokinetics', 'Ibuprofen is absorbed rapidly after oral dosing, with peak plasma levels after one to two hours.'],
  ['Second page', 'Its half-life is about two hours and it is cleared by hepatic metabolism.'],
]);

/**
 * A small web site on 127.0.0.1 with the pages the crawl tests need: an article, a GBK page, a PDF,
 * a 50 MB page, a page that never ends, a redirect loop, a redirect to a private address, robots.txt.
 */
export async function startSite() {
  let robotsHits = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    switch (url.pathname) {
      case '/robots.txt':
        robotsHits++;
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('User-agent: *\nDisallow: /private/\nAllow: /private/open\n\nUser-agent: OtherBot\nDisallow: /\n');
      case '/article':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(articleHtml('Aspirin'));
      case '/private/page':
      case '/private/open':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end(articleHtml('Private page'));
      case '/gbk': {
        const text = '<html><head><meta charset="gbk"><title>阿司匹林</title></head><body><article><h1>阿司匹林</h1><p>' + '阿司匹林是一种解热镇痛药，也用于预防心血管疾病。'.repeat(12) + '</p></article></body></html>';
        res.writeHead(200, { 'content-type': 'text/html' });
        // Node's TextDecoder reads GBK but has no encoder: the page is written with a small table of its characters.
        return res.end(encodeGbk(text));
      }
      case '/paper.pdf':
        res.writeHead(200, { 'content-type': 'application/pdf' });
        return res.end(samplePdf);
      case '/download':
        // A PDF served as a generic download: found by its %PDF magic.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end(samplePdf);
      case '/huge': {
        // 50 MB, announced honestly.
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(50 * 1024 * 1024) });
        const chunk = Buffer.alloc(1024 * 1024, 'a');
        let sent = 0;
        const pump = () => {
          while (sent < 50) {
            sent++;
            if (!res.write(chunk)) return res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => (sent = 50));
        return pump();
      }
      case '/huge-chunked': {
        // 50 MB without a length: the cap must hold while streaming.
        res.writeHead(200, { 'content-type': 'text/html' });
        const chunk = Buffer.alloc(1024 * 1024, 'b');
        let sent = 0;
        let stopped = false;
        res.on('close', () => (stopped = true));
        const pump = () => {
          while (!stopped && sent < 50) {
            sent++;
            if (!res.write(chunk)) return res.once('drain', pump);
          }
          if (!stopped) res.end();
        };
        return pump();
      }
      case '/drip': {
        // Never ends: a byte every 100 ms.
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<html><body>');
        const timer = setInterval(() => res.write('.'), 100);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case '/loop':
        return res.writeHead(302, { location: '/loop2' }).end();
      case '/loop2':
        return res.writeHead(302, { location: '/loop' }).end();
      case '/to-metadata':
        return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      case '/to-article':
        return res.writeHead(301, { location: '/article' }).end();
      case '/image.png':
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      case '/empty':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<html><body></body></html>');
      default:
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    /** The site under a made-up host name that the test resolver sends to 127.0.0.1. */
    base: `http://site.test:${port}`,
    robotsHits: () => robotsHits,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** A DNS stand-in: `*.test` names resolve to 127.0.0.1, as a hosts entry would. */
export const testResolver: Resolver = (hostname, _family, callback) => {
  if (hostname.endsWith('.test')) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
};

/** Tests only: the loopback address counts as public, so the local site can be crawled. */
export const loopbackAllowed = (address: string) => address === '127.0.0.1';

/** GBK bytes of a text made of ASCII and the characters the GBK page uses. */
function encodeGbk(text: string): Buffer {
  const decoder = new TextDecoder('gbk');
  const table = new Map<string, number[]>();
  // Search the two-byte GBK range for the characters needed (a few thousand decodes, once).
  const needed = new Set([...text].filter((c) => c.charCodeAt(0) > 127));
  for (let hi = 0x81; hi <= 0xfe && table.size < needed.size; hi++) {
    for (let lo = 0x40; lo <= 0xfe; lo++) {
      const c = decoder.decode(Uint8Array.from([hi, lo]));
      if (needed.has(c) && !table.has(c)) table.set(c, [hi, lo]);
    }
  }
  const bytes: number[] = [];
  for (const c of text) bytes.push(...(c.charCodeAt(0) < 128 ? [c.charCodeAt(0)] : table.get(c) ?? [0x3f]));
  return Buffer.from(bytes);
}
