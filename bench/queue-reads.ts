/**
 * The queues' reads on a generated case of 10,000 claims and 50,000 evidence revisions (issue 11:
 * "every page read under 50 ms"). The case is built through the import channel (a seeded bundle,
 * electron/testing/generatedBundle.ts); 500 revisions are then quarantined and 200 decisions
 * proposed through their channels. Prints p50 and p95 of each page read a queue makes (evidence:list,
 * claim:page, review:page), and the whole-case reads (claim:list and review:list, which no view
 * makes any more; case:gate), each with its ratio to a
 * baseline measured in the same run: a plain SELECT of 100 rows by primary key.
 *
 *   npx tsx bench/queue-reads.ts [--claims 10000] [--per-claim 5]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeGeneratedBundle } from '../electron/testing/generatedBundle';
import { createTestCase } from '../electron/testing/testCase';
import { percentilesMsAsync, report } from './lib';

const { values } = parseArgs({ options: { claims: { type: 'string', default: '10000' }, 'per-claim': { type: 'string', default: '5' } } });
const CLAIMS = Number(values.claims);
const PER_CLAIM = Number(values['per-claim']);
const RUNS = 21;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'erwb-bench-queues-'));
  const tc = await createTestCase();
  try {
    const t0 = performance.now();
    const imported = await tc.call('bundle:import', { path: writeGeneratedBundle(dir, CLAIMS, 20261202, PER_CLAIM) });
    const quarantined = (await tc.call('evidence:list', { state: 'CANDIDATE', sort: 'observed-desc', limit: 200 })).items.slice(0, 200);
    for (const page of [0, 1, 2]) {
      const ids = page === 0 ? quarantined : (await tc.call('evidence:list', { state: 'CANDIDATE', sort: 'observed-asc', limit: 150 })).items;
      for (const r of ids) await tc.call('evidence:transition', { revisionId: r.revisionId, to: 'QUARANTINED', reason: `bench: held for review (${page})` });
    }
    const claims = (await tc.call('claim:list', {})).slice(0, 200);
    for (const c of claims) {
      const bound = c.bindings[0]!.revisionId;
      const state = (await tc.call('evidence:get', { revisionId: bound })).state;
      if (state === 'CANDIDATE') await tc.call('evidence:transition', { revisionId: bound, to: 'VALIDATED', reason: 'bench: checked' });
      await tc.call('decision:propose', { claimId: c.claimId, verdict: 'SUPPORTED', rationale: 'bench: the bound event shows it' });
    }
    report('generated case (through bundle:import)', {
      claims: imported.created.claims,
      evidence: imported.created.evidence,
      bindings: imported.created.bindings,
      build_s: ((performance.now() - t0) / 1000).toFixed(1),
    });

    const db = tc.session.db();
    const plain = db.prepare('SELECT * FROM evidence_revision ORDER BY revision_id LIMIT 100');
    const baseline = await percentilesMsAsync(() => plain.all(), RUNS);
    const deep = (await tc.call('evidence:list', { sort: 'observed-desc', limit: 200 })).nextCursor!;
    let cursor = deep;
    for (let i = 0; i < 150; i++) cursor = (await tc.call('evidence:list', { sort: 'observed-desc', limit: 200, after: cursor })).nextCursor ?? cursor;
    const claimIds = (await tc.call('claim:list', {})).map((c) => c.claimId);
    const deepClaim = claimIds[Math.floor(claimIds.length * 0.9)]!;
    let reviewCursor: string | null = null;
    for (let i = 0; i < 80; i++) reviewCursor = (await tc.call('review:page', { limit: 100, ...(reviewCursor ? { after: reviewCursor } : {}) })).nextCursor ?? reviewCursor;
    const reads: Record<string, () => Promise<unknown>> = {
      'evidence:list first page + counts': () => tc.call('evidence:list', { limit: 100, counts: true }),
      'evidence:list observed newest first + counts': () => tc.call('evidence:list', { sort: 'observed-desc', limit: 100, counts: true }),
      'evidence:list text filter + counts': () => tc.call('evidence:list', { text: 'HOST-DC02', limit: 100, counts: true }),
      'evidence:list CANDIDATE by kind + counts': () => tc.call('evidence:list', { state: 'CANDIDATE', kind: 'log_record', limit: 100, counts: true }),
      'evidence:list page 150 deep (cursor)': () => tc.call('evidence:list', { sort: 'observed-desc', limit: 100, after: cursor }),
      'evidence:list QUARANTINED + counts': () => tc.call('evidence:list', { state: 'QUARANTINED', limit: 100, counts: true }),
      'claim:page first page + counts': () => tc.call('claim:page', { limit: 100, counts: true }),
      'claim:page MIXED + counts (Disputes)': () => tc.call('claim:page', { status: 'MIXED', limit: 100, counts: true }),
      'claim:page unsettled + counts (Remediations)': () => tc.call('claim:page', { unsettled: true, limit: 100, counts: true }),
      'claim:page text (pickers)': () => tc.call('claim:page', { text: 'HOST-DC02', limit: 20 }),
      'claim:page deep page (cursor)': () => tc.call('claim:page', { limit: 100, after: deepClaim }),
      'review:page first page + counts (Review)': () => tc.call('review:page', { limit: 100, counts: true }),
      'review:page awaiting me + counts': () => tc.call('review:page', { filter: 'mine', limit: 100, counts: true }),
      'review:page 80 pages deep (cursor)': () => tc.call('review:page', { limit: 100, after: reviewCursor! }),
      'review:list (whole case)': () => tc.call('review:list', {}),
      'claim:list (whole case)': () => tc.call('claim:list', {}),
      'case:gate': () => tc.call('case:gate', {}),
      'remediation:list (whole case)': () => tc.call('remediation:list', {}),
      'revocation:status': () => tc.call('revocation:status', {}),
      'metrics:get (whole case, Dashboard)': () => tc.call('metrics:get', {}),
      'whatIf:case (whole case, What-if)': () => tc.call('whatIf:case', { limit: 50 }),
    };
    const figures: Record<string, string> = { baseline_pk_100_rows_p50_ms: baseline.p50.toFixed(2) };
    for (const [name, read] of Object.entries(reads)) {
      const p = await percentilesMsAsync(read, name.includes('whole') || name === 'case:gate' ? 7 : RUNS);
      figures[`${name} p50_ms`] = p.p50.toFixed(1);
      figures[`${name} p95_ms`] = p.p95.toFixed(1);
      figures[`${name} ratio_p50_vs_baseline`] = (p.p50 / baseline.p50).toFixed(1);
      figures[`${name} under_50ms`] = p.p95 < 50 ? 'yes' : 'NO';
    }
    report('queue reads (ms)', figures);
  } finally {
    tc.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
