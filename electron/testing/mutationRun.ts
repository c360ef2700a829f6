/**
 * True inside a Stryker run (vitest.mutation.config.ts sets ERWB_MUTATION_RUN). A test that starts
 * the CLI or the host as another process is skipped there: the child runs the code on disk, never
 * the mutant active in the test runner, so it could only slow the run. The rest of its file runs.
 */
export const IN_MUTATION_RUN = process.env.ERWB_MUTATION_RUN === '1';
