import tseslint from 'typescript-eslint';

const layer = (files, forbidden, message, paths = []) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: forbidden.map((group) => ({ group: [group].flat(), message })), paths }],
  },
});

/** The import patterns (one group each) of folders a layer must not reach: any module inside, and the folder's index file. */
const below = (...folders) => folders.map((f) => [`**/${f}`, `**/${f}/**`]);

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
  // Browser tests take act from tests/react-act.ts (React's act, in a test environment only while it runs).
  { files: ['tests/**'], ignores: ['tests/react-act.ts'], rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'react', importNames: ['act'], message: "import { act } from 'tests/react-act' (IS_REACT_ACT_ENVIRONMENT only while it runs)." }] }] } },
  // STYLE: the contract imports only zod; core is framework-free; nothing below imports what builds on it.
  // Each folder is fenced both ways in: `**/core/**` (a module inside) and `**/core` (its index file).
  layer(['src/contract/**'], ['react', 'react-*', ['preact', 'preact/*'], ...below('core', 'widgets', 'host', 'server')], 'src/contract depends on zod only.'),
  layer(
    ['src/core/**'],
    [['react', 'react/*'], ['react-dom', 'react-dom/*'], ['preact', 'preact/*'], ['@preact/signals-react', '@preact/signals-react/*'], ...below('widgets', 'host', 'server')],
    'src/core is framework-free (signals from @preact/signals-core only) and must not import widgets, host or server.',
  ),
  layer(['src/widgets/**'], below('host', 'server'), 'widgets must not import the host or the server.'),
  layer(['src/host/**'], below('server'), 'the site must not import the server.'),
  layer(['src/server/**'], [...below('core', 'widgets', 'host'), ['react', 'react/*'], ['react-dom', 'react-dom/*'], ['preact', 'preact/*']], 'the server shares only src/contract with the browser.'),
);
