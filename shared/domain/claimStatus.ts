import { z } from 'zod';
import {
  EVIDENCE_STRENGTH,
  EvidenceKind,
  type BindingRole,
  type ClaimStatus,
  type Relation,
} from './enums';
import { corroboration, independentGroupsExplained, type Corroboration, type CorroborationItem, type IndependentGroup } from './independence';

/**
 * Claim status derived from usable evidence only (DESIGN §3.3). There is no majority vote anywhere:
 * a single usable refutation against any amount of support makes the claim MIXED, because how many
 * copies agree says nothing about whether the refutation is right; a reviewer has to look.
 */

export interface StatusBinding {
  revisionRef: string;
  relation: Relation;
  /** Carried for the UI; status depends on relation, kind and usability only. */
  role: BindingRole;
  kind: EvidenceKind;
  /** Result of usability() for this revision in this claim's context. */
  usable: boolean;
  independenceGroup: string | null;
  originalSources: readonly string[];
  /** Probable copies of this revision among the claim's other bindings (DESIGN §3.11). */
  copies?: readonly { ref: string; why: string }[];
}

export const ClaimPolicySchema = z.strictObject({
  minIndependentSources: z.number().int().min(1).default(1),
  requiredKinds: z.array(EvidenceKind).max(20).default([]),
  quorumSize: z.number().int().min(1).nullable().default(null),
});

export interface ClaimPolicy {
  minIndependentSources: number;
  requiredKinds: readonly EvidenceKind[];
  /** Used by the review flow (quorum.ts), not by status derivation. */
  quorumSize: number | null;
}

export interface ClaimStatusResult {
  status: ClaimStatus;
  reasons: string[];
  /** Hard support: usable FULL_SUPPORT that counts as evidence, collapsed by independence. */
  support: Corroboration;
  /** Usable PARTIAL_SUPPORT that counts as evidence, collapsed by independence; never counts toward the policy. */
  partial: Corroboration;
  /** Usable refutations that count as evidence, collapsed by independence. */
  refute: Corroboration;
  /** How the full support was counted: one group per independent source, with why items were merged. */
  supportGroups: IndependentGroup[];
  /** When INSUFFICIENT: what the policy lacks (never names a revision). Empty otherwise. */
  shortfall: string[];
  /** Required kinds with no usable FULL or PARTIAL support, in policy order. */
  missingKinds: EvidenceKind[];
}

export interface ClaimStatusInput {
  bindings: readonly StatusBinding[];
  policy: ClaimPolicy;
  unresolvedByReviewer: boolean;
}

/**
 * Why a usable binding still does not count, or null when it does. Self-reports are reference only,
 * and an agent summary is only as good as the sources it traces to (a producer is not a source).
 */
function notCountedBecause(b: StatusBinding): string | null {
  const strength = EVIDENCE_STRENGTH[b.kind];
  if (strength === 'reference_only') return `${b.revisionRef} (${b.kind}) is reference only and never counts as evidence`;
  if (strength === 'derived' && b.originalSources.length === 0) {
    return `${b.revisionRef} (${b.kind}) traces to no original source and does not count`;
  }
  return null;
}

function toItem(b: StatusBinding): CorroborationItem {
  return { ref: b.revisionRef, independenceGroup: b.independenceGroup, originalSources: b.originalSources, copies: b.copies ?? [] };
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function describeCount(c: Corroboration): string {
  return c.all === c.independent ? plural(c.independent, 'independent source') : `${plural(c.all, 'binding')} from ${plural(c.independent, 'independent source')}`;
}

export function deriveClaimStatus(input: ClaimStatusInput): ClaimStatusResult {
  const usable = input.bindings.filter((b) => b.usable);
  const ignored = usable
    .filter((b) => b.relation === 'FULL_SUPPORT' || b.relation === 'PARTIAL_SUPPORT' || b.relation === 'REFUTES')
    .map(notCountedBecause)
    .filter((r): r is string => r !== null);
  // Sorted and deduplicated so the reasons, like the status, do not depend on binding order.
  const ignoredReasons = [...new Set(ignored)].sort();
  const counted = usable.filter((b) => notCountedBecause(b) === null);

  const hard = counted.filter((b) => b.relation === 'FULL_SUPPORT');
  const anySupport = counted.filter((b) => b.relation === 'FULL_SUPPORT' || b.relation === 'PARTIAL_SUPPORT');
  const refuting = counted.filter((b) => b.relation === 'REFUTES');

  const supportGroups = independentGroupsExplained(hard.map(toItem));
  const support = { all: supportGroups.reduce((n, g) => n + g.refs.length, 0), independent: supportGroups.length };
  const partial = corroboration(counted.filter((b) => b.relation === 'PARTIAL_SUPPORT').map(toItem));
  const supportAny = corroboration(anySupport.map(toItem));
  const refute = corroboration(refuting.map(toItem));

  // Presence of a required kind is about what was looked at, so every usable supporting binding counts here.
  const presentKinds = new Set(
    usable.filter((b) => b.relation === 'FULL_SUPPORT' || b.relation === 'PARTIAL_SUPPORT').map((b) => b.kind),
  );
  const missingKinds = [...new Set(input.policy.requiredKinds)].filter((k) => !presentKinds.has(k));

  const result = (status: ClaimStatus, reasons: string[]): ClaimStatusResult => ({
    status,
    reasons: [...reasons, ...ignoredReasons],
    support,
    partial,
    refute,
    supportGroups,
    shortfall: status === 'INSUFFICIENT' ? reasons : [],
    missingKinds,
  });

  if (input.unresolvedByReviewer) {
    return result('UNRESOLVED', ['a reviewer recorded that this claim cannot be decided']);
  }
  if (supportAny.all > 0 && refute.all > 0) {
    return result('MIXED', [
      `usable support (${describeCount(supportAny)}) and usable refutation (${describeCount(refute)}) both present; a reviewer must resolve the dispute`,
    ]);
  }
  if (refute.all > 0) {
    return result('REFUTED', [`refuted by ${describeCount(refute)}; no usable support`]);
  }

  // A policy of 0 would make a claim SUPPORTED on no evidence at all; never allow that.
  const needed = Math.max(1, input.policy.minIndependentSources);
  const reasons: string[] = [];
  if (support.independent < needed) {
    const collapse = support.all > support.independent ? ` (${plural(support.all, 'binding')} collapse to ${plural(support.independent, 'source')})` : '';
    const partialNote = supportAny.all > support.all ? '; partial support does not count toward this' : '';
    reasons.push(`needs ${plural(needed, 'independent source')}, has ${support.independent}${collapse}${partialNote}`);
  }
  for (const kind of missingKinds) reasons.push(`required evidence kind ${kind} missing`);
  if (reasons.length > 0) return result('INSUFFICIENT', reasons);

  return result('SUPPORTED', [`supported by ${describeCount(support)} (policy needs ${needed})`]);
}
