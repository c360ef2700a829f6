import { afterAll, afterEach, beforeAll, inject } from 'vitest';

/**
 * Setup file of the mutation suite (vitest.mutation.config.ts). Stryker's dry run records which
 * test covers which mutant by the test running at the time; code that runs in a `beforeAll` hook
 * (most suites open their case there) runs while no test is current, so every mutant it reaches
 * becomes "static" and is then tested against the whole suite: most of the store, hours per run.
 *
 * Here, between tests, the "current test" is the next test the file will run: the one that, run
 * alone, makes vitest run the same hooks first. A mutant reached only in a hook is then tested by
 * that test, which runs the hook with the mutant active; one reached at module load stays static.
 * Outside Stryker's dry run this file does nothing.
 */

interface Named {
  name: string;
  mode?: string;
  type?: string;
  suite?: Named;
  file?: { filepath?: string };
  tasks?: Named[];
}

const DRY_RUN = (inject as (key: string) => unknown)('mode') === 'dry-run';
const NAMESPACE = ((inject as (key: string) => unknown)('globalNamespace') as string | undefined) ?? '__stryker__';

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

if (DRY_RUN) {
  const ns = ((globalThis as Record<string, unknown>)[NAMESPACE] ??= {}) as Record<string, unknown>;
  let current: string | undefined;
  let next: string | undefined;
  let order: string[] = [];
  Object.defineProperty(ns, 'currentTestId', {
    configurable: true,
    get: () => current ?? next,
    set: (id: string | undefined) => {
      current = id;
    },
  });
  // vitest 4.1 passes the suite second, after a fixture object that must be destructured.
  beforeAll(({}, file) => {
    order = testsInOrder(file as unknown as Named).map(strykerTestId);
    next = order[0];
  });
  afterEach(({ task }) => {
    next = order[order.indexOf(strykerTestId(task as unknown as Named)) + 1];
  });
  afterAll(() => {
    next = undefined;
  });
}
