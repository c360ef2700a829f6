import { describe, expect, it } from 'vitest';
import type { BindingRole, Relation } from '../../../shared/domain/enums';
import type { BindingView, RevisionSummary } from '../../../shared/domain/schemas';
import type { ClaimDetail } from '../../../shared/ipc/channels/claims';
import { LARGE_GRAPH_NODES } from './layout';
import { LAYOUT, toFlow, type BindingFlowEdge, type ClaimFlowNode, type EvidenceFlowNode, type WorkbenchFlowNode } from './toFlow';

let nextBinding = 1;
const bind = (claimId: string, revisionId: string, relation: Relation, role: BindingRole): BindingView => ({
  bindingId: nextBinding++,
  claimId,
  generation: 1,
  revisionId,
  relation,
  role,
  rationale: `${relation} by ${revisionId}`,
  createdBy: 'omar.h',
  createdAt: '2026-11-20T10:00:00.000Z',
});

const claim = (claimId: string, status: ClaimDetail['status'], bindings: BindingView[]): ClaimDetail => ({
  claimId,
  statement: `statement of ${claimId}`,
  generation: 1,
  status,
  author: 'omar.h',
  support: { all: 3, independent: 2 },
  partialSupport: { all: 2, independent: 1 },
  refute: { all: 1, independent: 1 },
  scope: [],
  policy: { minIndependentSources: 1, requiredKinds: [], quorumSize: null },
  tenant: 'acme',
  classification: 'internal',
  unresolvedReason: null,
  reasons: [],
  missingKinds: status === 'INSUFFICIENT' ? ['log_record'] : [],
  independence: [],
  bindings,
});

const rev = (revisionId: string, over: Partial<RevisionSummary> = {}): RevisionSummary => ({
  revisionId,
  evidenceId: revisionId.split('@')[0]!,
  revision: Number(revisionId.split('@')[1]),
  title: `title of ${revisionId}`,
  kind: 'telemetry',
  state: 'VALIDATED',
  tenant: 'acme',
  classification: 'internal',
  sourceType: 'edr',
  producer: 'mde',
  observedAt: '2026-11-20T03:24:00Z',
  contentSha256: 'a'.repeat(64),
  ...over,
});

const evidence = [
  rev('ev-edr@1'),
  rev('ev-inv@1', { kind: 'log_record' }),
  rev('ev-note@1', { kind: 'analyst_note', state: 'CANDIDATE' }),
  rev('ev-ti@1', { kind: 'threat_intel', state: 'QUARANTINED' }),
];
const claims = [
  claim('cl-ps', 'MIXED', [
    bind('cl-ps', 'ev-note@1', 'CONTEXT_ONLY', 'CONTEXT'),
    bind('cl-ps', 'ev-inv@1', 'REFUTES', 'SUPPORTING'),
    bind('cl-ps', 'ev-edr@1', 'FULL_SUPPORT', 'REQUIRED'),
  ]),
  claim('cl-exfil', 'INSUFFICIENT', [bind('cl-exfil', 'ev-edr@1', 'PARTIAL_SUPPORT', 'SUPPORTING'), bind('cl-exfil', 'ev-hidden@1', 'REFUTES', 'REQUIRED')]),
];

const byId = (nodes: WorkbenchFlowNode[], id: string) => nodes.find((n) => n.id === id);
const ids = (nodes: WorkbenchFlowNode[]) => nodes.map((n) => n.id);

describe('toFlow', () => {
  // The neighbourhood of the two claims: their evidence, without the unbound ev-ti.
  const drawnEvidence = evidence.filter((r) => r.revisionId !== 'ev-ti@1');
  const flow = toFlow({ claims, evidence: drawnEvidence, selection: null });

  it('draws every claim with its status and |I_c| beside |E_c|', () => {
    const ps = byId(flow.nodes, 'claim:cl-ps') as ClaimFlowNode;
    expect(ps.type).toBe('claim');
    expect(ps.data.status).toBe('MIXED');
    expect(ps.data.support).toEqual({ all: 3, independent: 2 });
    expect(ps.data.partialSupport).toEqual({ all: 2, independent: 1 });
    expect((byId(flow.nodes, 'claim:cl-exfil') as ClaimFlowNode).data.missingKinds).toEqual(['log_record']);
  });

  it('places claims in one column and their evidence in the next, nothing overlapping', () => {
    const claimsX = flow.nodes.filter((n) => n.type === 'claim').map((n) => n.position.x);
    expect(new Set(claimsX)).toEqual(new Set([LAYOUT.claimX]));
    const evidenceX = flow.nodes.filter((n) => n.type === 'evidence').map((n) => n.position.x);
    expect(new Set(evidenceX)).toEqual(new Set([LAYOUT.evidenceX]));
    expect(flow.nodes.filter((n) => n.type === 'evidence').map((n) => n.id).sort()).toEqual(['rev:ev-edr@1', 'rev:ev-inv@1', 'rev:ev-note@1']);
    for (const a of flow.nodes) {
      for (const b of flow.nodes) {
        if (a === b || a.position.x !== b.position.x) continue;
        const apart = a.position.y + a.height! <= b.position.y || b.position.y + b.height! <= a.position.y;
        expect(apart, `${a.id} overlaps ${b.id}`).toBe(true);
      }
    }
  });

  it('draws a revision bound to two claims once, with an edge to each claim', () => {
    expect(ids(flow.nodes).filter((id) => id === 'rev:ev-edr@1')).toHaveLength(1);
    expect((byId(flow.nodes, 'rev:ev-edr@1') as EvidenceFlowNode).data.claimCount).toBe(2);
    const targets = flow.edges.filter((e) => e.source === 'rev:ev-edr@1').map((e) => [e.target, e.data!.relation]);
    expect(targets).toEqual([
      ['claim:cl-ps', 'FULL_SUPPORT'],
      ['claim:cl-exfil', 'PARTIAL_SUPPORT'],
    ]);
  });

  it('types every edge by relation and role, evidence → claim', () => {
    const refutes = flow.edges.find((e) => e.data!.revisionId === 'ev-inv@1') as BindingFlowEdge;
    expect(refutes).toMatchObject({ type: 'binding', source: 'rev:ev-inv@1', target: 'claim:cl-ps' });
    expect(refutes.data).toMatchObject({ relation: 'REFUTES', role: 'SUPPORTING', claimId: 'cl-ps' });
  });

  it('never draws an edge to a revision that is not in the evidence list, and counts it', () => {
    const nodeIds = new Set(ids(flow.nodes));
    for (const e of flow.edges) {
      expect(nodeIds.has(e.source)).toBe(true);
      expect(nodeIds.has(e.target)).toBe(true);
    }
    expect(flow.undrawnBindings).toBe(1);
  });

  it('draws evidence bound to no claim drawn in its own lane, saying how much more the read left out', () => {
    expect(byId(flow.nodes, 'rev:ev-ti@1')).toBeUndefined();
    const withUnbound = toFlow({ claims, evidence, selection: null, unboundNotShown: 12 });
    expect((byId(withUnbound.nodes, 'lane:unbound')!.data as { label: string }).label).toBe('Not bound to a claim shown (1, 12 more not shown)');
    const ti = byId(withUnbound.nodes, 'rev:ev-ti@1') as EvidenceFlowNode;
    expect(ti.position.x).toBe(LAYOUT.unboundX);
    expect(ti.data).toMatchObject({ state: 'QUARANTINED', strength: 'medium', claimCount: 0 });
    // Focused on evidence whose claims were left out: it stands where the evidence column is.
    const alone = toFlow({ claims: [], evidence: [evidence[0]!], selection: null, hidden: { 'rev:ev-edr@1': 2 } });
    expect(alone.nodes.map((n) => [n.id, n.position.x])).toEqual([
      ['lane:unbound', LAYOUT.evidenceX],
      ['rev:ev-edr@1', LAYOUT.evidenceX],
    ]);
    expect((byId(alone.nodes, 'lane:unbound')!.data as { label: string }).label).toBe('Not bound to a claim shown (1)');
  });

  it('carries what the neighbourhood left out of each node, for the view to offer', () => {
    const out = toFlow({ claims, evidence: drawnEvidence, selection: null, hidden: { 'claim:cl-exfil': 1, 'rev:ev-edr@1': 4 } });
    expect((byId(out.nodes, 'claim:cl-exfil') as ClaimFlowNode).data.hidden).toBe(1);
    expect((byId(out.nodes, 'claim:cl-ps') as ClaimFlowNode).data.hidden).toBe(0);
    expect((byId(out.nodes, 'rev:ev-edr@1') as EvidenceFlowNode).data.hidden).toBe(4);
    expect((byId(out.nodes, 'rev:ev-inv@1') as EvidenceFlowNode).data.hidden).toBe(0);
  });

  it('is deterministic: the same case in another order draws the same picture', () => {
    const shuffled = claims.map((c) => ({ ...c, bindings: [...c.bindings].reverse() }));
    const again = toFlow({ claims: shuffled, evidence: [...evidence].reverse(), selection: null });
    const first = toFlow({ claims, evidence, selection: null });
    expect(again.nodes).toEqual(first.nodes);
    expect([...again.edges].sort((a, b) => a.id.localeCompare(b.id))).toEqual([...first.edges].sort((a, b) => a.id.localeCompare(b.id)));
  });

  it('fades nothing for a selection it does not draw', () => {
    const elsewhere = toFlow({ claims, evidence, selection: { kind: 'revision', id: 'ev-far@1' } });
    expect(elsewhere.nodes.filter((n) => n.type !== 'lane').map((n) => (n.data as { dimmed: boolean }).dimmed)).not.toContain(true);
    const claimElsewhere = toFlow({ claims, evidence, selection: { kind: 'claim', id: 'cl-far' } });
    expect(claimElsewhere.edges.map((e) => e.data!.dimmed)).not.toContain(true);
  });

  it('marks the selected node and fades what it does not touch', () => {
    const sel = toFlow({ claims, evidence, selection: { kind: 'claim', id: 'cl-exfil' } });
    expect(byId(sel.nodes, 'claim:cl-exfil')!.selected).toBe(true);
    expect((byId(sel.nodes, 'claim:cl-ps') as ClaimFlowNode).data.dimmed).toBe(true);
    expect((byId(sel.nodes, 'rev:ev-edr@1') as EvidenceFlowNode).data.dimmed).toBe(false);
    expect((byId(sel.nodes, 'rev:ev-inv@1') as EvidenceFlowNode).data.dimmed).toBe(true);
    const edgeDim = Object.fromEntries(sel.edges.map((e) => [`${e.source}->${e.target}`, e.data!.dimmed]));
    expect(edgeDim['rev:ev-edr@1->claim:cl-exfil']).toBe(false);
    expect(edgeDim['rev:ev-edr@1->claim:cl-ps']).toBe(true);

    const byRev = toFlow({ claims, evidence, selection: { kind: 'revision', id: 'ev-edr@1' } });
    expect(byId(byRev.nodes, 'rev:ev-edr@1')!.selected).toBe(true);
    expect((byId(byRev.nodes, 'claim:cl-ps') as ClaimFlowNode).data.dimmed).toBe(false);
    expect((byId(byRev.nodes, 'claim:cl-exfil') as ClaimFlowNode).data.dimmed).toBe(false);
    expect((byId(byRev.nodes, 'rev:ev-inv@1') as EvidenceFlowNode).data.dimmed).toBe(true);
  });

  it('stacks claims without drawn evidence in the claim column, in list order', () => {
    const flowEmpty = toFlow({ claims: [claim('cl-a', 'INSUFFICIENT', []), claim('cl-b', 'SUPPORTED', [])], evidence: [], selection: null });
    expect(flowEmpty.nodes.map((n) => [n.id, n.position.x, n.position.y])).toEqual([
      ['claim:cl-a', LAYOUT.claimX, 0],
      ['claim:cl-b', LAYOUT.claimX, LAYOUT.claimHeight + LAYOUT.bandGap],
    ]);
    expect(flowEmpty.edges).toEqual([]);
  });

  it('carries a claim’s support projection, pending revalidation first, and no projection when the claim has none', () => {
    const pending = { ...claim('cl-p', 'SUPPORTED', []), projection: 'PENDING_REVALIDATION' as const, pendingRevalidation: true };
    const blocked = { ...claim('cl-b', 'SUPPORTED', []), projection: 'BLOCKED' as const, pendingRevalidation: false };
    const plain = claim('cl-n', 'SUPPORTED', []);
    const out = toFlow({ claims: [pending, blocked, plain], evidence: [], selection: null });
    const data = (id: string) => (byId(out.nodes, `claim:${id}`) as ClaimFlowNode).data;
    expect([data('cl-p').projection, data('cl-p').pendingRevalidation]).toEqual(['PENDING_REVALIDATION', true]);
    expect([data('cl-b').projection, data('cl-b').pendingRevalidation]).toEqual(['BLOCKED', false]);
    expect([data('cl-n').projection, data('cl-n').pendingRevalidation]).toEqual([null, false]);
  });

  it('joins each claim’s review state and verdict in force from the review queue, and leaves them null until it loads', () => {
    const review = (claimId: string, decisionState: 'STALE' | 'DECIDED', verdict: 'SUPPORTED' | null) => ({
      claimId,
      statement: '',
      generation: 1,
      status: null,
      decisionState,
      verdict,
      quorumTier: null,
      awaitingMe: null,
      unsettled: null,
    });
    const withReviews = toFlow({ claims, evidence: drawnEvidence, selection: null, reviews: [review('cl-ps', 'STALE', 'SUPPORTED'), review('cl-other', 'DECIDED', null)] });
    expect((byId(withReviews.nodes, 'claim:cl-ps') as ClaimFlowNode).data).toMatchObject({ decisionState: 'STALE', verdict: 'SUPPORTED' });
    expect((byId(withReviews.nodes, 'claim:cl-exfil') as ClaimFlowNode).data).toMatchObject({ decisionState: null, verdict: null });
    // The review queue changes labels, never the layout.
    expect(withReviews.nodes.map((n) => [n.id, n.position])).toEqual(flow.nodes.map((n) => [n.id, n.position]));
  });
});

describe('toFlow on a graph past LARGE_GRAPH_NODES', () => {
  it('gives every node its handle, so React Flow need not mount nodes out of view to measure them; a small graph is measured as drawn', () => {
    const claimsOf = (n: number) => Array.from({ length: n }, (_, i) => claim(`cl-${i}`, 'SUPPORTED', [bind(`cl-${i}`, `ev-${i}@1`, 'FULL_SUPPORT', 'SUPPORTING')]));
    const revisionsOf = (n: number) => Array.from({ length: n }, (_, i) => rev(`ev-${i}@1`));
    const large = toFlow({ claims: claimsOf(300), evidence: revisionsOf(300), selection: null });
    expect(large.nodes.length).toBeGreaterThan(LARGE_GRAPH_NODES);
    for (const n of large.nodes) expect(n.handles, n.id).toHaveLength(1);
    const claimHandle = large.nodes.find((n) => n.type === 'claim')!.handles![0]!;
    expect(claimHandle).toMatchObject({ type: 'target', x: LAYOUT.claimWidth - 5 });
    expect(toFlow({ claims: claimsOf(10), evidence: revisionsOf(10), selection: null }).nodes.every((n) => n.handles === undefined)).toBe(true);
  });
});
