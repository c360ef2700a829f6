// The safety core under mutation testing (issue 13), in the parts a run is split into. Each part is
// its own Stryker run with its own incremental file and report (reports/mutation/<part>/), so a
// part that finished keeps its results while another runs, and the score is given per folder.
// Used by stryker.config.mjs (the whole scope) and scripts/mutation.ts (part by part).

export const MUTATION_PARTS = {
  domain: ['shared/domain/**/*.ts'],
  audit: ['electron/core/audit/**/*.ts'],
  services: [
    'electron/core/services/{decisions,review,remediation,remediationRows,fence,evidenceTransitions,claims,claimStatusInput,projection,quorum,gate,gateChecks}.ts',
  ],
  worker: ['electron/core/worker/**/*.ts'],
  host: ['electron/host/server.ts'],
  store: ['electron/core/store/**/*.ts'],
};

/** Never mutated: tests and their corpora, migrations (run once per file, tested as a whole), the worker's CLI. */
export const NOT_MUTATED = [
  '!**/*.test.ts',
  '!**/*.corpus.ts',
  '!**/*.benign.ts',
  '!electron/core/store/migrations/**',
  '!electron/core/worker/cli.ts',
];
