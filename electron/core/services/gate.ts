import type { Blocker } from '../../../shared/ipc/channels/gate';
import type { ResponseOf } from '../../../shared/ipc/contract';
import { appendReceipt } from '../audit/receipts';
import { chainHead, formatHead, verifyChain } from '../audit/verify';
import type { ServiceContext } from '../context';
import { forbidden } from '../errors';
import { aclFilter } from './acl';
import { readCaseMeta } from './caseMeta';
import { listClaims } from './claims';
import { assertRole, policyOf, type ClaimRowForReview } from './claimBasis';
import { effectiveDecision } from './decisions';
import { decisionStateOf, quorumView } from './review';

/**
 * The completion gate (DESIGN §3.4): a case is FINAL only when every claim is decided on current
 * fingerprints, nothing is disputed, no remediation or revalidation is open and the audit chain
 * verifies. Each condition is a named check returning blockers; capabilities that open work of
 * their own (revocation fences and remediations, issue 5) register theirs with registerGateCheck.
 */
export type GateBlocker = Omit<Blocker, 'check'>;
export type GateCheck = (ctx: ServiceContext) => GateBlocker[];

const gateChecks = new Map<string, GateCheck>();

/** Adds a gate check; registering a name again replaces that check. */
export function registerGateCheck(name: string, check: GateCheck): void {
  gateChecks.set(name, check);
}

function allClaims(ctx: ServiceContext): ClaimRowForReview[] {
  return ctx.db
    .prepare('SELECT claim_id, statement, policy, generation, tenant, classification, unresolved_reason, author FROM claim ORDER BY created_at, claim_id')
    .all() as ClaimRowForReview[];
}

/** Claims and bound revisions the actor cannot see: blockers name them only as `hidden`. */
function hiddenItems(ctx: ServiceContext): { claims: Set<string>; revisions: Set<string> } {
  const cl = aclFilter(ctx.actor, 'c');
  const ev = aclFilter(ctx.actor, 'r');
  const claims = ctx.db.prepare(`SELECT c.claim_id FROM claim c WHERE NOT (${cl.sql})`).all(...cl.params) as { claim_id: string }[];
  const revisions = ctx.db
    .prepare(`SELECT DISTINCT r.revision_id FROM claim_binding b JOIN evidence_revision r ON r.revision_id = b.revision_id WHERE NOT (${ev.sql})`)
    .all(...ev.params) as { revision_id: string }[];
  return { claims: new Set(claims.map((c) => c.claim_id)), revisions: new Set(revisions.map((r) => r.revision_id)) };
}

const HIDDEN_MESSAGE = 'an item outside your clearance blocks finalization; an admin cleared for the whole case can see which';

registerGateCheck('claim decisions', (ctx) => {
  const blockers: GateBlocker[] = [];
  for (const claim of allClaims(ctx)) {
    const target = `claim:${claim.claim_id}`;
    const { state, message } = decisionStateOf(ctx, claim);
    if (state === 'UNDECIDED') blockers.push({ kind: 'undecided', target, message: `${target} is not decided: ${message}; propose and approve a decision, or record it UNRESOLVED` });
    if (state === 'PROPOSED') blockers.push({ kind: 'open-proposal', target, message: `${target}: ${message}` });
    if (state === 'STALE') blockers.push({ kind: 'stale-fingerprint', target, message: `${target}: ${message}; propose a new decision on the claim as it is now` });
    const effective = effectiveDecision(ctx.db, claim.claim_id);
    if (state === 'DECIDED' && ctx.db.prepare(`SELECT 1 FROM decision WHERE claim_id = ? AND status = 'PROPOSED'`).get(claim.claim_id)) {
      blockers.push({ kind: 'open-proposal', target, message: `${target} is decided but a newer proposal is still open; approve, reject or withdraw it` });
    }
    // Votes can move after an approval: a SUPPORTED decision must still stand on a surviving quorum.
    if (effective?.verdict === 'SUPPORTED' && policyOf(claim).quorumSize !== null) {
      const q = quorumView(ctx, claim);
      if (q.tier !== 'VERIFIED') blockers.push({ kind: 'quorum', target, message: `${target} is decided SUPPORTED but its quorum review is now ${q.tier} (${q.reason})` });
    }
  }
  return blockers;
});

registerGateCheck('disputes', (ctx) => {
  const blockers: GateBlocker[] = [];
  const disputed = ctx.db
    .prepare(
      `SELECT DISTINCT b.claim_id, b.revision_id FROM claim c
       JOIN claim_binding b ON b.claim_id = c.claim_id AND b.generation = c.generation
       JOIN evidence_revision r ON r.revision_id = b.revision_id
       WHERE r.state = 'DISPUTED' ORDER BY b.claim_id, b.revision_id`,
    )
    .all() as { claim_id: string; revision_id: string }[];
  for (const d of disputed) {
    blockers.push({ kind: 'dispute', target: `revision:${d.revision_id}`, message: `revision ${d.revision_id}, bound to claim ${d.claim_id}, is DISPUTED; resolve the dispute (validate, supersede or revoke it)` });
  }
  const decided = new Set(allClaims(ctx).filter((c) => decisionStateOf(ctx, c).state === 'DECIDED').map((c) => c.claim_id));
  for (const c of listClaims(ctx)) {
    if (c.status === 'MIXED' && !decided.has(c.claimId)) {
      blockers.push({ kind: 'dispute', target: `claim:${c.claimId}`, message: `claim ${c.claimId} is MIXED (usable support and refutation) and no current decision resolves it` });
    }
  }
  return blockers;
});

/**
 * A decision in force must still rest on validated evidence. Revocation work (issue 5) fences
 * and remediates such decisions; until a remediation settles them they stay open here. Evidence
 * that was already dead when the decision was proposed was part of what the reviewers weighed
 * (it never counted), so only a change after the proposal reopens the decision.
 */
registerGateCheck('decided evidence', (ctx) => {
  const rows = ctx.db
    .prepare(
      `SELECT d.decision_id, d.claim_id, r.revision_id, r.state FROM decision d
       JOIN claim c ON c.claim_id = d.claim_id
       JOIN claim_binding b ON b.claim_id = d.claim_id AND b.generation = d.generation
       JOIN evidence_revision r ON r.revision_id = b.revision_id
       WHERE d.status = 'APPROVED' AND d.generation = c.generation
         AND b.relation IN ('FULL_SUPPORT', 'PARTIAL_SUPPORT', 'REFUTES')
         AND r.state NOT IN ('VALIDATED', 'DISPUTED')
         AND (SELECT MAX(t.at) FROM evidence_transition t WHERE t.revision_id = r.revision_id) > d.proposed_at
       ORDER BY d.claim_id, r.revision_id`,
    )
    .all() as { decision_id: string; claim_id: string; revision_id: string; state: string }[];
  return rows
    .filter((r) => effectiveDecision(ctx.db, r.claim_id)?.decision_id === r.decision_id)
    .map((r) => ({
      kind: 'revalidation' as const,
      target: `decision:${r.decision_id}`,
      message: `decision ${r.decision_id} on claim ${r.claim_id} rests on ${r.revision_id}, which is ${r.state}; remediate it (retain a successor revision, re-review or withdraw)`,
    }));
});

/** Every open blocker, from every registered check, then the audit chain. Redacted to the actor's clearance. */
export function gateBlockers(ctx: ServiceContext): Blocker[] {
  const hidden = hiddenItems(ctx);
  const blockers: Blocker[] = [];
  for (const [check, run] of gateChecks) for (const b of run(ctx)) blockers.push({ ...b, check });
  const chain = verifyChain(ctx.db);
  if (!chain.ok && chain.firstBroken) {
    blockers.push({ kind: 'chain', target: `audit:seq:${chain.firstBroken.seq}`, message: `the audit chain is broken at seq ${chain.firstBroken.seq} (${chain.firstBroken.kind}): ${chain.firstBroken.reason}`, check: 'audit chain' });
  }
  if (hidden.claims.size === 0 && hidden.revisions.size === 0) return blockers;
  const names = [...hidden.claims].map((c) => `claim:${c}`).concat([...hidden.revisions].map((r) => `revision:${r}`));
  const mentionsHidden = (b: Blocker) => names.some((n) => b.target === n || b.message.includes(n.slice(n.indexOf(':') + 1)));
  return blockers.map((b) => (mentionsHidden(b) ? { kind: b.kind, target: 'hidden', message: HIDDEN_MESSAGE, check: b.check } : b));
}

interface Finalization {
  seq: number;
  certifiedHead: string;
  at: string;
  by: string;
}

function lastFinalization(ctx: ServiceContext): Finalization | null {
  const row = ctx.db.prepare(`SELECT seq, at, actor, body FROM audit_receipt WHERE action = 'case:finalize' ORDER BY seq DESC LIMIT 1`).get() as
    | { seq: number; at: string; actor: string; body: string }
    | undefined;
  if (!row) return null;
  return { seq: row.seq, at: row.at, by: row.actor, certifiedHead: (JSON.parse(row.body) as { certifiedHead: string }).certifiedHead };
}

export function gateStatus(ctx: ServiceContext): ResponseOf<'case:gate'> {
  const blockers = gateBlockers(ctx);
  const head = chainHead(ctx.db);
  const last = lastFinalization(ctx);
  return {
    ready: blockers.length === 0,
    blockers,
    head: head.head,
    lastFinalization: last,
    // FINAL means: finalized, and nothing appended since the finalize receipt.
    final: blockers.length === 0 && last !== null && last.seq === head.seq,
  };
}

/**
 * Finalizes the case when nothing blocks it: appends one receipt certifying the chain head and
 * each claim's outcome. When something blocks it, answers the blockers and writes nothing.
 */
export function finalizeCase(ctx: ServiceContext): ResponseOf<'case:finalize'> {
  assertRole(ctx, ['admin'], 'case:finalize', 'finalizing a case');
  // IMMEDIATE: the checks and the receipt see one state, even with another process on the file.
  return ctx.db.transaction(() => {
    const hidden = hiddenItems(ctx);
    const n = hidden.claims.size + hidden.revisions.size;
    if (n > 0) throw forbidden(`case:finalize: ${n} claim${n === 1 ? ' or revision is' : 's or revisions are'} outside your clearance; finalizing needs an admin cleared for the whole case`);
    const blockers = gateBlockers(ctx);
    const before = chainHead(ctx.db);
    if (blockers.length) return { final: false, blockers, head: before.head, certifiedHead: null };
    const outcomes = allClaims(ctx).map((claim) => {
      const d = effectiveDecision(ctx.db, claim.claim_id);
      return d
        ? { claimId: claim.claim_id, generation: claim.generation, decisionId: d.decision_id, verdict: d.verdict, fingerprint: d.fingerprint }
        : { claimId: claim.claim_id, generation: claim.generation, verdict: 'UNRESOLVED', unresolvedReason: claim.unresolved_reason };
    });
    const { caseId } = readCaseMeta(ctx.db);
    const r = appendReceipt(ctx, { action: 'case:finalize', targets: [`case:${caseId}`], body: { certifiedHead: before.head, claims: outcomes } });
    return { final: true, blockers: [], head: formatHead(r.seq, r.hash), certifiedHead: before.head };
  }).immediate();
}
