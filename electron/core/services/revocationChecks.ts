import { canonicalJson } from '../../../shared/domain/canonical';
import { postDiffers, timeDiffers, type CaseStateCheck, type StateCheck } from '../audit/stateChecks';
import { derivedFencesDigest, type ProjectionRecord } from '../worker/outbox';
import { sha256Hex } from '../crypto';
import type { CaseDb } from '../store/caseFile';
import type { GateBlocker } from '../../../shared/ipc/channels/gate';
import { GENERATION_ACTIONS, generationDigest, openedRemediations, REMEDIATION_ACTIONS, remediationById, remediationState } from './remediationRows';
import { decisionState, type DecisionRow } from '../store/reviewRows';

/**
 * Teaches audit verification and the completion gate about revocation (DESIGN §3.4, §3.7).
 * Verification recomputes what the worker's and the remediation actions' receipts recorded from
 * the tables; the gate refuses FINAL while revocation work is open.
 */




/** Open remediations block FINAL: a decision whose evidence was revoked is not settled. */
export function remediationBlockers(db: CaseDb): GateBlocker[] {
  const rows = db
    .prepare(`SELECT remediation_id, claim_id, decision_id, projection FROM remediation WHERE status = 'OPEN' ORDER BY remediation_id`)
    .all() as { remediation_id: number; claim_id: string; decision_id: string; projection: string }[];
  return rows.map((m) => ({
    kind: 'remediation' as const,
    target: `claim:${m.claim_id}`,
    message: `remediation ${m.remediation_id}: decision ${m.decision_id} on claim ${m.claim_id} fell from ELIGIBLE to ${m.projection}; retain it on a successor revision, request a re-review or withdraw it`,
  }));
}

/** Unconverged revocations and claims resting on stale derived evidence block FINAL. */
export function revalidationBlockers(db: CaseDb): GateBlocker[] {
  const open = db
    .prepare(
      `SELECT f.revision_id, COUNT(*) AS jobs FROM outbox_job j JOIN revocation_fence f ON f.fence_id = j.root_fence_id
       WHERE j.status = 'OPEN' GROUP BY f.fence_id ORDER BY f.fence_id`,
    )
    .all() as { revision_id: string; jobs: number }[];
  const blockers: GateBlocker[] = open.map((o) => ({
    kind: 'revalidation' as const,
    target: `revision:${o.revision_id}`,
    message: `revocation of ${o.revision_id} has not converged (${o.jobs} open outbox job${o.jobs === 1 ? '' : 's'}); let the worker finish (revocation:runWorker)`,
  }));
  const stale = db
    .prepare(
      // CROSS JOIN keeps the fences first: there are few, while the planner would walk every binding.
      `SELECT DISTINCT b.claim_id, b.revision_id FROM revocation_fence f
       CROSS JOIN claim_binding b ON b.revision_id = f.revision_id
       JOIN claim c ON c.claim_id = b.claim_id AND c.generation = b.generation
       WHERE f.cause = 'DERIVED' AND b.role <> 'CONTEXT' ORDER BY b.claim_id, b.revision_id`,
    )
    .all() as { claim_id: string; revision_id: string }[];
  for (const s of stale) {
    blockers.push({
      kind: 'revalidation',
      target: `revision:${s.revision_id}`,
      message: `${s.revision_id}, bound to claim ${s.claim_id}, is derived from revoked or superseded evidence and needs revalidation; revise it or re-bind the claim`,
    });
  }
  return blockers;
}

export const REVOCATION_STATE_CHECKS: readonly StateCheck[] = [
  {
    name: 'revocation fence',
    actions: ['evidence:transition', 'evidence:revise'],
    scope: 'each',
    check: (db, r) => {
      const b = r.body() as {
        revisionId: string; from?: string; to?: string; reason?: string; supportingRef?: string | null; effects?: { fence?: RecordedFence };
        superseded?: { revisionId: string; from: string; to: string; effects?: { fence?: RecordedFence } };
      };
      // A move out of normal flows fenced its dependents in the same transaction (DESIGN §3.5).
      const moves =
        r.action === 'evidence:transition'
          ? [{ revisionId: b.revisionId, from: b.from!, to: b.to!, fence: b.effects?.fence, reason: b.reason!, ref: b.supportingRef ?? null }]
          : b.superseded
            ? [{ revisionId: b.superseded.revisionId, from: b.superseded.from, to: b.superseded.to, fence: b.superseded.effects?.fence, reason: b.reason === undefined ? null : `superseded by ${b.revisionId}: ${b.reason}`, ref: b.revisionId }]
            : [];
      for (const m of moves) {
        if (!m.fence) continue;
        const f = db.prepare('SELECT * FROM revocation_fence WHERE fence_id = ?').get(m.fence.fenceId) as
          | { revision_id: string; cause: string; from_state: string | null; reason: string; supporting_ref: string | null; actor: string; root_fence_id: number | null; parent_fence_id: number | null; binding_watermark: number; fenced_at: string }
          | undefined;
        if (!f) return `fence ${m.fence.fenceId} on ${m.revisionId}, written with this move, is missing`;
        const late = timeDiffers(r, f.fenced_at, `fence ${m.fence.fenceId}`);
        if (late) return late;
        const same = f.revision_id === m.revisionId && f.cause === m.to && f.from_state === m.from && f.actor === r.actor && f.root_fence_id === null && f.parent_fence_id === null &&
          (m.reason === null || f.reason === m.reason) && f.supporting_ref === m.ref &&
          // Receipts written before the watermark was recorded (schema 330) do not hold it.
          (m.fence.bindingWatermark === undefined || f.binding_watermark === m.fence.bindingWatermark);
        if (!same) return `fence ${m.fence.fenceId} differs from the move this receipt recorded (${m.revisionId} ${m.from} → ${m.to})`;
        const job = db.prepare('SELECT fence_id FROM outbox_job WHERE job_id = ?').get(m.fence.jobId) as { fence_id: number } | undefined;
        if (!job || job.fence_id !== m.fence.fenceId) return `outbox job ${m.fence.jobId} of fence ${m.fence.fenceId} is missing or moved`;
      }
      return null;
    },
  },
  {
    name: 'revocation convergence',
    actions: ['revocation:converge'],
    scope: 'each',
    check: (db, r) => {
      const { jobId } = r.body() as { jobId: number };
      const b = r.body() as { fenceId: number; rootFenceId: number; phase: string; cursor: string | null };
      const job = db.prepare('SELECT status, receipt_seq, fence_id, root_fence_id, phase, cursor FROM outbox_job WHERE job_id = ?').get(jobId) as
        | { status: string; receipt_seq: number | null; fence_id: number; root_fence_id: number; phase: string; cursor: string | null }
        | undefined;
      if (!job) return `outbox job ${jobId} is missing`;
      if (job.status !== 'DONE' || job.receipt_seq !== r.seq) return `outbox job ${jobId} is not recorded as done by this receipt`;
      if (job.fence_id !== b.fenceId || job.root_fence_id !== b.rootFenceId || job.phase !== b.phase || job.cursor !== b.cursor) {
        return `outbox job ${jobId} (fence, phase or cursor) differs from the page this receipt converged`;
      }
      const ledger = db.prepare('SELECT * FROM projection_ledger WHERE job_id = ? ORDER BY claim_id').all(jobId);
      if (sha256Hex(canonicalJson(ledger)) !== r.artifacts.ledger) return `projection ledger of job ${jobId} differs from what this receipt recorded`;
      // Receipts written before derived fences were listed (schema 330) cannot be held to them.
      const derived = (r.body() as { derivedFenceIds?: number[] }).derivedFenceIds;
      if (derived !== undefined && derivedFencesDigest(db, derived) !== r.artifacts.derivedFences) {
        return `the derived fences job ${jobId} wrote (${derived.join(', ') || 'none'}) differ from what this receipt recorded (lineage, reason, time or a fence removed)`;
      }
      // Receipts written before the remediation digest (schema 330) cannot be held to it.
      if (r.artifacts.remediations === undefined) return null;
      if (sha256Hex(canonicalJson(openedRemediations(db, jobId))) !== r.artifacts.remediations) {
        return `remediations opened by job ${jobId} differ from what this receipt recorded (one was removed, added or altered)`;
      }
      // A resolution is a receipted act: a remediation resolved without one was edited in place.
      const resolved = db.prepare(`SELECT remediation_id FROM remediation WHERE job_id = ? AND status <> 'OPEN'`).pluck().all(jobId) as number[];
      const receipted = db.prepare(
        `SELECT 1 FROM audit_receipt WHERE action IN (SELECT value FROM json_each(?)) AND json_extract(body, '$.remediationId') = ? LIMIT 1`,
      );
      const bare = resolved.find((id) => !receipted.get(JSON.stringify(REMEDIATION_ACTIONS), id));
      return bare === undefined ? null : `remediation ${bare} is resolved but no receipt resolved it`;
    },
  },
  {
    name: 'remediation resolution',
    actions: REMEDIATION_ACTIONS,
    scope: 'each',
    check: (db, r) => {
      const b = r.body() as { remediationId: number; claimId: string; resolution: string; reason: string; toGeneration: number; carriedDecisionId: string | null; bindingWatermark?: number };
      const row = remediationById(db, b.remediationId);
      if (!row) return `remediation ${b.remediationId} is missing`;
      const s = remediationState(row);
      if (s.status !== 'RESOLVED' || s.resolution !== b.resolution || s.resolvedBy !== r.actor || s.reason !== b.reason || s.newGeneration !== b.toGeneration || s.carriedDecisionId !== b.carriedDecisionId) {
        return `remediation ${b.remediationId} is not resolved the way this receipt recorded`;
      }
      const late = timeDiffers(r, s.resolvedAt, `the resolution of remediation ${b.remediationId}`);
      if (late) return late;
      if (generationDigest(db, b.claimId, b.toGeneration, b.bindingWatermark ?? null) !== r.artifacts.bindings) {
        return `bindings of ${b.claimId} generation ${b.toGeneration} differ from what this receipt wrote`;
      }
      if (b.carriedDecisionId === null) return null;
      const d = db.prepare('SELECT * FROM decision WHERE decision_id = ?').get(b.carriedDecisionId) as DecisionRow | undefined;
      if (!d) return `carried decision ${b.carriedDecisionId} is missing`;
      return sha256Hex(canonicalJson(decisionState(d))) === r.artifacts.decision ? null : `carried decision ${b.carriedDecisionId} differs from what this receipt wrote`;
    },
  },
  {
    // A remediation's resolution and an unbind each move the claim to the generation they wrote.
    name: 'claim generation',
    actions: GENERATION_ACTIONS,
    scope: 'latest',
    check: (db, r) => {
      const id = r.targets[0]?.slice('claim:'.length);
      const row = db.prepare('SELECT claim_id, generation FROM claim WHERE claim_id = ?').get(id) as { claim_id: string; generation: number } | undefined;
      if (!row) return `claim ${id} is missing`;
      return postDiffers(r, { claimId: row.claim_id, generation: row.generation }, `generation of claim ${id}`);
    },
  },
];

/** A fence as a move's receipt records it (the watermark since schema 330). */
type RecordedFence = { fenceId: number; jobId: number; bindingWatermark?: number };

/**
 * Every stored support projection was written by a convergence job (its ledger row has the
 * version) or by a remediation (its receipt records the version): one set to ELIGIBLE behind the
 * receipts' back would decide whether the next revocation opens a remediation.
 */
export const REVOCATION_CASE_CHECKS: readonly CaseStateCheck[] = [
  {
    name: 'revocation fences and their jobs',
    dependsOn: { tables: ['revocation_fence', 'outbox_job'], actions: [] },
    check: (db) => {
      // A fence is written by a receipted move (its receipt names it and its first job) or,
      // DERIVED, by the worker under a fence that exists; a job is a fence's first, or the next
      // page of a job whose convergence receipt names it. Anything else was added behind the
      // receipts' back: a forged open job would block the gate and have the worker converge again.
      const moves = db
        .prepare(
          `SELECT json_extract(body, '$.effects.fence.fenceId') AS fence, json_extract(body, '$.effects.fence.jobId') AS job FROM audit_receipt WHERE action = 'evidence:transition'
           UNION SELECT json_extract(body, '$.superseded.effects.fence.fenceId'), json_extract(body, '$.superseded.effects.fence.jobId') FROM audit_receipt WHERE action = 'evidence:revise'`,
        )
        .all() as { fence: unknown; job: unknown }[];
      const recorded = new Set(moves.map((m) => m.fence).filter((id): id is number => typeof id === 'number'));
      const firstJobs = new Set(moves.map((m) => m.job).filter((id): id is number => typeof id === 'number'));
      const fences = db.prepare('SELECT fence_id, cause, root_fence_id, parent_fence_id FROM revocation_fence ORDER BY fence_id').all() as {
        fence_id: number; cause: string; root_fence_id: number | null; parent_fence_id: number | null;
      }[];
      const ids = new Set(fences.map((f) => f.fence_id));
      const listed = new Set(
        db
          .prepare(`SELECT d.value FROM audit_receipt, json_each(json_extract(body, '$.derivedFenceIds')) d WHERE action = 'revocation:converge'`)
          .pluck()
          .all() as number[],
      );
      const nextJobs = new Set(
        (db.prepare(`SELECT json_extract(body, '$.nextJobId') FROM audit_receipt WHERE action = 'revocation:converge'`).pluck().all() as unknown[]).filter(
          (id): id is number => typeof id === 'number',
        ),
      );
      // Convergence receipts written before derived fences were listed (schema 330) vouch for their fence's children.
      const legacyParents = new Set(
        db
          .prepare(
            `SELECT json_extract(body, '$.fenceId') FROM audit_receipt WHERE action = 'revocation:converge'
             AND json_extract(body, '$.phase') = 'derived' AND json_extract(body, '$.derivedFenceIds') IS NULL`,
          )
          .pluck()
          .all() as number[],
      );
      for (const f of fences) {
        if (f.cause !== 'DERIVED' && !recorded.has(f.fence_id)) return `fence ${f.fence_id} (${f.cause}) was written by no receipted move`;
        if (f.cause === 'DERIVED' && (!ids.has(f.root_fence_id!) || !ids.has(f.parent_fence_id!))) return `derived fence ${f.fence_id} hangs from a fence that does not exist`;
        if (f.cause === 'DERIVED' && !listed.has(f.fence_id) && !legacyParents.has(f.parent_fence_id!)) return `derived fence ${f.fence_id} was written by no convergence receipt`;
      }
      // A derived fence's first job is written with it, by the convergence that lists the fence: its lowest job.
      const jobs = db
        .prepare(
          `SELECT j.job_id, j.fence_id, f.cause, j.job_id = m.first AS first
           FROM outbox_job j JOIN revocation_fence f ON f.fence_id = j.fence_id
           JOIN (SELECT fence_id, MIN(job_id) AS first FROM outbox_job GROUP BY fence_id) m ON m.fence_id = j.fence_id
           ORDER BY j.job_id`,
        )
        .all() as { job_id: number; fence_id: number; cause: string; first: number }[];
      for (const j of jobs) {
        const accounted = firstJobs.has(j.job_id) || nextJobs.has(j.job_id) || (j.cause === 'DERIVED' && j.first === 1);
        if (!accounted) return `outbox job ${j.job_id} of fence ${j.fence_id} is no fence's first job and no convergence's next`;
      }
      return null;
    },
  },
  {
    name: 'support projections',
    // A newer remediation of a version, or a job's receipt, says what a projection must be.
    dependsOn: { tables: ['support_projection', 'projection_ledger', 'outbox_job'], actions: ['case:create', 'revocation:converge', ...REMEDIATION_ACTIONS] },
    check: (db) => {
      const rows = db.prepare('SELECT claim_id, generation, projection, reasons, version, fence_watermark, computed_at, job_id FROM support_projection ORDER BY claim_id').all() as {
        claim_id: string; generation: number; projection: string; reasons: string; version: number; fence_watermark: number; computed_at: string; job_id: number | null;
      }[];
      const exactTimes = db.prepare(`SELECT json_extract(body, '$.rowTimes') FROM audit_receipt WHERE seq = 1`).pluck().get() === 'receipt';
      const byJob = db.prepare('SELECT generation, to_projection, job_id FROM projection_ledger WHERE claim_id = ? AND to_version = ? ORDER BY job_id DESC LIMIT 1');
      const jobReceipt = db.prepare(`SELECT r.at, json_extract(r.body, '$.projections') AS projections FROM outbox_job j JOIN audit_receipt r ON r.seq = j.receipt_seq WHERE j.job_id = ?`);
      const byRemediation = db.prepare(
        `SELECT json_extract(body, '$.projection.projection') AS projection, json_extract(body, '$.toGeneration') AS generation,
           json_extract(body, '$.projection.reasonsSha256') AS reasonsSha256, json_extract(body, '$.projection.fenceWatermark') AS fenceWatermark, at FROM audit_receipt
         WHERE action IN (SELECT value FROM json_each(?)) AND json_extract(body, '$.claimId') = ? AND json_extract(body, '$.projection.version') = ?
         ORDER BY seq DESC LIMIT 1`,
      );
      const lost = db.prepare('SELECT DISTINCT claim_id FROM projection_ledger WHERE claim_id NOT IN (SELECT claim_id FROM support_projection) ORDER BY claim_id').pluck().get() as string | undefined;
      if (lost !== undefined) return `claim ${lost} has a recorded support projection but none is stored`;
      for (const p of rows) {
        const job = byJob.get(p.claim_id, p.version) as { generation: number; to_projection: string; job_id: number } | undefined;
        const remediation = job
          ? undefined
          : (byRemediation.get(JSON.stringify(REMEDIATION_ACTIONS), p.claim_id, p.version) as
              | { projection: string; generation: number; reasonsSha256: string | null; fenceWatermark: number | null; at: string }
              | undefined);
        let written: { reasonsSha256: string | null; fenceWatermark: number | null; at: string } | undefined;
        if (job) {
          const receipt = jobReceipt.get(job.job_id) as { at: string; projections: string | null } | undefined;
          const entry = receipt?.projections ? (JSON.parse(receipt.projections) as ProjectionRecord[]).find(([c, v]) => c === p.claim_id && v === p.version) : undefined;
          written = receipt && { reasonsSha256: entry?.[2] ?? null, fenceWatermark: entry?.[3] ?? null, at: receipt.at };
          if (receipt?.projections && !entry) return `the support projection of claim ${p.claim_id} (version ${p.version}) is not among those job ${job.job_id}'s receipt recorded`;
        } else written = remediation;
        const recorded = job ? { projection: job.to_projection, generation: job.generation, jobId: job.job_id } : remediation && { ...remediation, jobId: null };
        if (!recorded) return `the support projection of claim ${p.claim_id} (version ${p.version}) was written by no convergence job or remediation`;
        if (recorded.jobId !== p.job_id) return `the support projection of claim ${p.claim_id} names job ${p.job_id}, not the ${recorded.jobId ?? 'remediation'} that wrote version ${p.version}`;
        if (recorded.projection !== p.projection || recorded.generation !== p.generation) {
          return `the support projection of claim ${p.claim_id} is ${p.projection} (generation ${p.generation}), not the ${recorded.projection} (generation ${recorded.generation}) its version ${p.version} was written as`;
        }
        // Receipts written before these were recorded (schema 330) hold only the projection itself.
        if (written?.reasonsSha256 != null && written.reasonsSha256 !== sha256Hex(p.reasons)) return `the reasons of claim ${p.claim_id}'s support projection differ from those its version ${p.version} was written with`;
        if (written?.fenceWatermark != null && written.fenceWatermark !== p.fence_watermark) return `the fence watermark of claim ${p.claim_id}'s support projection differs from the one its version ${p.version} was written with`;
        if (exactTimes && written && written.at !== p.computed_at) return `the support projection of claim ${p.claim_id} carries the time ${p.computed_at}, not ${written.at}, the time of the receipt that wrote it`;
      }
      return null;
    },
  },
];
