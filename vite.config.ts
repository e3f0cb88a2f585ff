import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import { pdfjsAssets } from './scripts/vite-pdfjs-assets';
import { precompress } from './scripts/vite-precompress';
import { preloadModules } from './scripts/vite-preload-modules';
import { widgetCss } from './scripts/vite-widget-css';
import { firstPaint } from './scripts/vite-first-paint';

const only = (environment: string, plugin: Plugin): Plugin => ({ ...plugin, applyToEnvironment: (e) => e.name === environment });

const output: Rolldown.OutputOptions = {
  minify: true,
  entryFileNames: (chunk) => (chunk.name === 'csai' ? 'widgets/csai.js' : 'assets/[name]-[hash].js'),
  chunkFileNames: 'assets/[name]-[hash].js',
  assetFileNames: 'assets/[name]-[hash][extname]',
};

/**
 * Two builds into dist/web: `client` (the site and the embed loader) and then `ketcher` (the
 * chemical editor's iframe page), both on React 19. The loader keeps a stable name
 * (/widgets/csai.js) so host pages can reference it; everything else is content-hashed.
 */
export default defineConfig(() => ({
  plugins: [
    react(),
    only('client', pdfjsAssets()),
    // Home's question box (see src/host/start.ts) downloads with the site's first files.
    only('client', preloadModules(['src/widgets/loader.ts', 'src/widgets/ask/Ask.tsx'])),
    // Home's server-rendered first paint (src/host/first-paint.tsx), rendered from the same components.
    only('client', firstPaint(fileURLToPath(new URL('.', import.meta.url)))),
    only('ketcher', precompress()),
  ],
  base: '/',
  experimental: {
    // The loader runs on foreign pages: URLs inside JavaScript (lazy chunks, preloads) resolve
    // against the importing script (import.meta.url), never the page. The site's index.html
    // keeps absolute /assets/ URLs so deep routes (/channels/…) still find them.
    renderBuiltUrl: (_file, { hostType }) => (hostType === 'js' ? { relative: true } : undefined),
  },
  define: {
    'process.env.NODE_ENV': JSON.stringify(process.env.NODE_ENV ?? 'production'),
    // The elements' class rules, generated here rather than by twind in the browser (styles.ts).
    __CSAI_WIDGET_CSS__: JSON.stringify(widgetCss(fileURLToPath(new URL('.', import.meta.url)))),
  },
  build: {
    outDir: 'dist/web',
    target: 'es2022',
    // Every supported browser has modulepreload; no polyfill chunk in the first load.
    modulePreload: { polyfill: false },
    sourcemap: true,
  },
  builder: {
    // In order: `client` empties dist/web, `ketcher` adds its page and then compresses everything.
    async buildApp(builder) {
      await builder.build(builder.environments.client!);
      await builder.build(builder.environments.ketcher!);
    },
  },
  environments: {
    client: {
      build: {
        emptyOutDir: true,
        rolldownOptions: {
          input: { index: 'index.html', csai: 'src/widgets/loader.ts' },
          output: {
            ...output,
            // The home page's first load in few files (HTTP/1.1 fetches six at a time per host): the
            // libraries every page and element start with (React and ReactDOM among them, so they
            // load once per page however many elements it holds), and the shared browser core.
            codeSplitting: {
              groups: [
                // The site's first module, evaluated before React: it starts home's question box loading (and
                // lets the box's server-rendered copy send).
                { name: 'start', test: /[\\/]src[\\/](host[\\/](start|shell[\\/]first-paint)|core[\\/]question-keys)\.ts$/, priority: 1 },
                // Vite's preload helper stays its own file: the embed loader imports only it at start.
                { name: 'preload-helper', test: /preload-helper/, priority: 2 },
                {
                  name: 'vendor',
                  test: /[\\/]node_modules[\\/](react|react-dom|scheduler|i18next|react-i18next|use-sync-external-store|wouter|regexparam|mitt|@preact[\\/]signals-core|@preact[\\/]signals-react)[\\/]/,
                },
                // The element shells the embed loader defines at start, in one file with it: each
                // chunk costs its own import list and gzip framing (budget 5 KB).
                { name: 'elements', test: /[\\/]src[\\/]widgets[\\/](shared[\\/](element|events|define-once)|ask[\\/]ask-request|[\w-]+[\\/][\w-]+\.element)\.ts$/ },
                { name: 'core', test: /[\\/]src[\\/]core[\\/](api|api-error|general-api|page|status-store|toast|i18n|validation)\.ts$/ },
                // The site's modules its lazy pages share with the home page (strings, icons): one
                // file rather than one each.
                { name: 'shell', test: /[\\/]src[\\/]host[\\/](i18n|locales|shell[\\/]Icons)\.tsx?$/ },
              ],
            },
          },
        },
      },
    },
    ketcher: {
      consumer: 'client',
      build: {
        emptyOutDir: false,
        rolldownOptions: { input: { ketcher: 'src/widgets/chem-editor/ketcher.html' }, output },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://127.0.0.1:${process.env.PORT ?? 8080}`, changeOrigin: false } },
  },
}));
