import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { pdfjsAssets } from './scripts/vite-pdfjs-assets';
import { precompress } from './scripts/vite-precompress';

/**
 * One build for the site and the embed loader. The loader keeps a stable name
 * (/widgets/csai.js) so host pages can reference it; everything else is content-hashed.
 */
export default defineConfig({
  plugins: [react(), pdfjsAssets(), precompress()],
  base: '/',
  experimental: {
    // The loader runs on foreign pages: URLs inside JavaScript (lazy chunks, preloads) resolve
    // against the importing script (import.meta.url), never the page. The site's index.html
    // keeps absolute /assets/ URLs so deep routes (/channels/…) still find them.
    renderBuiltUrl: (_file, { hostType }) => (hostType === 'js' ? { relative: true } : undefined),
  },
  define: { 'process.env.NODE_ENV': JSON.stringify(process.env.NODE_ENV ?? 'production') },
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    target: 'es2022',
    // Every supported browser has modulepreload; no polyfill chunk in the first load.
    modulePreload: { polyfill: false },
    sourcemap: true,
    rolldownOptions: {
      input: { index: 'index.html', csai: 'src/widgets/loader.ts', ketcher: 'src/widgets/chem-editor/ketcher.html' },
      output: {
        minify: true,
        entryFileNames: (chunk) => (chunk.name === 'csai' ? 'widgets/csai.js' : 'assets/[name]-[hash].js'),
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
        // The home page's first load in few files (HTTP/1.1 fetches six at a time per host): the
        // libraries every page and element start with, and the shared browser core.
        codeSplitting: {
          groups: [
            // Vite's preload helper stays its own file: the embed loader imports only it at start.
            { name: 'preload-helper', test: /preload-helper/, priority: 2 },
            {
              name: 'vendor',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|i18next|react-i18next|use-sync-external-store|wouter|regexparam|mitt|@preact[\\/]signals-core|@preact[\\/]signals-react|wretch)[\\/]/,
            },
            { name: 'core', test: /[\\/]src[\\/]core[\\/](api|page|status-store|toast|i18n|validation)\.ts$/ },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://127.0.0.1:${process.env.PORT ?? 8080}`, changeOrigin: false } },
  },
});
