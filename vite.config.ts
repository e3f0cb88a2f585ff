import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { pdfjsAssets } from './scripts/vite-pdfjs-assets';

/**
 * One build for the site and the embed loader. The loader keeps a stable name
 * (/widgets/csai.js) so host pages can reference it; everything else is content-hashed.
 */
export default defineConfig({
  plugins: [react(), pdfjsAssets()],
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
    sourcemap: true,
    rolldownOptions: {
      input: { index: 'index.html', csai: 'src/widgets/loader.ts', ketcher: 'src/widgets/chem-editor/ketcher.html' },
      output: {
        minify: true,
        entryFileNames: (chunk) => (chunk.name === 'csai' ? 'widgets/csai.js' : 'assets/[name]-[hash].js'),
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://127.0.0.1:${process.env.PORT ?? 8080}`, changeOrigin: false } },
  },
});
