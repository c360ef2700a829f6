import type { DrillChange } from '../../../shared/ipc/channels/drill';
import type { ServiceContext } from '../context';
import { aclFilter } from '../store/acl';
import { effectiveDecisions, type DecisionRow } from '../store/reviewRows';
import { visibleClaims } from '../store/claimRows';
import { listClaims } from '../services/claims';
import { currency } from '../services/decisions';
import { reviewStandings } from '../services/review';

/**
 * What the drill compares before and after each of its stages (on the copy): every visible claim's
 * derived status, usable support counts, support projection and review standing (decision state,
 * quorum tier), and every decision on a visible claim with whether it is in force and current. Values are strings so a change reads as
 * `before → after`.
 */
interface Facts {
  claimId: string;
  fields: Record<string, string>;
}

export interface Snapshot {
  claims: Map<string, Facts>;
  decisions: Map<string, Facts>;
}

/** Fields whose change means a claim took the planted item as evidence; the others only flag it. */
const ADOPTED_CLAIM_FIELDS = new Set(['status', 'support', 'partialSupport', 'refute']);
const ADOPTED_DECISION_FIELDS = new Set(['status', 'verdict']);

const count = (c: { all: number; independent: number }) => `${c.all} bound / ${c.independent} independent`;

export function snapshot(ctx: ServiceContext): Snapshot {
  const claims = new Map<string, Facts>();
  const projections = new Map<string, string>();
  const standings = reviewStandings(ctx, visibleClaims(ctx));
  const review = new Map(standings.claims.map((c, i) => [c.claim_id, standings.values[i]!]));
  for (const c of listClaims(ctx)) {
    const projection = `${c.projection ?? 'none'}${c.pendingRevalidation ? ' (pending revalidation)' : ''}`;
    const standing = review.get(c.claimId);
    projections.set(c.claimId, projection);
    claims.set(c.claimId, {
      claimId: c.claimId,
      fields: {
        status: c.status,
        support: count(c.support),
        partialSupport: count(c.partialSupport),
        refute: count(c.refute),
        projection,
        review: `${standing?.state ?? 'none'}${standing?.quorum ? `, quorum ${standing.quorum.tier}` : ''}`,
      },
    });
  }
  const acl = aclFilter(ctx.actor, 'c');
  const rows = ctx.db
    .prepare(`SELECT d.* FROM decision d JOIN claim c ON c.claim_id = d.claim_id WHERE ${acl.sql} ORDER BY d.rowid`)
    .all(...acl.params) as DecisionRow[];
  const effective = effectiveDecisions(ctx.db, [...new Set(rows.map((d) => d.claim_id))]);
  const decisions = new Map<string, Facts>();
  for (const d of rows) {
    const current = currency(ctx, d).current;
    decisions.set(d.decision_id, {
      claimId: d.claim_id,
      fields: {
        status: d.status,
        verdict: d.verdict,
        inForce: String(effective.get(d.claim_id)?.decision_id === d.decision_id),
        current: String(current),
        // A current decision shows its claim's projection (decisions.ts); a stale one is re-reviewed instead.
        projection: current ? (projections.get(d.claim_id) ?? 'none') : 'n/a (not current)',
      },
    });
  }
  return { claims, decisions };
}

function changesOf(kind: DrillChange['kind'], before: Map<string, Facts>, after: Map<string, Facts>, adoptedFields: ReadonlySet<string>): DrillChange[] {
  const out: DrillChange[] = [];
  for (const id of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const a = before.get(id);
    const b = after.get(id);
    const names = [...new Set([...Object.keys(a?.fields ?? {}), ...Object.keys(b?.fields ?? {})])];
    const fields = names
      .map((field) => ({ field, before: a?.fields[field] ?? '(absent)', after: b?.fields[field] ?? '(absent)' }))
      .filter((f) => f.before !== f.after);
    if (fields.length === 0) continue;
    // A claim or decision that appeared or vanished counts as taken in, whatever moved with it.
    const adopted = !a || !b || fields.some((f) => adoptedFields.has(f.field));
    out.push({ kind, id, claimId: (b ?? a)!.claimId, fields, direction: adopted ? 'adopted' : 'flagged' });
  }
  return out;
}

/** Every claim and decision that differs between two snapshots, with the fields that moved. */
export function changesBetween(before: Snapshot, after: Snapshot): DrillChange[] {
  return [...changesOf('claim', before.claims, after.claims, ADOPTED_CLAIM_FIELDS), ...changesOf('decision', before.decisions, after.decisions, ADOPTED_DECISION_FIELDS)];
}

/** Decisions on `claimIds` that are in force or proposed: with the claims, what the planted items could reach. */
export function decisionsOn(s: Snapshot, claimIds: ReadonlySet<string>): string[] {
  return [...s.decisions.entries()]
    .filter(([, d]) => claimIds.has(d.claimId) && (d.fields.inForce === 'true' || d.fields.status === 'PROPOSED'))
    .map(([id]) => id)
    .sort();
}
