import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config';
import MutationSequencer from './scripts/mutationSequencer';

/**
 * The suite Stryker runs for each mutant (stryker.config.mjs): the unit suite without the files
 * that are about other processes. A child process runs the code as it is on disk, never the mutant
 * active in the test runner, so those files can only slow a mutation run down (and the one that
 * runs as an unprivileged user cannot enter Stryker's private sandbox). A file with only one such
 * test stays in, and that test skips itself (electron/testing/mutationRun.ts). Nor the STIX and PROV
 * corpus tests: they test the interchange mapping (outside the scope) over the OASIS and W3C
 * documents, reach the store only through it, and under instrumentation one of them alone takes
 * over a minute, for every store mutant it covers.
 */
const config = mergeConfig(
  base,
  defineConfig({
    test: {
      setupFiles: ['scripts/mutationHookCoverage.ts'],
      sequence: { sequencer: MutationSequencer },
      // Tests that start another process skip themselves in a mutation run (electron/testing/mutationRun.ts).
      env: { ERWB_MUTATION_RUN: '1' },
      exclude: [
        ...configDefaults.exclude,
        'electron/core/interchange/bundleCli.test.ts',
        'electron/core/worker/crash.test.ts',
        'electron/host/contention.test.ts',
        'electron/host/identityCli.test.ts',
        'electron/core/interchange/stix/stixRoundTrip.test.ts',
        'electron/core/interchange/stix/stixScale.test.ts',
        'electron/core/interchange/provJson.test.ts',
      ],
    },
  }),
);

// A part measured against its own tests (scripts/mutationScope.mjs PART_TESTS, set by
// scripts/mutation.ts): these replace the suite's include list (mergeConfig would add to it).
const partTests = process.env.ERWB_MUTATION_TESTS;
if (partTests) config.test = { ...config.test, include: JSON.parse(partTests) as string[] };

export default config;
