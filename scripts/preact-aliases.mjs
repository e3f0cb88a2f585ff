// React → Preact (preact/compat) for the browser code we ship, shared by the Vite build, the
// vitest "unit" project and the @web/test-runner bundler. Sources keep importing 'react' (typed
// by @types/react); only bundles swap the implementation. Ketcher's iframe keeps real React
// (vite.config.ts builds it as its own environment without this mapping).

/** Bare specifier → its preact/compat equivalent. */
export const preactAliases = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react-dom/test-utils': 'preact/test-utils',
  'react/jsx-runtime': 'preact/compat/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/compat/jsx-dev-runtime',
};

/** The same mapping as exact-match alias entries (Vite/vitest `resolve.alias`, esbuild `alias`). */
export const preactAliasEntries = Object.entries(preactAliases).map(([find, replacement]) => ({
  find: new RegExp(`^${find.replace(/[/-]/g, (c) => `\\${c}`)}$`),
  replacement,
}));
