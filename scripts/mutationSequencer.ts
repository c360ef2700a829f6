import { basename, dirname, relative, resolve } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order test files run in for one mutant (vitest.mutation.config.ts). Stryker stops at the
 * first failing test (bail), so a mutant is killed sooner the sooner a test that notices it runs.
 * Vitest's own order runs the longest files first; here the mutated file's own tests go first
 * (`injection.patterns.ts` → `injection.test.ts`), then the other tests of its folder, then the
 * rest, each group quickest first. This matters most for static mutants (code run when a module
 * loads): Stryker gives them no per-test coverage, so it runs every related test file for each.
 *
 * Only the order changes: a mutant that survives has passed every file either way.
 */
export default class MutationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const related = this.ctx.config.related ?? [];
    // The dry run names every mutated file: no one file to put first.
    if (related.length !== 1) return super.sort(files);
    const mutated = resolve(this.ctx.config.root, related[0]!);
    const stem = basename(mutated).split('.')[0];
    const rank = (spec: TestSpecification): number => {
      if (dirname(spec.moduleId) !== dirname(mutated)) return 2;
      return basename(spec.moduleId).split('.')[0] === stem ? 0 : 1;
    };
    const duration = (spec: TestSpecification): number =>
      this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`)?.duration ?? Number.MAX_SAFE_INTEGER;
    return [...files].sort((a, b) => rank(a) - rank(b) || duration(a) - duration(b));
  }
}
