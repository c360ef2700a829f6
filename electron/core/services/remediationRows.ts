import { canonicalJson } from '../../../shared/domain/canonical';
import { sha256Hex } from '../crypto';
import type { BindingRole, Relation, SupportProjection } from '../../../shared/domain/enums';
import type { CaseDb } from '../store/caseFile';
import type { FenceCause, FenceRow } from '../store/fenceRows';
import type { BoundRevision, ClaimProjectionState } from './projection';
import type { DecisionRow } from '../store/reviewRows';

/** Row shape of the remediation table and the bindings a remediation is about. */
export interface RemediationRow {
  remediation_id: number;
  claim_id: string;
  generation: number;
  decision_id: string;
  fence_id: number;
  job_id: number;
  owner: string;
  projection: SupportProjection;
  projection_version: number;
  affected: string;
  opened_at: string;
  status: 'OPEN' | 'RESOLVED';
  resolution: 'RETAINED' | 'REREVIEW' | 'WITHDRAWN' | null;
  resolved_by: string | null;
  resolved_at: string | null;
  resolution_reason: string | null;
  new_generation: number | null;
  carried_decision_id: string | null;
}

export interface AffectedBinding {
  bindingId: number;
  revisionId: string;
  role: BindingRole;
  relation: Relation;
  /** REVOKED / SUPERSEDED: the revision itself was fenced; DERIVED: something it derives from was. */
  why: FenceCause;
  fenceId: number;
}

/**
 * Bindings of the claim's current generation that revocation took away: the revision was revoked or
 * superseded after the binding was made, or it derives from evidence that was. Bindings made after
 * the fence were made knowingly and are not the remediation's business.
 */
export function affectedBindings(s: ClaimProjectionState): (AffectedBinding & { binding: BoundRevision; fence: FenceRow })[] {
  const out: (AffectedBinding & { binding: BoundRevision; fence: FenceRow })[] = [];
  for (const b of s.bindings) {
    const direct = (s.direct.get(b.revision_id) ?? []).filter((f) => f.cause !== 'DERIVED' && b.binding_id <= f.binding_watermark);
    const fence = direct[direct.length - 1] ?? s.ancestors.get(b.revision_id)?.[0];
    if (!fence) continue;
    const why: FenceCause = direct.length > 0 ? fence.cause : 'DERIVED';
    out.push({ bindingId: b.binding_id, revisionId: b.revision_id, role: b.role, relation: b.relation, why, fenceId: fence.fence_id, binding: b, fence });
  }
  return out;
}

/**
 * When the worker opens a remediation (DESIGN §3.5): the claim has a decision in force on its
 * current generation, no remediation open yet, and its support projection leaves ELIGIBLE. The
 * what-if predicts with the same rule.
 */
export function opensRemediation(c: {
  before: SupportProjection;
  after: SupportProjection;
  decision: DecisionRow | undefined;
  generation: number;
  alreadyOpen: boolean;
}): c is typeof c & { decision: DecisionRow } {
  return c.before === 'ELIGIBLE' && c.after !== 'ELIGIBLE' && c.decision !== undefined && c.decision.generation === c.generation && !c.alreadyOpen;
}

export function openRemediationClaims(db: CaseDb, claimIds: readonly string[]): Set<string> {
  const rows = db
    .prepare(`SELECT claim_id FROM remediation WHERE status = 'OPEN' AND claim_id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(claimIds)) as { claim_id: string }[];
  return new Set(rows.map((r) => r.claim_id));
}

export interface OpenRemediation {
  claimId: string;
  generation: number;
  decision: DecisionRow;
  fenceId: number;
  jobId: number;
  projection: SupportProjection;
  projectionVersion: number;
  affected: AffectedBinding[];
  at: string;
}

/** Inserts an open remediation; the unique index refuses a second open one for the same claim. */
export function insertRemediation(db: CaseDb, r: OpenRemediation): number {
  const owner = r.decision.decided_by ?? r.decision.proposed_by;
  return Number(
    db
      .prepare(
        `INSERT INTO remediation (claim_id, generation, decision_id, fence_id, job_id, owner, projection, projection_version, affected, opened_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(r.claimId, r.generation, r.decision.decision_id, r.fenceId, r.jobId, owner, r.projection, r.projectionVersion, JSON.stringify(r.affected), r.at)
      .lastInsertRowid,
  );
}

export function remediationById(db: CaseDb, id: number): RemediationRow | undefined {
  return db.prepare('SELECT * FROM remediation WHERE remediation_id = ?').get(id) as RemediationRow | undefined;
}

/** The state a resolution receipt records for its remediation, and verification recomputes. */
export function remediationState(r: RemediationRow) {
  return {
    remediationId: r.remediation_id,
    claimId: r.claim_id,
    status: r.status,
    resolution: r.resolution,
    resolvedBy: r.resolved_by,
    resolvedAt: r.resolved_at,
    reason: r.resolution_reason,
    newGeneration: r.new_generation,
    carriedDecisionId: r.carried_decision_id,
  };
}

/**
 * What a convergence job opened, in the columns that never change after opening: the digest its
 * receipt records and verification recomputes, so a remediation deleted or forged behind the
 * receipts' back (which would drop or add a completion-gate blocker) is named.
 */
export function openedRemediations(db: CaseDb, jobId: number): unknown[] {
  return db
    .prepare(
      `SELECT remediation_id, claim_id, generation, decision_id, fence_id, job_id, owner, projection, projection_version, affected, opened_at
       FROM remediation WHERE job_id = ? ORDER BY remediation_id`,
    )
    .all(jobId);
}

/** The highest binding id of a claim's generation (0 when it has none). */
/** The receipts that resolve a remediation (each writes the claim's next generation). */
export const REMEDIATION_ACTIONS = ['remediation:retainCurrentRevision', 'remediation:requestRereview', 'remediation:withdraw'] as const;

/** Every receipt that writes a claim generation's bindings at once: `toGeneration`, up to `bindingWatermark`. */
export const GENERATION_ACTIONS = [...REMEDIATION_ACTIONS, 'claim:unbind'] as const;

export const maxBindingId = (db: CaseDb, claimId: string, generation: number): number =>
  (db.prepare('SELECT COALESCE(MAX(binding_id), 0) FROM claim_binding WHERE claim_id = ? AND generation = ?').pluck().get(claimId, generation) as number);

/**
 * The digest of a generation's bindings up to a watermark, as a remediation resolution wrote them
 * (and verify recomputes them). Without a watermark (receipts before it was recorded), all of them.
 */
export const generationDigest = (db: CaseDb, claimId: string, generation: number, watermark: number | null): string =>
  sha256Hex(
    canonicalJson(
      db
        .prepare(
          `SELECT binding_id, claim_id, generation, revision_id, relation, role, rationale FROM claim_binding
           WHERE claim_id = ? AND generation = ? AND (? IS NULL OR binding_id <= ?) ORDER BY binding_id`,
        )
        .all(claimId, generation, watermark, watermark),
    ),
  );
