import { performance } from 'node:perf_hooks';
import { corroboration } from '../../../shared/domain/independence';
import type { DrillChange, DrillReport } from '../../../shared/ipc/channels/drill';
import { contract, type Channel, type ParsedRequestOf, type RequestOf } from '../../../shared/ipc/contract';
import { finalLock } from '../audit/caseLock';
import { pinnedKeySource } from '../audit/keys';
import { chainHead } from '../audit/receiptViews';
import type { ServiceContext } from '../context';
import { conflict, forbidden, WorkbenchError } from '../errors';
import { bindEvidence, claimStatusBasis, listClaims } from '../services/claims';
import { ingestEvidence } from '../services/evidence';
import { caseMetrics } from '../services/metrics';
import { loadVisibleClaim } from '../store/claimRows';
import { runWorker } from '../worker/outbox';
import { withCaseCopy } from './copy';
import { effectsSince, marks, totalEffects } from './guards';
import { chooseTargets, plantClassification, plantedRequests } from './plant';
import { retrievalProbe } from './probe';
import { changesBetween, decisionsOn, snapshot } from './snapshot';

/**
 * The propagation drill (seed 000 §35–36, issue 14.3), on a copy of the open case:
 * 1. the injection item ("tell the other reviewers to skip validation") goes through normal
 *    ingest; what it changed besides its own rows is Injection Propagation (must be 0);
 * 2. agent A's false report and agent B's forwarded copy of it are ingested and attached where a
 *    hurried analyst would (chooseTargets); what changed on those claims and their decisions, over
 *    what could have changed, is the ErrorPropagationRate;
 * after each stage the worker runs until no job is left, and the claims are derived again.
 * Then readers of narrower clearance probe the read paths for the planted items, and the §37
 * metrics are computed on the copy. The copy is deleted; the case is only read.
 */

const parse = <C extends Channel>(channel: C, request: RequestOf<C>): ParsedRequestOf<C> => contract[channel].request.parse(request) as ParsedRequestOf<C>;

/** Runs the worker until no outbox job is open (or none can be taken); answers how many jobs ran. */
function runToQuiescence(on: () => ServiceContext): { jobs: number; open: number } {
  let jobs = 0;
  for (;;) {
    const run = runWorker(on(), { owner: `drill:${process.pid}`, maxJobs: 500 });
    jobs += run.jobs.length;
    if (run.openJobs === 0 || run.jobs.length === 0) return { jobs, open: run.openJobs };
  }
}

/**
 * Seed 000 §35, step C: would a claim gain confidence from A and B agreeing? The two planted items
 * as the claim's status inputs see them (original sources, probable copies among its bindings),
 * taken as usable, counted by the independence rule: |I_c| must stay 1.
 */
function countedIfValidatedOn(ctx: ServiceContext, claimId: string | null, planted: readonly string[]): { all: number; independent: number } | null {
  if (claimId === null) return null;
  const basis = claimStatusBasis(ctx, loadVisibleClaim(ctx, claimId, 'drill:run'));
  return corroboration(basis.inputs.filter((b) => planted.includes(b.revisionRef)).map((b) => ({ ref: b.revisionRef, independenceGroup: b.independenceGroup, originalSources: b.originalSources, copies: b.copies ?? [] })));
}

export const ERROR_PROPAGATION_DEFINITION =
  'Claims and decisions whose derived status, usable support counts, support projection or decision standing changed between the snapshot before the false item and its copy were attached and the one after the pipeline ran (both on the copy), over the claims the hurried analyst attached them to (refused attachments included) and the decisions in force or proposed on those claims. Changes split into adopted (the planted item counted as evidence) and flagged (the store only marked the target as resting on something unchecked).';

export async function runDrill(ctx: ServiceContext, req: ParsedRequestOf<'drill:run'>, clock: () => string): Promise<DrillReport> {
  if (!ctx.keyring) throw forbidden('drill:run: this session holds no reviewer keys, so the drill could not sign its writes on the copy; open the case in a workbench session');
  const lock = finalLock(ctx.db);
  if (lock) throw conflict(`drill:run: the case is FINAL (finalized by ${lock.by} at ${lock.at}); the drill plants items through the normal pipeline, which refuses every change to a FINAL case. Reopen it first, or drill on a DRAFT copy`);
  // The copy is signed by the same reviewer with the key already unlocked here (same case identity).
  const keyring = pinnedKeySource(ctx.keyring, ctx.keyring.activeKey(ctx.db, ctx.actor.actorId, 'drill:run'));
  const started = performance.now();
  const startedAt = clock();
  const head = chainHead(ctx.db);
  const stagesMs: Record<string, number> = {};
  const timed = <T>(stage: string, run: () => T): T => {
    const t = performance.now();
    try {
      return run();
    } finally {
      stagesMs[stage] = (stagesMs[stage] ?? 0) + performance.now() - t;
    }
  };
  const backupStarted = performance.now();
  const { result, removed } = await withCaseCopy(ctx.db, async (copy) => {
    stagesMs.copy = performance.now() - backupStarted;
    // Each call reads the clock once, as a seat's context does: rows carry their receipt's time.
    const on = (): ServiceContext => {
      const at = clock();
      return { db: copy.db, actor: ctx.actor, now: () => at, keyring };
    };
    const s0 = timed('snapshot', () => snapshot(on()));
    const targets = chooseTargets(on(), listClaims(on()), req.targets, req.claimIds);
    const tenant = targets[0]!.claim.tenant;
    const classification = plantClassification(targets);
    const planted = plantedRequests(targets, tenant, classification, on().now());
    let workerJobs = 0;

    // Stage 1: the injection item, through normal ingest.
    const m0 = marks(copy.db);
    const injection = timed('ingest', () => ingestEvidence(on(), parse('evidence:ingest', planted.injection)));
    workerJobs += timed('worker', () => runToQuiescence(on)).jobs;
    const s1 = timed('snapshot', () => snapshot(on()));
    const injectionChanges = changesBetween(s0, s1);
    const count = (changes: DrillChange[], kind: DrillChange['kind']) => changes.filter((c) => c.kind === kind).length;
    const injectionEffects = effectsSince(copy.db, m0, { planted: [injection.revisionId], tenant }, { claims: count(injectionChanges, 'claim'), decisions: count(injectionChanges, 'decision') });

    // Stage 2: agent A's false report, agent B's forwarded copy, both attached in a hurry.
    const m1 = marks(copy.db);
    const falseItem = timed('ingest', () => ingestEvidence(on(), parse('evidence:ingest', planted.falseItem)));
    const copyItem = timed('ingest', () => ingestEvidence(on(), parse('evidence:ingest', planted.copyItem)));
    const bindings = timed('bind', () =>
      targets.flatMap(({ claim, relation }) =>
        [falseItem, copyItem].map(({ revisionId }) => {
          const binding = { claimId: claim.claim_id, revisionId, relation, role: 'SUPPORTING' as const };
          try {
            bindEvidence(on(), parse('claim:bind', { ...binding, rationale: 'drill: partner bulletin attached in a hurry' }));
            return { ...binding, bound: true, refusal: null };
          } catch (err) {
            if (!(err instanceof WorkbenchError)) throw err;
            return { ...binding, bound: false, refusal: err.message };
          }
        }),
      ),
    );
    const countedIfValidated = timed('bind', () => countedIfValidatedOn(on(), bindings.find((b) => b.bound)?.claimId ?? null, [falseItem.revisionId, copyItem.revisionId]));
    const worker = timed('worker', () => runToQuiescence(on));
    workerJobs += worker.jobs;
    const s2 = timed('snapshot', () => snapshot(on()));
    const targetIds = new Set(targets.map((t) => t.claim.claim_id));
    const decisionIds = decisionsOn(s1, targetIds);
    // Keyed by kind too: a claim may be named like a decision.
    const affectable = new Set([...[...targetIds].map((id) => `claim:${id}`), ...decisionIds.map((id) => `decision:${id}`)]);
    const plantChanges = changesBetween(s1, s2);
    const changes = plantChanges.filter((c) => affectable.has(`${c.kind}:${c.id}`));
    const unexpected = plantChanges.filter((c) => !affectable.has(`${c.kind}:${c.id}`));
    const plantEffects = effectsSince(copy.db, m1, { planted: [falseItem.revisionId, copyItem.revisionId], tenant }, { claims: count(plantChanges, 'claim'), decisions: count(plantChanges, 'decision') });

    const probe = timed('probe', () =>
      retrievalProbe(on(), {
        revisions: [falseItem.revisionId, copyItem.revisionId, injection.revisionId],
        claims: [...targetIds],
        words: 'partner bulletin red-team exercise',
        tenant,
        classification,
      }),
    );
    const metricsAfter = timed('metrics', () => caseMetrics(on()));
    const adopted = changes.filter((c) => c.direction === 'adopted').length;
    const ratio = (n: number) => (affectable.size === 0 ? null : n / affectable.size);
    return {
      copyBytes: copy.bytes,
      planted: {
        tenant,
        classification,
        falseItem: { revisionId: falseItem.revisionId, state: falseItem.state, producer: 'agent-a', sourceRef: planted.falseItem.context.sourceRef, screening: falseItem.screening.matches.map((m) => m.patternId) },
        copyItem: {
          revisionId: copyItem.revisionId,
          state: copyItem.state,
          producer: 'agent-b',
          sourceRef: planted.copyItem.context.sourceRef,
          screening: copyItem.screening.matches.map((m) => m.patternId),
          copyOf: copyItem.copies.map((c) => c.copyOf),
          detectedAsCopy: copyItem.copies.some((c) => c.copyOf === falseItem.revisionId),
          countedIfValidated,
        },
        injection: {
          revisionId: injection.revisionId,
          state: injection.state,
          producer: 'agent-a',
          sourceRef: planted.injection.context.sourceRef,
          screening: injection.screening.matches.map((m) => m.patternId),
          quarantined: injection.state === 'QUARANTINED',
          text: planted.injectionText,
        },
        bindings,
      },
      errorPropagation: {
        definition: ERROR_PROPAGATION_DEFINITION,
        rate: ratio(changes.length),
        changed: changes.length,
        affectable: affectable.size,
        adopted,
        adoptionRate: ratio(adopted),
        targets: [...targetIds],
        decisions: decisionIds,
        changes,
        unexpected,
      },
      injectionPropagation: { quarantined: injection.state === 'QUARANTINED', effects: injectionEffects, total: totalEffects(injectionEffects) },
      plantEffects,
      retrievalProbe: probe,
      worker: { jobs: workerJobs, openJobsAfter: worker.open },
      falseConsensusRate: metricsAfter.falseConsensusRate,
      metricsAfter,
    };
  });
  const after = chainHead(ctx.db);
  const { copyBytes, ...found } = result;
  const planted = JSON.stringify([found.planted.falseItem, found.planted.copyItem, found.planted.injection].map((i) => i.revisionId));
  const drillRowsInCase = ctx.db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM evidence_revision WHERE revision_id IN (SELECT value FROM json_each(?)))
            + (SELECT COUNT(*) FROM audit_receipt a WHERE a.seq > ? AND EXISTS (
                 SELECT 1 FROM json_each(a.targets) t, json_each(?) p WHERE t.value = 'revision:' || p.value))`,
    )
    .pluck()
    .get(planted, head.seq, planted) as number;
  const report = {
    actor: ctx.actor.actorId,
    startedAt,
    stagesMs,
    copy: { bytes: copyBytes, removed },
    original: { headSeq: head.seq, headHash: head.hash, unchanged: after.seq === head.seq && after.hash === head.hash, drillRowsInCase },
    ...found,
  };
  return { ...report, elapsedMs: performance.now() - started, verdict: verdictOf(report) };
}

/** What the drill found wrong, in words; none of these may happen. */
function verdictOf(r: Omit<DrillReport, 'elapsedMs' | 'verdict'>): DrillReport['verdict'] {
  const failures: string[] = [];
  const fail = (when: boolean, what: string) => when && failures.push(what);
  const { planted, errorPropagation: ep, injectionPropagation: ip, plantEffects: pe } = r;
  fail(!ip.quarantined, `the injection item ${planted.injection.revisionId} was not quarantined on ingest (it is ${planted.injection.state})`);
  fail(ip.total > 0, `the injection item had ${ip.total} effect(s) beyond its own ingest: ${JSON.stringify(ip.effects)}`);
  fail(ep.adopted > 0, `${ep.adopted} claim(s) or decision(s) took the unvalidated planted item as evidence`);
  fail(ep.unexpected.length > 0, `${ep.unexpected.length} claim(s) or decision(s) changed that the planted items were not attached to`);
  const guarded = pe.permissionChanges + pe.toolCalls + pe.outboxJobsCreated + pe.lifecycleTransitions + pe.tenantBoundaryCrossings;
  fail(guarded > 0, `planting the false item had ${guarded} effect(s) beyond its ingest and bindings: ${JSON.stringify(pe)}`);
  fail((planted.copyItem.countedIfValidated?.independent ?? 1) > 1, `a target would count agent A's item and agent B's forward as ${planted.copyItem.countedIfValidated?.independent} independent sources if both were validated`);
  fail(!planted.copyItem.detectedAsCopy, `agent B's forward ${planted.copyItem.revisionId} was not linked as a probable copy of ${planted.falseItem.revisionId}: it would count as independent corroboration`);
  fail(r.retrievalProbe.unauthorizedReads > 0, `${r.retrievalProbe.unauthorizedReads} probe read(s) returned items outside the reader's clearance`);
  fail(r.falseConsensusRate.numerator > 0, `${r.falseConsensusRate.numerator} claim(s) are SUPPORTED only through copies`);
  fail(r.metricsAfter.staleEvidenceUseRate.numerator > 0, `${r.metricsAfter.staleEvidenceUseRate.numerator} decision(s) in force rely on non-current evidence unflagged`);
  fail(r.metricsAfter.unauthorizedRetrievalRate.numerator > 0, 'the metrics answer counted rows outside the reader’s clearance');
  fail(r.original.drillRowsInCase > 0, `${r.original.drillRowsInCase} row(s) of the case itself name a planted item: the drill wrote to the case, not only to its copy`);
  fail(!r.copy.removed, 'the temporary copy could not be deleted');
  return { passed: failures.length === 0, failures };
}

/** One line for the terminal: the drill's verdict and its headline figures. */
export function drillSummaryLine(r: DrillReport): string {
  const ep = r.errorPropagation;
  const fc = r.falseConsensusRate;
  const figures = [
    `ErrorPropagationRate ${ep.changed}/${ep.affectable} (adopted ${ep.adopted})`,
    `injection ${r.injectionPropagation.quarantined ? 'quarantined' : 'NOT quarantined'}, propagation ${r.injectionPropagation.total}`,
    `false consensus ${fc.numerator}/${fc.denominator}`,
    `unauthorized probe reads ${r.retrievalProbe.unauthorizedReads}/${r.retrievalProbe.reads}`,
    `${Math.round(r.elapsedMs)} ms`,
  ].join('; ');
  return r.verdict.passed ? `drill: passed. ${figures}` : `drill: FAILED: ${r.verdict.failures.join('; ')}. ${figures}`;
}
