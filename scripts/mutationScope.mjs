// The safety core under mutation testing (issue 13), in the parts a run is split into. Each part is
// its own Stryker run with its own incremental file and report (reports/mutation/<part>/), so a
// part that finished keeps its results while another runs, and the score is given per folder.
// Stryker writes its results only when a run ends, so a part is kept to what two cores test in
// well under an hour: a run cut off keeps every part finished before it.
// Used by stryker.config.mjs (the whole scope) and scripts/mutation.ts (part by part).

export const MUTATION_PARTS = {
  'domain-injection': ['shared/domain/injection*.ts', 'shared/domain/inertText.ts'],
  // Copy detection and independence, two parts: measured against their own tests (PART_TESTS),
  // copies took 27 minutes and independence 9.
  'domain-copies': ['shared/domain/{copies,copyShingles}.ts'],
  'domain-independence': ['shared/domain/independence.ts'],
  'domain-status': [
    'shared/domain/{canonical,claimStatus,enums,fingerprint,fourEyes,lifecycle,quorum,review,schemas,supportProjection,usable,validationChecklist}.ts',
  ],
  'audit-verify': ['electron/core/audit/{verify,chainWalk,verifyFile,verifyMarks,verifyOptions,stateCheckList}.ts'],
  'audit-checks': ['electron/core/audit/{stateChecks,coreStateChecks}.ts'],
  'audit-keys': ['electron/core/audit/{keys,sealedKey,receipts,receiptViews,redact,caseLock}.ts'],
  'services-decide': ['electron/core/services/{decisions,review,quorum,gate,gateChecks}.ts'],
  'services-evidence': ['electron/core/services/{remediation,remediationRows,fence,evidenceTransitions,claims,claimStatusInput,projection}.ts'],
  worker: ['electron/core/worker/**/*.ts'],
  host: ['electron/host/server.ts'],
  'store-file': ['electron/core/store/{caseFile,digest,caseMetaRows,acl}.ts'],
  // The row modules are read by nearly every test through a whole case: two parts, each measured
  // against the tests of the core that writes and reads rows (PART_TESTS).
  'store-rows': ['electron/core/store/{actor,binding,claim,copy,evidence}Rows.ts'],
  'store-rows-fences': ['electron/core/store/{fence,replica,review}Rows.ts'],
};

/**
 * The tests a part is measured against, where not the whole unit suite. Screening and copy
 * detection run on every evidence any test case takes in, and their patterns and constants are
 * static (built when the module loads), which Stryker cannot trace to the tests that read them:
 * each such mutant would run the whole suite (40 s a mutant measured, eight hours for injection's
 * 790). Their specification is the domain's own unit tests and the tests written for them (real-text
 * screening rates, labelled copy pairs, the independence channels). A mutant only the rest of the
 * suite would notice is then counted as surviving: the score can only come out lower, never higher.
 */
const DOMAIN_TESTS = 'shared/domain/**/*.test.ts';
// The rows are written and read by the services, verified by the audit and drained by the worker;
// those tests state what a row must hold. Interchange (a mapping onto the services, 104 s of the
// suite) and the dispatch fuzzer (20 s) reach the rows only through them.
const ROW_TESTS = ['electron/core/{store,services,audit,worker}/**/*.test.ts', 'electron/core/{demo,dispatch}.test.ts'];
export const PART_TESTS = {
  'domain-injection': [DOMAIN_TESTS, 'electron/testing/screeningRates.test.ts'],
  'domain-copies': [DOMAIN_TESTS, 'electron/testing/copyPairs.test.ts', 'electron/core/services/independence.channels.test.ts'],
  'domain-independence': [DOMAIN_TESTS, 'electron/core/services/independence.channels.test.ts', 'electron/core/services/claimStatus.property.test.ts'],
  // The state checks are what verify replays; the audit's tests tamper with every table they cover.
  'audit-checks': ['electron/core/audit/**/*.test.ts'],
  'store-rows': ROW_TESTS,
  // replicaRows holds a team replica's sync state: the team tests (against a real PostgreSQL) too.
  'store-rows-fences': [...ROW_TESTS, 'electron/core/team/**/*.test.ts'],
};

/** Never mutated: tests and their corpora, migrations (run once per file, tested as a whole), the worker's CLI. */
export const NOT_MUTATED = [
  '!**/*.test.ts',
  '!**/*.corpus.ts',
  '!**/*.benign.ts',
  '!electron/core/store/migrations/**',
  '!electron/core/worker/cli.ts',
];
