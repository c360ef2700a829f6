// Mutation testing of the safety core (issue 13): `npm run test:mutation`. Incremental, so a
// re-run after a small change only tests the mutants it touches; the HTML report goes to
// reports/mutation/ (ignored by git). Narrow a run with `-- --mutate <file>`.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.node.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  mutate: [
    'shared/domain/**/*.ts',
    'electron/core/audit/**/*.ts',
    'electron/core/services/{decisions,review,remediation,remediationRows,acl,fence,evidenceTransitions,claims,claimStatusInput,projection,quorum,gate,gateChecks}.ts',
    'electron/core/worker/**/*.ts',
    'electron/core/store/**/*.ts',
    'electron/host/server.ts',
    '!**/*.test.ts',
    '!**/*.corpus.ts',
    '!**/*.benign.ts',
    '!electron/core/store/migrations/**',
    '!electron/core/worker/cli.ts',
  ],
  ignorePatterns: ['out', 'test-results', 'playwright-report', 'reports', '.native', 'e2e'],
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  plugins: ['@stryker-mutator/*', './scripts/strykerLiveReporter.mjs'],
  reporters: ['clear-text', 'progress', 'html', 'json', 'live'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  concurrency: 2,
  timeoutMS: 60_000,
  cleanTempDir: 'always',
};
