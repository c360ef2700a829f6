import { fourEyesRefusal } from '../../../shared/domain/fourEyes';
import { voteValidity, type KillReason } from '../../../shared/domain/review';
import { unsettledProjection } from '../../../shared/domain/supportProjection';
import type { ClaimReview, ClaimReviewStanding, ClaimReviewSummary, QuorumView, VoteView } from '../../../shared/ipc/channels/review';
import type { ParsedRequestOf, ResponseOf } from '../../../shared/ipc/contract';
import { reviewFilterCounts, reviewQueueView, reviewUrgency } from '../../../shared/ipc/reviewQueue';
import { appendReceipt } from '../audit/receipts';
import type { ServiceContext } from '../context';
import { conflict, forbidden, invalid } from '../errors';
import { listClaims } from './claims';
import {
  assertRole,
  assertSeesAll,
  claimBasis,
  visibleRefs,
  voteBasisFingerprint,
} from './claimBasis';
import { loadVisibleClaim, policyOf, visibleClaims, type ClaimRow } from '../store/claimRows';
import { effectiveDecision, openProposal, voteState, type VoteRow } from '../store/reviewRows';
import { currency, TERMINAL_VERDICTS, toDecisionView } from './decisions';
import { quorumOf, quorumView, toVoteView } from './quorum';
import { writeTransaction } from '../store/caseFile';
import { perClaim, type ClaimSet } from './claimMemo';
import { awaitingReviewer, VOTERS } from './reviewRoles';

/**
 * Records one reviewer's quorum vote. Invalid votes (checklist incomplete, no reason) are kept, so
 * the record shows who voted how, but never count. Re-voting appends a new row that replaces the
 * reviewer's earlier vote; the earlier one stays as history.
 */
export function castVote(ctx: ServiceContext, req: ParsedRequestOf<'review:vote'>): { vote: VoteView; quorum: QuorumView } {
  const channel = 'review:vote';
  assertRole(ctx, VOTERS, channel, 'voting in a quorum review');
  return writeTransaction(ctx.db, () => {
    const claim = loadVisibleClaim(ctx, req.claimId, channel);
    const size = policyOf(claim).quorumSize;
    if (size === null) throw conflict(`${channel}: claim ${claim.claim_id} has no quorum policy; votes are taken only on claims that require a quorum review`);
    const refusal = fourEyesRefusal(ctx.actor.actorId, 'vote in its quorum review', [{ role: 'claim-author', actorId: claim.author, ref: claim.claim_id }]);
    if (refusal) throw forbidden(`${channel}: ${refusal}`);
    const basis = claimBasis(ctx.db, claim);
    assertSeesAll(ctx, basis.evidenceRefs, channel, 'voting');
    const basisFp = voteBasisFingerprint(basis);
    if (req.basis !== basisFp) {
      throw conflict(`${channel}: claim ${claim.claim_id} changed since you reviewed it (basis ${req.basis.slice(0, 12)}…, now ${basisFp.slice(0, 12)}…: its generation or bound evidence moved); reload it with review:get and review it again`);
    }
    const validity = voteValidity({ checklist: req.checklist, reason: req.reason });
    const previous = ctx.db.prepare('SELECT vote_id FROM review_vote WHERE claim_id = ? AND reviewer = ? ORDER BY vote_id DESC LIMIT 1').get(claim.claim_id, ctx.actor.actorId) as
      | { vote_id: number }
      | undefined;
    const killReasons: KillReason[] = [...new Set(req.killReasons)];
    const info = ctx.db
      .prepare(
        `INSERT INTO review_vote (claim_id, generation, basis, reviewer, refuted, checklist, reason, kill_reasons, valid, cast_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(claim.claim_id, basis.generation, basisFp, ctx.actor.actorId, req.refuted === null ? null : Number(req.refuted), JSON.stringify(req.checklist), req.reason, JSON.stringify(killReasons), Number(validity.valid), ctx.now());
    const row = ctx.db.prepare('SELECT * FROM review_vote WHERE vote_id = ?').get(info.lastInsertRowid) as VoteRow;
    const quorum = quorumView(ctx, claim, size);
    appendReceipt(ctx, {
      action: channel,
      targets: [`vote:${row.vote_id}`, `claim:${claim.claim_id}`],
      body: {
        voteId: row.vote_id,
        claimId: claim.claim_id,
        generation: basis.generation,
        basis: basisFp,
        refuted: req.refuted,
        checklist: req.checklist,
        reason: req.reason,
        killReasons,
        valid: validity.valid,
        problems: validity.problems,
        replaces: previous?.vote_id ?? null,
        outcome: { tier: quorum.tier, survives: quorum.survives, validVotes: quorum.validVotes, refuteVotes: quorum.refuteVotes, killReasons: quorum.killReasons },
      },
      post: voteState(row),
    });
    return { vote: toVoteView(row), quorum };
  });
}

/** Where a claim's review stands: the gate and the UI read the same answer. */
export function decisionStateOf(ctx: ServiceContext, claim: ClaimRow): { state: ClaimReview['decisionState']; message: string } {
  const effective = effectiveDecision(ctx.db, claim.claim_id);
  const open = openProposal(ctx.db, claim.claim_id);
  if (effective) {
    const now = currency(ctx, effective);
    if (!now.current) return { state: 'STALE', message: `approved decision ${effective.decision_id} is stale: ${now.changes.join('; ')}` };
    if (TERMINAL_VERDICTS.has(effective.verdict)) {
      return { state: 'DECIDED', message: `decided ${effective.verdict} by ${effective.decision_id}, approved by ${effective.decided_by}` };
    }
    return { state: open ? 'PROPOSED' : 'UNDECIDED', message: `approved decision ${effective.decision_id} says ${effective.verdict}: the claim is still open` };
  }
  if (claim.unresolved_reason !== null) return { state: 'UNRESOLVED', message: `recorded UNRESOLVED: ${claim.unresolved_reason}` };
  if (open) return { state: 'PROPOSED', message: `proposal ${open.decision_id} (${open.verdict}) awaits approval by a second reviewer` };
  return { state: 'UNDECIDED', message: 'no decision has been proposed' };
}

export function getClaimReview(ctx: ServiceContext, claimId: string): ClaimReview {
  const claim = loadVisibleClaim(ctx, claimId, 'review:get');
  const basis = claimBasis(ctx.db, claim);
  const visible = visibleRefs(ctx.db, ctx.actor, basis.evidenceRefs);
  const rows = ctx.db.prepare('SELECT * FROM decision WHERE claim_id = ? ORDER BY rowid').all(claim.claim_id) as Parameters<typeof toDecisionView>[1][];
  const decisions = rows.map((d) => toDecisionView(ctx, d));
  const { state, message } = decisionStateOf(ctx, claim);
  return {
    claimId: claim.claim_id,
    statement: claim.statement,
    author: claim.author,
    generation: claim.generation,
    basis: voteBasisFingerprint(basis),
    evidenceRefs: basis.evidenceRefs.filter((r) => visible.has(r)),
    hiddenEvidenceRefs: basis.evidenceRefs.length - visible.size,
    decisionState: state,
    decisionMessage: message,
    effectiveDecision: decisions.find((d) => d.effective) ?? null,
    openProposal: decisions.find((d) => d.status === 'PROPOSED') ?? null,
    decisions,
    quorum: quorumOf(ctx, claim),
  };
}

/**
 * Where a claim's review stands, as the review queue and the completion gate read it: the
 * decision state, the verdict in force, the quorum (for a claim that requires one) and whether a
 * newer proposal is open on a decided claim.
 */
export interface ReviewStanding {
  state: ClaimReview['decisionState'];
  message: string;
  verdict: ClaimReviewSummary['verdict'];
  quorum: Pick<QuorumView, 'tier' | 'reason'> | null;
  newerProposalOpen: boolean;
  /** The open proposal, the same for every reader (whether it cites evidence hidden from one is asked per reader). */
  openProposal: { proposer: string; current: boolean; evidenceRefs: string[] } | null;
  /** Quorum claims: who has a vote on the current basis. */
  voters: string[] | null;
}

function reviewStandingOf(ctx: ServiceContext, claim: ClaimRow): ReviewStanding {
  const { state, message } = decisionStateOf(ctx, claim);
  const effective = effectiveDecision(ctx.db, claim.claim_id);
  const q = quorumOf(ctx, claim);
  const open = openProposal(ctx.db, claim.claim_id);
  return {
    state,
    message,
    verdict: effective?.verdict ?? null,
    quorum: q ? { tier: q.tier, reason: q.reason } : null,
    newerProposalOpen: state === 'DECIDED' && open !== null,
    openProposal: open ? { proposer: open.proposed_by, current: currency(ctx, open).current, evidenceRefs: JSON.parse(open.evidence_refs) as string[] } : null,
    voters: q ? q.votes.map((v) => v.reviewer) : null,
  };
}

/** The claims of `set` with their review standings, kept between reads until a change touches the claim (claimMemo.ts). */
export function reviewStandings(ctx: ServiceContext, set: ClaimSet): { claims: ClaimRow[]; values: ReviewStanding[] } {
  return perClaim(ctx, 'review', set, (claims) => claims.map((claim) => reviewStandingOf(ctx, claim)));
}

/** Where each claim of `set` stands in review, as a graph node shows it (kept between reads like the queue's). */
export function claimReviewStandings(ctx: ServiceContext, set: ClaimSet): ClaimReviewStanding[] {
  const { claims, values } = reviewStandings(ctx, set);
  return claims.map((claim, i) => ({ claimId: claim.claim_id, decisionState: values[i]!.state, verdict: values[i]!.verdict, quorumTier: values[i]!.quorum?.tier ?? null }));
}

/** A place: its urgency digit, a dot, then (to the end: `.+` with the s flag takes the rest) the claim id. */
const CURSOR = /^(\d)\.(.+)/s;

/**
 * review:page: a page of the review queue in its order (shared/ipc/reviewQueue.ts), filtered in
 * the store, with each filter's count on request. The cursor is the place of the page's last
 * claim (its urgency then, and the claim): the next page starts after that place, so a claim
 * whose review moved meanwhile does not shift the pages after it. One naming no claim the reader
 * may see is refused.
 */
export function pageClaimReviews(ctx: ServiceContext, req: ParsedRequestOf<'review:page'>): ResponseOf<'review:page'> {
  const all = listClaimReviews(ctx).items;
  const order = new Map(all.map((item, i) => [item.claimId, i]));
  const shown = reviewQueueView(all, req.filter);
  let start = 0;
  if (req.after !== undefined) {
    const m = CURSOR.exec(req.after);
    const at = m ? order.get(m[2]!) : undefined;
    if (!m || at === undefined) {
      throw invalid('review:page: after is not a place in your review queue; pass back the nextCursor of the page before', [{ path: ['after'], message: 'expected the nextCursor of the page before' }]);
    }
    const urgency = Number(m[1]);
    const after = shown.findIndex((item) => {
      const u = reviewUrgency(item);
      return u > urgency || (u === urgency && order.get(item.claimId)! > at);
    });
    start = after < 0 ? shown.length : after;
  }
  const items = shown.slice(start, start + req.limit);
  const last = items[items.length - 1];
  return {
    items,
    nextCursor: last !== undefined && start + items.length < shown.length ? `${reviewUrgency(last)}.${last.claimId}` : null,
    ...(req.counts ? { counts: reviewFilterCounts(all) } : {}),
  };
}

/** One line per visible claim for a review queue: derived status beside where its review stands. */
export function listClaimReviews(ctx: ServiceContext): { items: ClaimReviewSummary[] } {
  const summaries = new Map(listClaims(ctx).map((c) => [c.claimId, c]));
  const { claims, values: standings } = reviewStandings(ctx, visibleClaims(ctx));
  return {
    items: claims.map((claim, i) => {
      const standing = standings[i]!;
      const p = standing.openProposal;
      const openProposal = p ? { proposer: p.proposer, current: p.current, citesHidden: visibleRefs(ctx.db, ctx.actor, p.evidenceRefs).size < p.evidenceRefs.length } : null;
      return {
        claimId: claim.claim_id,
        statement: claim.statement,
        generation: claim.generation,
        status: summaries.get(claim.claim_id)?.status ?? null,
        decisionState: standing.state,
        verdict: standing.verdict,
        quorumTier: standing.quorum?.tier ?? null,
        awaitingMe: awaitingReviewer(ctx.actor, { claimId: claim.claim_id, author: claim.author, state: standing.state, openProposal, voters: standing.voters }),
        unsettled: unsettledProjection(summaries.get(claim.claim_id)?.projection),
      };
    }),
  };
}
