import tseslint from 'typescript-eslint';

const layer = (files, forbidden, message, paths = []) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: forbidden.map((group) => ({ group: [group].flat(), message })), paths }],
  },
});

/** The import patterns (one group each) of folders a layer must not reach: any module inside, and the folder's index file. */
const below = (...folders) => folders.map((f) => [`**/${f}`, `**/${f}/**`]);

// The browser code is typed with @types/react (React 19) but ships on preact/compat (README, Layout),
// which lacks these React 19-only APIs.
const preactMissing = 'React 19-only API: the site and the elements run on preact/compat (see README, Layout).';
const react19Only = [
  { name: 'react', importNames: ['use', 'useActionState', 'useOptimistic', 'useEffectEvent', 'Activity'], message: preactMissing },
  { name: 'react-dom', importNames: ['useFormStatus', 'requestFormReset', 'preload', 'preinit', 'preconnect', 'prefetchDNS'], message: preactMissing },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.artifacts/**', 'data/**', '.tmp/**', '.cache/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  { files: ['scripts/**', 'bench/**', 'src/server/cli/**', 'tests/**', '.ci/**'], rules: { 'no-console': 'off' } },
  // Browser tests render on preact/compat: act comes from preact/test-utils.
  { files: ['tests/**'], rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'react', importNames: ['act'], message: "The browser code runs on preact/compat: import { act } from 'preact/test-utils'." }, ...react19Only] }] } },
  // STYLE: the contract imports only zod; core is framework-free; nothing below imports what builds on it.
  // Each folder is fenced both ways in: `**/core/**` (a module inside) and `**/core` (its index file).
  layer(['src/contract/**'], ['react', 'react-*', ['preact', 'preact/*'], ...below('core', 'widgets', 'host', 'server')], 'src/contract depends on zod only.'),
  layer(
    ['src/core/**'],
    [['react', 'react/*'], ['react-dom', 'react-dom/*'], ['preact', 'preact/*'], ['@preact/signals', '@preact/signals/*'], ...below('widgets', 'host', 'server')],
    'src/core is framework-free (of Preact only @preact/signals-core) and must not import widgets, host or server.',
  ),
  layer(['src/widgets/**'], below('host', 'server'), 'widgets must not import the host or the server.', react19Only),
  layer(['src/host/**'], below('server'), 'the site must not import the server.', react19Only),
  layer(['src/server/**'], [...below('core', 'widgets', 'host'), ['react', 'react/*'], ['react-dom', 'react-dom/*'], ['preact', 'preact/*']], 'the server shares only src/contract with the browser.'),
);
