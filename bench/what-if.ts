// What-if on a generated case at the size analysts work at (default 10,000 claims, with shared
// evidence, refutations, PROV derivations and approved decisions; built through the channels by
// electron/testing/decidedCase.ts, seeded). Goal (issue 14): one what-if under 200 ms. Baseline in
// the same run: claim:get of the same claims, the read a user makes before asking.
// `BENCH_CLAIMS=2000 npm run bench -- what-if` for a quicker look.
import { performance } from 'node:perf_hooks';
import { buildDecidedCase } from '../electron/testing/decidedCase';
import { createReviewCase } from '../electron/testing/reviewCase';
import { medianMsAsync, report, seededRandom } from './lib';

const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 10_000);

async function main(): Promise<void> {
  const rc = await createReviewCase();
  try {
    const t0 = performance.now();
    const built = await buildDecidedCase(rc, { claims: CLAIMS, seed: 20261202 });
    report('generated case', { claims: built.claims.length, revisions: built.revisions.length, decided: built.decided.length, build_s: (performance.now() - t0) / 1000 });
    rc.as('bob');
    const r = seededRandom(14);
    const anyRevision = () => built.revisions[Math.floor(r() * built.revisions.length)]!;
    const anyClaim = () => built.claims[Math.floor(r() * built.claims.length)]!;
    const timed = async (run: () => Promise<unknown>) => {
      const t = performance.now();
      await run();
      return performance.now() - t;
    };
    const caseFirst = await timed(() => rc.call('whatIf:case', {}));
    const claimListFirst = await timed(() => rc.call('claim:list', {}));
    const claimGet = await medianMsAsync(() => rc.call('claim:get', { claimId: anyClaim() }), 51);
    const revokeOne = await medianMsAsync(() => rc.call('whatIf:revoke', { revisionIds: [anyRevision()] }), 51);
    const revokeTen = await medianMsAsync(() => rc.call('whatIf:revoke', { revisionIds: Array.from({ length: 10 }, anyRevision) }), 21);
    const claimPoints = await medianMsAsync(() => rc.call('whatIf:claim', { claimId: anyClaim() }), 51);
    const casePoints = await medianMsAsync(() => rc.call('whatIf:case', {}), 5);
    const top = await rc.call('whatIf:case', { limit: 1 });
    report('what-if on the generated case (median ms)', {
      'whatIf:revoke_1': revokeOne,
      'whatIf:revoke_10': revokeTen,
      'whatIf:claim': claimPoints,
      'whatIf:case_first': caseFirst,
      'whatIf:case': casePoints,
      'claim:list_first_after': claimListFirst,
      baseline_claim_get: claimGet,
      ratio_revoke_1_vs_claim_get: revokeOne / claimGet,
      single_points: top.total,
      claims_with_points: top.claimsWithPoints,
      top_item_decided_claims: top.items[0]?.decidedClaims ?? 0,
    });
  } finally {
    rc.cleanup();
  }
}

void main();
