import {
  BINDING_ROLES,
  EVIDENCE_STRENGTH,
  RELATIONS,
  type BindingRole,
  type ClaimStatus,
  type EvidenceKind,
  type EvidenceStrength,
  type LifecycleState,
  type Relation,
  type SupportProjection,
  type Verdict,
} from '../../../shared/domain/enums';
import { Position, type Edge, type Node, type NodeHandle } from '@xyflow/react';
import type { RevisionSummary } from '../../../shared/domain/schemas';
import type { ClaimSummary } from '../../../shared/domain/schemas';
import type { ClaimReviewStanding } from '../../../shared/ipc/channels/review';
import type { GraphSelection } from '../../state/types';
import { LARGE_GRAPH_NODES, LAYOUT, layeredPositions } from './layout';

/**
 * Pure projection of the case's claims and evidence onto React Flow nodes and edges. Everything
 * here is a function of its input: no randomness, no measurement, no clock, so the same case always
 * draws the same picture and the layout can be unit-tested.
 *
 * Layout (layout.ts): claims in one column on the left, the evidence bound to them in the next,
 * ordered by a layered layout so bindings cross as little as possible; evidence bound to no claim
 * drawn stands in a third column.
 */

export { LAYOUT };

export type ClaimNodeData = {
  claimId: string;
  statement: string;
  status: ClaimStatus;
  generation: number;
  support: { all: number; independent: number };
  partialSupport: { all: number; independent: number };
  refute: { all: number; independent: number };
  missingKinds: string[];
  bindingCount: number;
  /** Support projection (DESIGN §3.5) when the claim carries one; PENDING_REVALIDATION right after a fence. */
  projection: SupportProjection | null;
  pendingRevalidation: boolean;
  /** Where the claim's review stands (graph:neighbourhood). */
  decisionState: ClaimReviewStanding['decisionState'] | null;
  /** Verdict of the approved decision in force, if any. */
  verdict: Verdict | null;
  /** Neighbours (bound evidence) not drawn. */
  hidden: number;
  dimmed: boolean;
};

export type EvidenceNodeData = {
  revisionId: string;
  title: string;
  kind: EvidenceKind;
  state: LifecycleState;
  strength: EvidenceStrength;
  /** Number of claims this revision is bound to (an exact revision can serve several claims). */
  claimCount: number;
  /** Neighbours (claims binding it) not drawn. */
  hidden: number;
  dimmed: boolean;
};

export type LaneNodeData = { label: string };

// Type-only: the projection stays a plain function of data, yet its output is exactly React Flow's shape.
export type ClaimFlowNode = Node<ClaimNodeData, 'claim'>;
export type EvidenceFlowNode = Node<EvidenceNodeData, 'evidence'>;
export type LaneFlowNode = Node<LaneNodeData, 'lane'>;
export type WorkbenchFlowNode = ClaimFlowNode | EvidenceFlowNode | LaneFlowNode;

export type BindingEdgeData = {
  bindingId: number;
  claimId: string;
  revisionId: string;
  relation: Relation;
  role: BindingRole;
  rationale: string;
  dimmed: boolean;
};

export type BindingFlowEdge = Edge<BindingEdgeData, 'binding'>;

export interface FlowInput {
  /** The neighbourhood drawn (graph:neighbourhood): its claims in list order, and its evidence. */
  claims: readonly ClaimSummary[];
  evidence: readonly RevisionSummary[];
  selection: GraphSelection | null;
  /** Where each drawn claim's review stands (graph:neighbourhood answers it with the claims). */
  reviews?: readonly ClaimReviewStanding[];
  /** Per node id, neighbours the neighbourhood left out (offered as "+n" to expand). */
  hidden?: Readonly<Record<string, number>>;
  /** Evidence bound to no claim that the neighbourhood listed no more of. */
  unboundNotShown?: number;
}

export interface FlowOutput {
  nodes: WorkbenchFlowNode[];
  edges: BindingFlowEdge[];
  /** Bindings whose revision is not in the evidence list (not visible, or listed later): not drawn. */
  undrawnBindings: number;
}

export const claimNodeId = (claimId: string) => `claim:${claimId}`;
export const revisionNodeId = (revisionId: string) => `rev:${revisionId}`;

const roleRank = (role: BindingRole) => BINDING_ROLES.indexOf(role);
const relationRank = (relation: Relation) => RELATIONS.indexOf(relation);
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function toFlow({ claims, evidence, selection, reviews = [], hidden = {}, unboundNotShown = 0 }: FlowInput): FlowOutput {
  const L = LAYOUT;
  const reviewOf = new Map(reviews.map((r) => [r.claimId, r]));
  const byRevision = new Map(evidence.map((r) => [r.revisionId, r]));
  const claimsOf = new Map<string, Set<string>>();
  let undrawnBindings = 0;
  for (const claim of claims) {
    for (const b of claim.bindings) {
      if (!byRevision.has(b.revisionId)) continue;
      if (!claimsOf.has(b.revisionId)) claimsOf.set(b.revisionId, new Set());
      claimsOf.get(b.revisionId)!.add(claim.claimId);
    }
  }

  // What the selection touches stays in full colour; everything else fades so the neighbourhood
  // reads. A selection the graph does not draw (chosen in another view or on another focus) fades nothing.
  const drawnSelection = selection && (selection.kind === 'claim' ? claims.some((c) => c.claimId === selection.id) : byRevision.has(selection.id)) ? selection : null;
  const focus = focusSet(claims, drawnSelection);
  const dim = (id: string) => focus !== null && !focus.has(id);

  const nodes: WorkbenchFlowNode[] = [];
  const edges: BindingFlowEdge[] = [];
  const placed = new Set<string>();
  const rowStep = L.evidenceHeight + L.rowGap;

  for (const claim of claims) {
    const drawable = claim.bindings.filter((b) => byRevision.has(b.revisionId));
    undrawnBindings += claim.bindings.length - drawable.length;
    const ordered = [...drawable].sort(
      (a, b) => roleRank(a.role) - roleRank(b.role) || relationRank(a.relation) - relationRank(b.relation) || byText(a.revisionId, b.revisionId) || a.bindingId - b.bindingId,
    );
    // A revision bound to several claims is drawn once (laid out after the loop).
    const ownRevisions = [...new Set(ordered.map((b) => b.revisionId))].filter((id) => !placed.has(id));
    const claimId = claimNodeId(claim.claimId);
    nodes.push({
      id: claimId,
      type: 'claim',
      position: { x: L.claimX, y: 0 },
      width: L.claimWidth,
      height: L.claimHeight,
      selected: selection?.kind === 'claim' && selection.id === claim.claimId,
      data: {
        claimId: claim.claimId,
        statement: claim.statement,
        status: claim.status,
        generation: claim.generation,
        support: claim.support,
        partialSupport: claim.partialSupport,
        refute: claim.refute,
        missingKinds: claim.missingKinds,
        bindingCount: drawable.length,
        projection: claim.projection ?? null,
        pendingRevalidation: claim.pendingRevalidation ?? false,
        decisionState: reviewOf.get(claim.claimId)?.decisionState ?? null,
        verdict: reviewOf.get(claim.claimId)?.verdict ?? null,
        hidden: hidden[claimId] ?? 0,
        dimmed: dim(claimId),
      },
    });
    for (const revisionId of ownRevisions) {
      placed.add(revisionId);
      nodes.push(evidenceNode(byRevision.get(revisionId)!, L.evidenceX, 0, claimsOf.get(revisionId)?.size ?? 0, hidden, selection, dim));
    }
    for (const b of ordered) {
      const source = revisionNodeId(b.revisionId);
      edges.push({
        id: `binding:${b.bindingId}`,
        type: 'binding',
        source,
        target: claimId,
        selectable: false,
        data: {
          bindingId: b.bindingId,
          claimId: claim.claimId,
          revisionId: b.revisionId,
          relation: b.relation,
          role: b.role,
          rationale: b.rationale,
          dimmed: focus !== null && !(focus.has(source) && focus.has(claimId)),
        },
      });
    }
  }
  const positions = layeredPositions(
    nodes.filter((n) => n.type === 'claim').map((n) => n.id),
    nodes.filter((n) => n.type === 'evidence').map((n) => n.id),
    edges,
  );
  for (const n of nodes) n.position = positions.get(n.id)!;
  // A large graph mounts only the nodes in view; React Flow would still mount every node once to
  // measure where its handle is, unless told: the handles sit at fixed places on fixed-size nodes.
  if (nodes.length > LARGE_GRAPH_NODES) for (const n of nodes) n.handles = handlesOf(n.type === 'claim' ? 'claim' : 'evidence');

  // Evidence bound to no claim drawn here: evidence bound to none at all (listed on request), or
  // a focus whose claims were left out.
  const unbound = evidence.filter((r) => !claimsOf.has(r.revisionId)).sort((a, b) => byText(a.revisionId, b.revisionId));
  if (unbound.length > 0) {
    const more = unboundNotShown > 0 ? `, ${unboundNotShown} more not shown` : '';
    nodes.push({
      id: 'lane:unbound',
      type: 'lane',
      position: { x: claims.length > 0 ? L.unboundX : L.evidenceX, y: 0 },
      width: L.evidenceWidth,
      height: L.laneHeight,
      selected: false,
      selectable: false,
      data: { label: `Not bound to a claim shown (${unbound.length}${more})` },
    });
    unbound.forEach((r, i) => nodes.push(evidenceNode(r, claims.length > 0 ? L.unboundX : L.evidenceX, L.laneHeight + L.rowGap + i * rowStep, 0, hidden, selection, dim)));
  }
  return { nodes, edges, undrawnBindings };
}

/** Where ClaimNode and EvidenceNode draw their one handle (10 px, centred on the side it sits on; styles.css). */
function handlesOf(type: 'claim' | 'evidence'): NodeHandle[] {
  const size = 10;
  return type === 'claim'
    ? [{ type: 'target', position: Position.Right, x: LAYOUT.claimWidth - size / 2, y: LAYOUT.claimHeight / 2 - size / 2, width: size, height: size }]
    : [{ type: 'source', position: Position.Left, x: -size / 2, y: LAYOUT.evidenceHeight / 2 - size / 2, width: size, height: size }];
}

function evidenceNode(
  r: RevisionSummary,
  x: number,
  y: number,
  claimCount: number,
  hidden: Readonly<Record<string, number>>,
  selection: GraphSelection | null,
  dim: (id: string) => boolean,
): EvidenceFlowNode {
  const id = revisionNodeId(r.revisionId);
  return {
    id,
    type: 'evidence',
    position: { x, y },
    width: LAYOUT.evidenceWidth,
    height: LAYOUT.evidenceHeight,
    selected: selection?.kind === 'revision' && selection.id === r.revisionId,
    data: {
      revisionId: r.revisionId,
      title: r.title,
      kind: r.kind,
      state: r.state,
      strength: EVIDENCE_STRENGTH[r.kind],
      claimCount,
      hidden: hidden[id] ?? 0,
      dimmed: dim(id),
    },
  };
}

/** Node ids in the neighbourhood of the selection, or null when nothing is selected. */
function focusSet(claims: readonly ClaimSummary[], selection: GraphSelection | null): Set<string> | null {
  if (!selection) return null;
  const ids = new Set<string>();
  for (const claim of claims) {
    const touches = selection.kind === 'claim' ? claim.claimId === selection.id : claim.bindings.some((b) => b.revisionId === selection.id);
    if (!touches) continue;
    ids.add(claimNodeId(claim.claimId));
    for (const b of claim.bindings) {
      if (selection.kind === 'claim' || b.revisionId === selection.id) ids.add(revisionNodeId(b.revisionId));
    }
  }
  ids.add(selection.kind === 'claim' ? claimNodeId(selection.id) : revisionNodeId(selection.id));
  return ids;
}
