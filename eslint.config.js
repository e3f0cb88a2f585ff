import tseslint from 'typescript-eslint';

const layer = (files, forbidden, message, paths = []) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: forbidden.map((group) => ({ group: [group], message })), paths }],
  },
});

// The browser code is typed with @types/react (React 19) but ships on preact/compat (README, Layout),
// which lacks these React 19-only APIs.
const preactMissing = 'React 19-only API: the site and the elements run on preact/compat (see README, Layout).';
const react19Only = [
  { name: 'react', importNames: ['use', 'useActionState', 'useOptimistic', 'useEffectEvent', 'Activity'], message: preactMissing },
  { name: 'react-dom', importNames: ['useFormStatus', 'requestFormReset', 'preload', 'preinit', 'preconnect', 'prefetchDNS'], message: preactMissing },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.artifacts/**', 'data/**', '.tmp/**'] },
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
  layer(['src/contract/**'], ['react', 'react-*', '**/core/**', '**/widgets/**', '**/host/**', '**/server/**'], 'src/contract depends on zod only.'),
  layer(['src/core/**'], ['react', 'react-dom', 'react-dom/*', '@preact/signals', '@preact/signals/*', '**/widgets/**', '**/host/**', '**/server/**'], 'src/core is framework-free and must not import widgets, host or server.'),
  layer(['src/widgets/**'], ['**/host/**', '**/server/**'], 'widgets must not import the host or the server.', react19Only),
  layer(['src/host/**'], ['**/server/**'], 'the site must not import the server.', react19Only),
  layer(['src/server/**'], ['**/core/**', '**/widgets/**', '**/host/**', 'react', 'react-dom'], 'the server shares only src/contract with the browser.'),
);
