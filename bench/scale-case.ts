// A generated case at the size analysts work at (default 10,000 claims), built through the
// channels exactly as users' actions would write it (seeded, so every run builds the same case),
// then timed on the reads the views make. Baseline in the same run: a bare primary-key read of
// one claim row. `BENCH_CLAIMS=2000 npm run bench -- scale-case` for a quicker look;
// `BENCH_KEEP=/tmp/case10k` keeps the case for bench/scale-ui.ts.
import { cpSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createTestCase } from '../electron/testing/testCase';
import { ingestRequest } from '../electron/testing/fixtures/evidence';
import { medianMs, medianMsAsync, report, seededRandom } from './lib';
import { TEST_PASSPHRASE } from '../electron/testing/testCase';

const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 10_000);
/** BENCH_KEEP=<dir>: keep the generated case there (for bench/scale-ui.ts). */
const KEEP = process.env.BENCH_KEEP;


const HOSTS = Array.from({ length: 400 }, (_, i) => `HOST-${String(i).padStart(3, '0')}`);
const TOOLS = ['rclone.exe', 'psexec.exe', 'mimikatz', 'AnyDesk', 'a PowerShell loader', 'a Cobalt Strike beacon', 'ntdsutil', 'a WebDAV client'];
const ACCOUNTS = ['svc-backup', 'adm-jdoe', 'svc-sql', 'helpdesk-07', 'contractor-22', 'svc-scan'];

async function main(): Promise<void> {
  const r = seededRandom(10_000);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const tc = await createTestCase();
  try {
    await tc.call('actor:create', { passphrase: TEST_PASSPHRASE, actorId: 'ana', displayName: 'Ana (analyst)', role: 'analyst', tenants: ['acme'], maxClassification: 'confidential' });
    await tc.call('actor:create', { passphrase: TEST_PASSPHRASE, actorId: 'rev', displayName: 'Rev (reviewer)', role: 'reviewer', tenants: ['acme'], maxClassification: 'restricted' });
    const t0 = performance.now();
    let evidence = 0;
    let copies = 0;
    const texts: string[] = [];
    for (let c = 0; c < CLAIMS; c++) {
      const host = pick(HOSTS);
      const tool = pick(TOOLS);
      const account = pick(ACCOUNTS);
      tc.as('ana');
      const claimId = `cl-${String(c).padStart(5, '0')}`;
      await tc.call('claim:create', {
        claimId, statement: `${account} ran ${tool} on ${host}`, scope: [host], tenant: 'acme', classification: 'internal',
        policy: { minIndependentSources: 1 + Math.floor(r() * 2) },
      });
      const n = 1 + Math.floor(r() * 3);
      for (let e = 0; e < n; e++) {
        // One item in eight repeats an earlier report with a forwarding header: a probable copy.
        const copy = texts.length > 0 && r() < 0.125;
        const content = copy
          ? `Subject: FWD: ${host}\n\n${pick(texts)}`
          : `EDR on ${host} recorded ${tool} started by ${account} at ${String(Math.floor(r() * 24)).padStart(2, '0')}:${String(Math.floor(r() * 60)).padStart(2, '0')} UTC. ` +
            `The process opened ${Math.floor(r() * 900)} files and held a session to 45.${Math.floor(r() * 255)}.${Math.floor(r() * 255)}.${Math.floor(r() * 255)} for ${Math.floor(r() * 60)} minutes. ` +
            `Case note ${c}-${e}: parent process ${pick(TOOLS)}, integrity level ${pick(['high', 'medium', 'system'])}.`;
        if (!copy) texts.push(content);
        const evidenceId = `ev-${c}-${e}`;
        const out = await tc.call('evidence:ingest', ingestRequest(evidenceId, { kind: pick(['telemetry', 'log_record', 'vendor_report'] as const), content, context: { appliesTo: [host], sourceRef: `src:${c}:${e}` } }));
        evidence += 1;
        copies += out.copies.length > 0 ? 1 : 0;
        tc.as('rev');
        if (out.state === 'CANDIDATE') await tc.call('evidence:transition', { revisionId: out.revisionId, to: 'VALIDATED', reason: 'checklist passed' });
        tc.as('ana');
        await tc.call('claim:bind', { claimId, revisionId: out.revisionId, relation: r() < 0.8 ? 'FULL_SUPPORT' : 'PARTIAL_SUPPORT', role: 'SUPPORTING', rationale: 'generated' });
      }
    }
    report('generated case', { claims: CLAIMS, revisions: evidence, probable_copies: copies, build_s: (performance.now() - t0) / 1000 });

    tc.as('rev');
    const ctx = tc.session.context();
    const one = ctx.db.prepare('SELECT * FROM claim WHERE claim_id = ?');
    const baseline = medianMs(() => one.get('cl-05000'), 51);
    const claimGet = await medianMsAsync(() => tc.call('claim:get', { claimId: `cl-${String(Math.floor(r() * CLAIMS)).padStart(5, '0')}` }), 51);
    const evidenceGet = await medianMsAsync(() => tc.call('evidence:get', { revisionId: `ev-${Math.floor(r() * CLAIMS)}-0@1` }), 51);
    const evidenceList = await medianMsAsync(() => tc.call('evidence:list', { limit: 50 }), 21);
    // Lists keep derivations between reads (claimMemo.ts): the first read derives every claim,
    // later ones only what a write touched since. The gate verifies the chain in full the first
    // time after opening, then from this machine's mark.
    const timed = async (run: () => Promise<unknown>) => {
      const t = performance.now();
      await run();
      return performance.now() - t;
    };
    // The graph view's read, before anything derived the claims: it derives only those it draws.
    const randomClaim = () => `cl-${String(Math.floor(r() * CLAIMS)).padStart(5, '0')}`;
    const graphCaseFirst = await timed(() => tc.call('graph:neighbourhood', { focus: { kind: 'case' } }));
    const graphClaimFirst = await timed(() => tc.call('graph:neighbourhood', { focus: { kind: 'claim', id: randomClaim() }, hops: 2 }));
    const claimListFirst = await timed(() => tc.call('claim:list', {}));
    const graphCase = await medianMsAsync(() => tc.call('graph:neighbourhood', { focus: { kind: 'case' } }), 11);
    const graphClaim = await medianMsAsync(() => tc.call('graph:neighbourhood', { focus: { kind: 'claim', id: randomClaim() }, hops: 2 }), 21);
    const graphRevision = await medianMsAsync(() => tc.call('graph:neighbourhood', { focus: { kind: 'revision', id: `ev-${Math.floor(r() * CLAIMS)}-0@1` }, hops: 3, unbound: true }), 21);
    const claimList = await medianMsAsync(() => tc.call('claim:list', {}), 5);
    const reviewList = await medianMsAsync(() => tc.call('review:list', {}), 5);
    const gateFirst = await timed(() => tc.call('case:gate', {}));
    const gate = await medianMsAsync(() => tc.call('case:gate', {}), 5);
    // After a write that touches one claim, the next list derives that claim again and nothing else.
    let n = 0;
    const afterBind = await medianMsAsync(async () => {
      tc.as('ana');
      await tc.call('claim:bind', { claimId: `cl-${String(n).padStart(5, '0')}`, revisionId: `ev-${n + 1}-0@1`, relation: 'PARTIAL_SUPPORT', role: 'SUPPORTING', rationale: 'bench' });
      n += 1;
      tc.as('rev');
      return tc.call('claim:list', {});
    }, 5);
    const verify = await medianMsAsync(() => tc.call('audit:verify', {}), 3, 1);
    const verified = await tc.call('audit:verify', {});
    const statuses = (await tc.call('claim:list', {})).reduce<Record<string, number>>((m, c) => ({ ...m, [c.status]: (m[c.status] ?? 0) + 1 }), {});
    report('reads on the generated case (median ms)', {
      'claim:get': claimGet,
      'evidence:get': evidenceGet,
      'evidence:list_50': evidenceList,
      'claim:list_first': claimListFirst,
      'graph:neighbourhood_case_first': graphCaseFirst,
      'graph:neighbourhood_claim_2hops_first': graphClaimFirst,
      'graph:neighbourhood_case': graphCase,
      'graph:neighbourhood_claim_2hops': graphClaim,
      'graph:neighbourhood_revision_3hops_unbound': graphRevision,
      'claim:list': claimList,
      'claim:list_after_a_bind': afterBind,
      'review:list': reviewList,
      'case:gate_first': gateFirst,
      'case:gate': gate,
      'audit:verify': verify,
      receipts: verified.length,
      verified: String(verified.ok),
      baseline_pk_row_ms: baseline,
      ratio_claim_get_vs_baseline: claimGet / baseline,
      ratio_claim_list_vs_first: claimList / claimListFirst,
    });
    report('statuses', statuses);
    if (KEEP) {
      // For bench/scale-ui.ts: the case file with its reviewers' keys, as the window opens it.
      tc.session.close();
      cpSync(tc.dir, KEEP, { recursive: true });
      console.log(`kept the case in ${KEEP}`);
    }
  } finally {
    tc.cleanup();
  }
}

void main();
