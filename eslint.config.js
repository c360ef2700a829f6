import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'crypto', 'child_process', 'http', 'net', 'url', 'util', 'worker_threads'];

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // The process boundary (DESIGN §2): renderer and shared run without Node or Electron.
    files: ['renderer/**/*.{ts,tsx}', 'shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['electron', 'electron/*'], message: 'renderer/ and shared/ must not import Electron.' },
            { group: nodeBuiltins, message: 'renderer/ and shared/ must not import Node built-ins.' },
            { group: ['**/electron/**', 'better-sqlite3'], message: 'renderer/ and shared/ must not reach into the main process.' },
          ],
        },
      ],
    },
  },
  {
    // electron/core is pure Node: everything Electron-specific lives in electron/main and preload.
    files: ['electron/core/**/*.ts', 'electron/host/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['electron', 'electron/*', '**/main/**', '**/preload/**'], message: 'electron/core and electron/host must not import Electron.' }] },
      ],
    },
  },
);
