import type { BindingRole } from '../../shared/domain/enums';
import type { RemediationView } from '../../shared/ipc/channels/remediation';
import type { CaseDb } from '../core/store/caseFile';
import { ingestRequest } from './fixtures/evidence';
import { createTestCase, TEST_PASSPHRASE, type TestCase } from './testCase';

/**
 * Fixtures for the revocation tests and bench: a case with an analyst who writes claims, two
 * reviewers and a validated revision with approved decisions resting on it.
 */
export const ACTORS = { analyst: 'ana', revoker: 'rev1', approver: 'rev2' } as const;

export async function addActors(tc: TestCase): Promise<void> {
  tc.as('admin');
  await tc.call('actor:create', { passphrase: TEST_PASSPHRASE, actorId: ACTORS.analyst, displayName: 'Ana (analyst)', role: 'analyst', tenants: ['acme'], maxClassification: 'confidential' });
  await tc.call('actor:create', { passphrase: TEST_PASSPHRASE, actorId: ACTORS.revoker, displayName: 'Rev One', role: 'reviewer', tenants: ['acme'], maxClassification: 'restricted' });
  await tc.call('actor:create', { passphrase: TEST_PASSPHRASE, actorId: ACTORS.approver, displayName: 'Rev Two', role: 'reviewer', tenants: ['acme'], maxClassification: 'restricted' });
}

/** Ingests (as the analyst) and validates (as the revoker) one revision; answers its id. */
export async function validatedRevision(tc: TestCase, evidenceId: string, context: Parameters<typeof ingestRequest>[1] = {}): Promise<string> {
  tc.as(ACTORS.analyst);
  const { revisionId } = await tc.call('evidence:ingest', ingestRequest(evidenceId, context));
  tc.as(ACTORS.revoker);
  await tc.call('evidence:transition', { revisionId, to: 'VALIDATED', reason: 'validation checklist passed' });
  return revisionId;
}

/** A corrected revision of the latest one in `supersedes`' lineage, validated (the old one becomes SUPERSEDED). */
export async function validatedSuccessor(tc: TestCase, supersedes: string): Promise<string> {
  tc.as(ACTORS.revoker);
  const { revisionId } = await tc.call('evidence:revise', { supersedes, content: `corrected content of ${supersedes}`, reason: 'corrected upstream' });
  await tc.call('evidence:transition', { revisionId, to: 'VALIDATED', reason: 'validation checklist passed' });
  return revisionId;
}

/** Records, as the analyst, that each `[from, to]` revision was derived from the other (PROV wasDerivedFrom). */
export async function recordDerivations(tc: TestCase, pairs: [from: string, to: string][]): Promise<void> {
  tc.as(ACTORS.analyst);
  await tc.call('prov:record', { tenant: 'acme', classification: 'internal', nodes: [], edges: pairs.map(([from, to]) => ({ type: 'wasDerivedFrom' as const, from: `rev:${from}`, to: `rev:${to}` })) });
}

export async function claimOn(tc: TestCase, claimId: string, bindings: { revisionId: string; role: BindingRole }[]): Promise<void> {
  tc.as(ACTORS.analyst);
  await tc.call('claim:create', { claimId, statement: `statement of ${claimId}`, scope: ['HOST-FS01'], tenant: 'acme', classification: 'internal' });
  for (const b of bindings) await tc.call('claim:bind', { claimId, revisionId: b.revisionId, relation: 'FULL_SUPPORT', role: b.role, rationale: `why ${b.revisionId}` });
}

/** Proposed by the revoker, approved by the approver: the approver owns any remediation. */
export async function approvedDecision(tc: TestCase, claimId: string, verdict: 'SUPPORTED' | 'NEEDS_MORE_EVIDENCE' = 'SUPPORTED'): Promise<string> {
  tc.as(ACTORS.revoker);
  const rationale = verdict === 'SUPPORTED' ? 'the evidence shows it' : 'not enough evidence yet';
  const d = await tc.call('decision:propose', { claimId, verdict, rationale });
  tc.as(ACTORS.approver);
  await tc.call('decision:approve', { decisionId: d.decisionId, fingerprint: d.fingerprint });
  return d.decisionId;
}

/**
 * `count` claims each bound REQUIRED to `revisionId`, written straight into the tables (no
 * receipts): the tests and the bench measure revocation, not claim creation. Every `decideEvery`th
 * claim gets an approved decision, so the worker opens remediations for those.
 */
export function bulkDependents(db: CaseDb, revisionId: string, count: number, options: { prefix?: string; decideEvery?: number; author?: string } = {}): string[] {
  const prefix = options.prefix ?? 'cl-bulk';
  const author = options.author ?? ACTORS.analyst;
  const at = '2026-11-21T00:00:00.000Z';
  const claim = db.prepare(
    `INSERT INTO claim (claim_id, statement, scope, policy, tenant, classification, author, created_at)
     VALUES (?, ?, '["HOST-FS01"]', '{"minIndependentSources":1,"requiredKinds":[],"quorumSize":null}', 'acme', 'internal', ?, ?)`,
  );
  const bind = db.prepare(
    `INSERT INTO claim_binding (claim_id, generation, revision_id, relation, role, rationale, created_by, created_at)
     VALUES (?, 1, ?, 'FULL_SUPPORT', 'REQUIRED', 'bulk', ?, ?)`,
  );
  const decide = db.prepare(
    `INSERT INTO decision (decision_id, claim_id, generation, verdict, rationale, evidence_refs, computation_refs, fingerprint, status,
       proposed_by, proposed_at, decided_by, decided_at)
     VALUES (?, ?, 1, 'SUPPORTED', 'bulk', ?, '[]', ?, 'APPROVED', ?, ?, ?, ?)`,
  );
  const ids: string[] = [];
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const id = `${prefix}-${String(i).padStart(6, '0')}`;
      claim.run(id, `bulk claim ${i}`, author, at);
      bind.run(id, revisionId, author, at);
      if (options.decideEvery && i % options.decideEvery === 0) {
        decide.run(`dec-${id}`, id, JSON.stringify([revisionId]), '0'.repeat(64), ACTORS.revoker, at, ACTORS.approver, at);
      }
      ids.push(id);
    }
  })();
  return ids;
}

/** A remediation:retainCurrentRevision request naming `successors`, at the remediation's projection version unless told. */
export const retainRequest = (rem: RemediationView, successors: string[], version = rem.projectionVersion) => ({
  remediationId: rem.remediationId,
  successors,
  expectedProjectionVersion: version,
  reason: 'the corrected record says the same about HOST-FS01',
});

/** A test case with the worker scenario's reviewers (ACTORS) added. */
export async function workerCase(): Promise<TestCase> {
  const tc = await createTestCase();
  await addActors(tc);
  return tc;
}

/** Row readers of the case file the test's current case (`tc()`) has open. */
export function rowsOf(tc: () => TestCase): { db: () => CaseDb; all: <T>(sql: string, ...params: unknown[]) => T[]; one: <T>(sql: string, ...params: unknown[]) => T } {
  const db = (): CaseDb => tc().session.db();
  return {
    db,
    all: <T>(sql: string, ...params: unknown[]) => db().prepare(sql).all(...params) as T[],
    one: <T>(sql: string, ...params: unknown[]) => db().prepare(sql).get(...params) as T,
  };
}
