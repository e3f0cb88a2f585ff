// Vite plugin: copies pdf.js's worker and data folders (CJK character maps, colour profiles, standard fonts,
// image-decoder WebAssembly) into the build under one versioned folder, so the viewer loads
// them from its own origin, next to its chunks: dist/web/assets/pdfjs-<version>/.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);

/** The folder name the viewer computes at run time (src/widgets/pdf-viewer/pdfjs.ts). */
export function pdfjsAssetFolder(): string {
  const { version } = require('pdfjs-dist/package.json') as { version: string };
  return `pdfjs-${version}`;
}

export function pdfjsAssets(): Plugin {
  return {
    name: 'csai-pdfjs-assets',
    apply: 'build',
    generateBundle() {
      const pkg = path.dirname(require.resolve('pdfjs-dist/package.json'));
      const out = `assets/${pdfjsAssetFolder()}`;
      const files = ['build/pdf.worker.min.mjs'];
      for (const dir of ['cmaps', 'iccs', 'standard_fonts', 'wasm']) {
        for (const name of fs.readdirSync(path.join(pkg, dir))) files.push(`${dir}/${name}`);
      }
      for (const rel of files) this.emitFile({ type: 'asset', fileName: `${out}/${rel}`, source: fs.readFileSync(path.join(pkg, rel)) });
    },
  };
}
