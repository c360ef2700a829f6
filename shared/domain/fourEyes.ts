/**
 * Four eyes (DESIGN §3.4): whoever wrote a claim, proposed a decision or took the evidence behind
 * a decision out of normal flows may not also be the one who approves, votes on or settles it.
 * The one statement of the rule; the services name the parties and the act, this decides.
 */
export type FourEyesRole = 'claim-author' | 'proposer' | 'revoker';

export interface FourEyesParty {
  role: FourEyesRole;
  /** Who holds that role. */
  actorId: string;
  /** What they authored: a claim id, a decision id, a fence id. */
  ref: string;
}

/**
 * The acts four eyes guards, each with the parties it must be kept apart from. A vote is about
 * the evidence, not a proposal, so only the claim's author is excluded from it.
 */
export const FOUR_EYES: Readonly<Record<FourEyesAct, readonly FourEyesRole[]>> = {
  'approve a decision on it': ['proposer', 'claim-author'],
  'vote in its quorum review': ['claim-author'],
  'retain the decision on a successor': ['proposer', 'claim-author', 'revoker'],
  'resolve the remediation': ['revoker'],
};
export type FourEyesAct = 'approve a decision on it' | 'vote in its quorum review' | 'retain the decision on a successor' | 'resolve the remediation';

const DID: Record<FourEyesRole, (ref: string) => string> = {
  'claim-author': (ref) => `wrote claim ${ref}`,
  proposer: (ref) => `proposed ${ref}`,
  revoker: (ref) => `took the evidence behind it out of normal flows (fence ${ref})`,
};

/**
 * Why `actorId` may not do `act`, or null when four eyes allows it. Parties whose role the act
 * does not exclude are ignored, so callers can pass every party they know of.
 */
export function fourEyesRefusal(actorId: string, act: FourEyesAct, parties: readonly FourEyesParty[]): string | null {
  const excluded = FOUR_EYES[act];
  const conflict = parties.find((p) => p.actorId === actorId && excluded.includes(p.role));
  if (!conflict) return null;
  return `${actorId} ${DID[conflict.role](conflict.ref)} and cannot ${act} (four eyes); another reviewer must`;
}
