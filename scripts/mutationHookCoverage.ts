import { afterAll, afterEach, beforeAll, inject } from 'vitest';

/**
 * Setup file of the mutation suite (vitest.mutation.config.ts). Stryker's dry run records which
 * test covers which mutant by the test running at the time; code that runs in a `beforeAll` hook
 * (most suites open their case there) runs while no test is current, so every mutant it reaches
 * becomes "static" and is then tested against the whole suite: most of the store, hours per run.
 *
 * Here, what runs between two tests is recorded apart, and at the end of the file handed to every
 * test of the outermost suite that starts with the next test: the tests whose hooks those are (the
 * whole file for what runs before its first test). Run alone or together, those tests run the
 * same hooks with the mutant active. Only code run at module load stays static. Outside Stryker's
 * dry run this file does nothing.
 */

interface Named {
  name: string;
  mode?: string;
  type?: string;
  suite?: Named;
  file?: { filepath?: string };
  tasks?: Named[];
}

type Coverage = Record<string, number>;

const DRY_RUN = (inject as (key: string) => unknown)('mode') === 'dry-run';
const NAMESPACE = ((inject as (key: string) => unknown)('globalNamespace') as string | undefined) ?? '__stryker__';
const BETWEEN = 'between-tests-before:';

/** Stryker's own test id (its stryker-setup.js): the file path, '#', the names from the outer suite in. */
function strykerTestId(test: Named): string {
  const names = [test.name];
  for (let suite = test.suite; suite; suite = suite.suite) names.unshift(suite.name);
  return `${test.file?.filepath ?? 'unknown.js'}#${names.join(' ').trim()}`;
}

function testsInOrder(task: Named): Named[] {
  if (task.type === 'test') return task.mode === 'run' ? [task] : [];
  return (task.tasks ?? []).flatMap(testsInOrder);
}

/** The tests whose hooks run just before tests[i]: the outermost suite that starts with it. */
function hookScope(tests: Named[], i: number): Named[] {
  const first = tests[i];
  if (i === 0 || !first) return tests;
  let scope = [first];
  for (let suite = first.suite; suite; suite = suite.suite) {
    const inSuite = testsInOrder(suite);
    if (inSuite[0] !== first) break;
    scope = inSuite;
  }
  return scope;
}

if (DRY_RUN) {
  const ns = ((globalThis as Record<string, unknown>)[NAMESPACE] ??= {}) as Record<string, unknown>;
  let current: string | undefined;
  let tests: Named[] = [];
  let ids: string[] = [];
  let nextIndex = -1;
  Object.defineProperty(ns, 'currentTestId', {
    configurable: true,
    get: () => current ?? (nextIndex >= 0 && nextIndex < ids.length ? `${BETWEEN}${nextIndex}` : undefined),
    set: (id: string | undefined) => {
      current = id;
    },
  });
  beforeAll(({}, file) => {
    tests = testsInOrder(file as unknown as Named);
    ids = tests.map(strykerTestId);
    nextIndex = 0;
  });
  afterEach(({ task }) => {
    nextIndex = ids.indexOf(strykerTestId(task as unknown as Named)) + 1;
  });
  afterAll(() => {
    nextIndex = -1;
    // Stryker's own afterAll hands this same object to the runner once the file is done.
    const perTest = (ns.mutantCoverage as { perTest?: Record<string, Coverage> } | undefined)?.perTest;
    if (!perTest) return;
    ids.forEach((_, i) => {
      const between = perTest[`${BETWEEN}${i}`];
      if (!between) return;
      for (const test of hookScope(tests, i)) {
        const into = (perTest[strykerTestId(test)] ??= {});
        for (const [mutant, hits] of Object.entries(between)) into[mutant] = (into[mutant] ?? 0) + hits;
      }
      delete perTest[`${BETWEEN}${i}`];
    });
  });
}
