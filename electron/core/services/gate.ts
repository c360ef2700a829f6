import type { ChainVerification } from '../../../shared/ipc/channels/audit';
import { BLOCKER_KINDS, type Blocker } from '../../../shared/ipc/channels/gate';
import type { ParsedRequestOf, ResponseOf } from '../../../shared/ipc/contract';
import { finalLock } from '../audit/caseLock';
import { appendReceipt } from '../audit/receipts';
import { chainHead, formatHead, verifyChain } from '../audit/verify';
import type { ServiceContext } from '../context';
import { conflict, forbidden } from '../errors';
import { aclFilter, seesEverything } from '../store/acl';
import { effectiveDecision } from '../store/reviewRows';
import { readCaseMeta } from './caseMeta';
import { assertRole } from './claimBasis';
import { allClaims, GATE_CHECKS, type GateCheck } from './gateChecks';
import { writeTransaction } from '../store/caseFile';

/**
 * The completion gate (DESIGN §3.4): runs the checks of gateChecks.ts and the audit chain, and
 * finalizes the case only when nothing blocks it.
 */
/**
 * Claims and revisions the actor cannot see that a blocker could name (bound to a claim, or
 * fenced: an unconverged quarantine of an unbound revision blocks too): named only as `hidden`.
 */
function hiddenItems(ctx: ServiceContext): { claims: Set<string>; revisions: Set<string> } {
  // Nothing to look for (each query below would walk every row to find none).
  if (seesEverything(ctx.actor)) return { claims: new Set(), revisions: new Set() };
  const cl = aclFilter(ctx.actor, 'c');
  const ev = aclFilter(ctx.actor, 'r');
  const claims = ctx.db.prepare(`SELECT c.claim_id FROM claim c WHERE NOT (${cl.sql})`).all(...cl.params) as { claim_id: string }[];
  const revisions = ctx.db
    .prepare(
      `SELECT r.revision_id FROM evidence_revision r WHERE NOT (${ev.sql})
         AND (EXISTS (SELECT 1 FROM claim_binding b WHERE b.revision_id = r.revision_id)
           OR EXISTS (SELECT 1 FROM revocation_fence f WHERE f.revision_id = r.revision_id))`,
    )
    .all(...ev.params) as { revision_id: string }[];
  return { claims: new Set(claims.map((c) => c.claim_id)), revisions: new Set(revisions.map((r) => r.revision_id)) };
}

const HIDDEN_MESSAGE = 'an item outside your clearance blocks finalization; an admin cleared for the whole case can see which';

/**
 * Every open blocker, from each check in `checks` (the gate's own list unless a test passes
 * another), then the audit chain as `chain` verified it (the caller verifies: in full, or
 * routinely from this machine's mark). Redacted to the actor's clearance.
 */
export function gateBlockers(ctx: ServiceContext, chain: ChainVerification, checks: readonly GateCheck[] = GATE_CHECKS): Blocker[] {
  const hidden = hiddenItems(ctx);
  const blockers: Blocker[] = [];
  // Each check's blockers are its own new objects: named in place (a case of 10,000 claims has 10,000).
  for (const check of checks) for (const b of check.blockers(ctx)) blockers.push(Object.assign(b, { check: check.name }));
  if (!chain.ok && chain.firstBroken) {
    blockers.push({ kind: 'chain', target: `audit:seq:${chain.firstBroken.seq}`, message: `the audit chain is broken at seq ${chain.firstBroken.seq} (${chain.firstBroken.kind}): ${chain.firstBroken.reason}`, check: 'audit chain' });
  }
  // Stryker disable next-line ConditionalExpression: a shortcut; with nothing hidden no blocker mentions a hidden item, and the map below returns them unchanged
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

/** The completion gate as `ctx.actor` may see it, with the audit chain as `chain` verified it; the blockers of `page`. */
export function gateStatus(ctx: ServiceContext, chain: ChainVerification, page: ParsedRequestOf<'case:gate'> = { offset: 0, limit: Number.MAX_SAFE_INTEGER }): ResponseOf<'case:gate'> {
  const blockers = gateBlockers(ctx, chain);
  const head = chainHead(ctx.db);
  const byKind = Object.fromEntries(BLOCKER_KINDS.map((k) => [k, 0])) as ResponseOf<'case:gate'>['byKind'];
  for (const b of blockers) byKind[b.kind] += 1;
  return {
    ready: blockers.length === 0,
    blockers: blockers.slice(page.offset, page.offset + page.limit),
    total: blockers.length,
    byKind,
    head: head.head,
    lastFinalization: lastFinalization(ctx),
    final: finalLock(ctx.db) !== null,
  };
}

/**
 * case:reopen: an admin makes a FINAL case DRAFT again, with a reason. One receipt; from then on
 * changes are accepted, and the case is FINAL again only through the completion gate.
 */
export function reopenCase(ctx: ServiceContext, req: ParsedRequestOf<'case:reopen'>): ResponseOf<'case:reopen'> {
  assertRole(ctx, ['admin'], 'case:reopen', 'reopening a FINAL case');
  return writeTransaction(ctx.db, () => {
    const lock = finalLock(ctx.db);
    if (!lock) throw conflict('case:reopen: the case is not FINAL; there is nothing to reopen');
    const { caseId } = readCaseMeta(ctx.db);
    const r = appendReceipt(ctx, { action: 'case:reopen', targets: [`case:${caseId}`], body: { reason: req.reason, reopens: lock.seq } });
    return { reopenedSeq: r.seq, finalizationSeq: lock.seq, head: formatHead(r.seq, r.hash) };
  });
}

/**
 * Finalizes the case when nothing blocks it: appends one receipt certifying the chain head and
 * each claim's outcome. When something blocks it, answers the blockers and writes nothing.
 */
export function finalizeCase(ctx: ServiceContext): ResponseOf<'case:finalize'> {
  assertRole(ctx, ['admin'], 'case:finalize', 'finalizing a case');
  // The write lock up front: the checks and the receipt see one state, even with another process on the file.
  return writeTransaction(ctx.db, () => {
    const hidden = hiddenItems(ctx);
    const n = hidden.claims.size + hidden.revisions.size;
    if (n > 0) throw forbidden(`case:finalize: ${n} claim${n === 1 ? ' or revision is' : 's or revisions are'} outside your clearance; finalizing needs an admin cleared for the whole case`);
    // Finalizing certifies the head: the whole chain is verified, whatever this machine verified before.
    const blockers = gateBlockers(ctx, verifyChain(ctx.db));
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
  });
}
