// Mutation testing of the safety core (issue 13). `npm run test:mutation` (scripts/mutation.ts)
// runs it part by part (scripts/mutationScope.mjs), each part incremental with its own report
// under reports/mutation/<part>/ (ignored by git); `npx stryker run` runs the whole scope at once.
import { MUTATION_PARTS, NOT_MUTATED } from './scripts/mutationScope.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.node.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  mutate: [...Object.values(MUTATION_PARTS).flat(), ...NOT_MUTATED],
  ignorePatterns: ['out', 'test-results', 'playwright-report', 'reports', '.native', 'e2e'],
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  plugins: ['@stryker-mutator/*', './scripts/strykerLiveReporter.mjs'],
  reporters: ['clear-text', 'progress', 'html', 'json', 'live'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  concurrency: 2,
  // Slack on top of 1.5 × the covering tests' own time: a mutant that hangs a server test costs this much.
  timeoutMS: 10_000,
  // The initial run is the whole suite under coverage in one runner: over Stryker's 5 minutes when
  // MUTATION_CONCURRENCY=1 shares the machine with other work (it timed out at 5 on 2026-12-05).
  dryRunTimeoutMinutes: 30,
  cleanTempDir: 'always',
};
