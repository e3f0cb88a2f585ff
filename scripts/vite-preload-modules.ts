// Vite plugin: adds <link rel="modulepreload"> to the site's index.html for modules it imports
// dynamically at start (home's question box, src/host/start.ts), so the browser downloads them
// with the entry's own files instead of once the entry has been evaluated.
import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';

/** `modules`: source paths (relative to the project root) whose chunks, with their static imports, are preloaded. */
export function preloadModules(modules: string[]): Plugin {
  const wanted = new Set(modules.map((m) => path.resolve(m)));
  return {
    name: 'csai-preload-modules',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        // Only the site's page (not the chemical editor's, built after it with its own modules).
        if (!bundle || ctx.path !== '/index.html') return html;
        const chunks = Object.values(bundle).filter((o): o is Rolldown.OutputChunk => o.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const files: string[] = [];
        const add = (file: string) => {
          if (files.includes(file)) return;
          files.push(file);
          for (const dep of byFile.get(file)?.imports ?? []) add(dep);
        };
        for (const module of wanted) {
          const chunk = chunks.find((c) => c.moduleIds.includes(module));
          if (!chunk) throw new Error(`preloadModules: no chunk holds ${module}`);
          add(chunk.fileName);
        }
        const links = files
          .filter((f) => !html.includes(`/${f}"`))
          .map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`)
          .join('\n    ');
        return html.replace('</head>', `  ${links}\n  </head>`);
      },
    },
  };
}
