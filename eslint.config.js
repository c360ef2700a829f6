import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'crypto', 'child_process', 'http', 'net', 'url', 'util', 'worker_threads'];

// Import boundaries of DESIGN §2, one pattern group each. Flat config replaces a rule's options
// instead of merging them, so every block below lists the complete set for its files.
const noElectron = (who) => ({ group: ['electron', 'electron/*'], message: `${who} must not import Electron.` });
const noNode = { group: nodeBuiltins, message: 'renderer/ and shared/ must not import Node built-ins.' };
const noMainProcess = { group: ['**/electron/**', 'better-sqlite3'], message: 'renderer/ and shared/ must not reach into the main process.' };
const noRenderer = { group: ['**/renderer', '**/renderer/**'], message: 'shared/ is imported by every side and must not import renderer/.' };
const noMainOrPreload = { group: ['**/main/**', '**/preload/**'], message: 'electron/core and electron/host must not import electron/main or electron/preload.' };
const noHost = (who) => ({
  group: ['**/host', '**/host/**'],
  message: `${who} must not import electron/host (the loopback host sits on top of the handlers; what both need belongs in shared/ or electron/core).`,
});
const noTestHelpers = {
  group: ['**/testing', '**/testing/**'],
  message: 'electron/testing/ holds test-only helpers: production code must not import it (tests, bench/ and e2e/ may).',
};

const TESTS = ['**/*.test.ts', '**/*.test.tsx'];

const INERT_TEXT = [
  {
    selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
    message: 'dangerouslySetInnerHTML is forbidden: evidence is rendered as inert text (DESIGN §3.1); use a text node or InertText.',
  },
  {
    selector: "Property[key.name='dangerouslySetInnerHTML']",
    message: 'dangerouslySetInnerHTML is forbidden, in props objects too: evidence is rendered as inert text (DESIGN §3.1).',
  },
];
const NOT_PRODUCTION = [...TESTS, 'electron/testing/**', 'bench/**', 'e2e/**'];

/** The boundary of one area: `patterns` hold in all of it, `productionOnly` (and the test-helper ban) outside its tests. */
function boundary(files, patterns, productionOnly = []) {
  return [
    { files, rules: { 'no-restricted-imports': ['error', { patterns }] } },
    { files, ignores: TESTS, rules: { 'no-restricted-imports': ['error', { patterns: [...patterns, ...productionOnly, noTestHelpers] }] } },
  ];
}

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.stryker-tmp/**', 'reports/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // DESIGN §3.1: evidence is attacker-controlled text and is rendered as inert text, never as HTML.
    files: ['**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': ['error', ...INERT_TEXT],
    },
  },
  {
    // Issue 12.1: a write transaction takes the write lock up front, through the one helper.
    files: ['electron/**/*.ts'],
    ignores: [...NOT_PRODUCTION, 'electron/core/store/caseFile.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...INERT_TEXT,
        {
          selector: "CallExpression[callee.property.name='transaction']",
          message: 'use writeTransaction(db, …) from store/caseFile: it takes the write lock before reading (BEGIN IMMEDIATE), so another writer makes it wait instead of fail.',
        },
      ],
    },
  },
  {
    // Production code everywhere else (preload, scripts, config files) keeps test helpers out too.
    files: ['**/*.{ts,tsx}'],
    ignores: NOT_PRODUCTION,
    rules: { 'no-restricted-imports': ['error', { patterns: [noTestHelpers] }] },
  },
  // The process boundary (DESIGN §2): renderer and shared run without Node or Electron.
  ...boundary(['renderer/**/*.{ts,tsx}'], [noElectron('renderer/ and shared/'), noNode, noMainProcess]),
  ...boundary(['shared/**/*.ts'], [noElectron('renderer/ and shared/'), noNode, noMainProcess, noRenderer]),
  // electron/core is pure Node: everything Electron-specific lives in electron/main and preload.
  ...boundary(['electron/core/**/*.ts'], [noElectron('electron/core and electron/host'), noMainOrPreload, noHost('electron/core')]),
  ...boundary(['electron/host/**/*.ts'], [noElectron('electron/core and electron/host'), noMainOrPreload]),
  // electron/main is Electron glue over core; it shares nothing with the loopback host but shared/ and core.
  ...boundary(['electron/main/**/*.ts'], [noHost('electron/main')]),
);
