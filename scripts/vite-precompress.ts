// Vite plugin: writes a brotli (.br) and a gzip (.gz) copy next to every text file of the build
// (scripts, styles, HTML, SVG, JSON, pdf.js's .mjs; not source maps) above 1 KB, once, at build
// time. The server sends them to browsers that accept them (@fastify/static `preCompressed`), so
// no request pays for compression.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|wasm)$/;
const MIN_BYTES = 1024;
// Brotli's best quality takes seconds per megabyte; large files (editor, pdf.js worker) get a fast one.
const brotliQuality = (bytes: number) => (bytes > 1024 * 1024 ? 5 : 11);

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'csai-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const source = fs.readFileSync(file);
        if (source.length < MIN_BYTES) continue;
        fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(source, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality(source.length), [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length } }));
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(source, { level: 9 }));
      }
    },
  };
}
