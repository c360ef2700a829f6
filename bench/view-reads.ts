/**
 * The reads the Graph and Timeline views make (issue 11: every read under 50 ms at 10,000 claims),
 * timed on a kept generated case against the bundled 7-claim demo in the same run, and against a
 * primary-key read of one claim row. Medians of 9 after 3 warm-up calls: what an analyst moving
 * through an open case sees (the first read after opening derives claims: scale-case times that).
 *
 *   BENCH_KEEP=/tmp/case10k npx tsx bench/scale-case.ts   # builds the 10,000-claim case once
 *   npx tsx bench/view-reads.ts /tmp/case10k
 *
 * Without a case directory it reports the demo alone.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureDemoCase } from '../electron/core/demo';
import { dispatch } from '../electron/core/dispatch';
import { handlers } from '../electron/core/handlers';
import { Session } from '../electron/core/session';
import { TEST_PASSPHRASE, testSession } from '../electron/testing/testCase';
import { medianMs, medianMsAsync, report } from './lib';

const ROOT = resolve(import.meta.dirname, '..');

async function measure(label: string, session: Session, actorId: string, passphrase: string): Promise<Record<string, number>> {
  const seat = session.seat('bench');
  seat.unlock(actorId, passphrase);
  const ask = async (channel: string, request: unknown) => {
    const e = await dispatch(handlers, seat, channel, request);
    if (!e.ok) throw new Error(`${channel}: ${e.error.message}`);
    return e.value as Record<string, unknown>;
  };
  const claims = (await ask('claim:list', {})) as unknown as { claimId: string; bindings: { revisionId: string }[] }[];
  const claim = claims[Math.floor(claims.length / 2)]!;
  const revision = claim.bindings[0]?.revisionId ?? claims.find((c) => c.bindings.length > 0)!.bindings[0]!.revisionId;
  const page = (await ask('timeline:list', {})) as { nextCursor: string | null };
  const timed = (channel: string, request: unknown) => medianMsAsync(() => ask(channel, request), 9);
  const one = seat.db().prepare('SELECT * FROM claim WHERE claim_id = ?');
  const figures: Record<string, number> = {
    claims: claims.length,
    'graph:case': await timed('graph:neighbourhood', { focus: { kind: 'case' } }),
    'graph:disputes': await timed('graph:neighbourhood', { focus: { kind: 'disputes' } }),
    'graph:claim_2_hops': await timed('graph:neighbourhood', { focus: { kind: 'claim', id: claim.claimId }, hops: 2 }),
    'graph:revision_3_hops': await timed('graph:neighbourhood', { focus: { kind: 'revision', id: revision }, hops: 3 }),
    'graph:with_unbound': await timed('graph:neighbourhood', { focus: { kind: 'revision', id: revision }, unbound: true }),
    'graph:pivot_source': await timed('graph:neighbourhood', { focus: { kind: 'source', id: revision } }),
    'timeline:first_page': await timed('timeline:list', {}),
    'timeline:next_page': page.nextCursor ? await timed('timeline:list', { after: page.nextCursor }) : 0,
    'timeline:claim': await timed('timeline:list', { claimId: claim.claimId }),
    'timeline:kind': await timed('timeline:list', { kind: 'log_record' }),
    // The lists and the gate every window reads on opening (the gate's first call verifies the chain in full: a warm-up call).
    'claim:list': await timed('claim:list', {}),
    'review:list': await timed('review:list', {}),
    'case:gate': await timed('case:gate', {}),
    baseline_pk_row: medianMs(() => one.get(claim.claimId), 51),
  };
  report(label, figures);
  return figures;
}

async function main(): Promise<void> {
  const demoDir = mkdtempSync(join(tmpdir(), 'erwb-bench-reads-'));
  const demo = new Session({ userDataDir: demoDir, log: () => {} });
  demo.open(await ensureDemoCase(join(ROOT, 'resources', 'demo-case.json'), demoDir));
  const base = await measure('demo case, 7 claims (baseline)', demo, 'lena.k', 'demo-lena-2231');
  demo.close();
  rmSync(demoDir, { recursive: true, force: true });
  const kept = process.argv[2];
  if (!kept) return;
  // A copy: opening migrates the file, and the kept case stays as scale-case wrote it.
  const dir = mkdtempSync(join(tmpdir(), 'erwb-bench-reads-'));
  try {
    cpSync(kept, dir, { recursive: true });
    const big = testSession({ userDataDir: join(dir, 'user') });
    big.open(join(dir, 'test.case.sqlite'));
    const large = await measure(`generated case in ${kept}`, big, 'rev', TEST_PASSPHRASE);
    big.close();
    report('ratios to the demo', Object.fromEntries(Object.keys(large).filter((k) => k.includes(':')).map((k) => [k, large[k]! / base[k]!])));
    report('over 50 ms on the generated case', Object.fromEntries(Object.entries(large).filter(([k, v]) => k.includes(':') && v > 50)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
