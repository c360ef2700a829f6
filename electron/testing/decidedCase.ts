import type { Relation } from '../../shared/domain/enums';
import { ingestRequest } from './fixtures/evidence';
import type { ReviewCase } from './reviewCase';
import { seededRandom } from './seededRandom';

/**
 * Test helper (not a test): a seeded case of `claims` claims built through the channels the way a
 * team works one, with the shapes that make one revocation matter: evidence shared between claims,
 * refutations and partial support, shared independence groups, evidence derived from other
 * evidence (PROV), candidates never validated, and approved decisions (bob proposes, carol
 * approves) on about a third of the decidable claims. Every run with the same seed builds the same
 * case. Returns the ids it made.
 */
export interface DecidedCase {
  claims: string[];
  revisions: string[];
  decided: string[];
}

const HOSTS = Array.from({ length: 40 }, (_, i) => `HOST-${String(i).padStart(2, '0')}`);
const TOOLS = ['rclone.exe', 'psexec.exe', 'mimikatz', 'AnyDesk', 'a PowerShell loader', 'ntdsutil'];

export async function buildDecidedCase(rc: ReviewCase, options: { claims: number; seed: number }): Promise<DecidedCase> {
  const r = seededRandom(options.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const out: DecidedCase = { claims: [], revisions: [], decided: [] };
  const validated: string[] = [];
  for (let c = 0; c < options.claims; c++) {
    const host = pick(HOSTS);
    const claimId = `cl-${String(c).padStart(5, '0')}`;
    rc.as('alice');
    await rc.call('claim:create', {
      claimId,
      statement: `${pick(TOOLS)} ran on ${host} (claim ${c})`,
      scope: [host],
      tenant: 'acme',
      classification: 'internal',
      policy: { minIndependentSources: r() < 0.3 ? 2 : 1, requiredKinds: [], quorumSize: null },
    });
    out.claims.push(claimId);
    const group = r() < 0.2 ? `grp-${c}` : null;
    const items = 1 + Math.floor(r() * 3);
    for (let e = 0; e < items; e++) {
      rc.as('admin');
      const content =
        `EDR on ${host} recorded ${pick(TOOLS)} at ${String(Math.floor(r() * 24)).padStart(2, '0')}:${String(Math.floor(r() * 60)).padStart(2, '0')} UTC, ` +
        `session ${Math.floor(r() * 1e9)} to 45.${Math.floor(r() * 255)}.${Math.floor(r() * 255)}.${Math.floor(r() * 255)} (item ${c}-${e}).`;
      const { revisionId, state } = await rc.call('evidence:ingest', ingestRequest(`ev-${c}-${e}`, { content, context: { appliesTo: [host], sourceRef: `edr:${c}:${e}`, independenceGroup: group } }));
      out.revisions.push(revisionId);
      if (state === 'CANDIDATE' && r() < 0.92) {
        await rc.call('evidence:transition', { revisionId, to: 'VALIDATED', reason: 'checklist passed' });
        validated.push(revisionId);
      }
      // Some evidence is derived from earlier evidence: revoking the earlier one makes it stale.
      if (validated.length > 1 && r() < 0.15) {
        const parent = validated[Math.floor(r() * (validated.length - 1))]!;
        if (parent !== revisionId) {
          await rc.call('prov:record', { tenant: 'acme', classification: 'internal', nodes: [], edges: [{ type: 'wasDerivedFrom', from: `rev:${revisionId}`, to: `rev:${parent}` }] });
        }
      }
      const roll = r();
      const relation: Relation = roll < 0.7 ? 'FULL_SUPPORT' : roll < 0.85 ? 'PARTIAL_SUPPORT' : 'REFUTES';
      await rc.bind(claimId, revisionId, relation);
    }
    // Evidence that also bears on an earlier claim: one revocation then reaches several claims.
    if (c > 0 && r() < 0.25) {
      const other = out.claims[Math.floor(r() * c)]!;
      const shared = validated[Math.floor(r() * validated.length)];
      rc.as('alice');
      // A pair bound already is refused; the case is as good without it.
      if (shared) await rc.raw('claim:bind', { claimId: other, revisionId: shared, relation: r() < 0.8 ? 'FULL_SUPPORT' : 'REFUTES', role: 'SUPPORTING' });
    }
  }
  rc.as('bob');
  const statuses = await rc.call('claim:list', {});
  for (const claim of statuses) {
    if ((claim.status !== 'SUPPORTED' && claim.status !== 'REFUTED') || r() >= 0.35) continue;
    rc.as('bob');
    const d = await rc.call('decision:propose', { claimId: claim.claimId, verdict: claim.status, rationale: 'checked against the timeline' });
    rc.as('carol');
    await rc.call('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
    out.decided.push(claim.claimId);
  }
  return out;
}
