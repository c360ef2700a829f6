import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_STATUSES, LIFECYCLE_STATES, RELATIONS } from '../../shared/domain/enums';
import { ensureDemoCase } from './demo';
import { dispatch } from './dispatch';
import { handlers } from './handlers';
import { Session, type Seat } from './session';

const SEED = resolve(import.meta.dirname, '..', '..', 'resources', 'demo-case.json');
let dir: string;
let session: Seat;
const call = async (channel: string, request: unknown) => {
  const answer = await dispatch(handlers, session, channel, request);
  if (!answer.ok) throw new Error(`${channel}: ${answer.error.message}`);
  return answer.value as never;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'erwb-demo-'));
  const path = await ensureDemoCase(SEED, dir);
  session = new Session({ userDataDir: dir, log: () => {} }).seat();
  session.open(path);
  session.unlock('lena.k', 'demo-lena-2231');
});
afterAll(() => {
  session.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the bundled demo case', () => {
  it('is a realistic account-takeover case of about 30 evidence revisions', async () => {
    const info: { name: string; evidenceCount: number; claimCount: number } = await call('case:info', {});
    expect(info.name).toMatch(/Account takeover/);
    expect(info.evidenceCount).toBeGreaterThanOrEqual(28);
    expect(info.claimCount).toBeGreaterThanOrEqual(5);
  });

  it('shows every lifecycle state at least once', async () => {
    const list: { items: { state: string }[] } = await call('evidence:list', { limit: 200 });
    const states = new Set(list.items.map((i) => i.state));
    for (const s of LIFECYCLE_STATES) expect(states, s).toContain(s);
  });

  it('shows every relation and every claim status at least once', async () => {
    const claims: { claimId: string; status: string }[] = await call('claim:list', {});
    expect(new Set(claims.map((c) => c.status))).toEqual(new Set(CLAIM_STATUSES));
    const relations = new Set<string>();
    for (const c of claims) {
      const detail: { bindings: { relation: string }[] } = await call('claim:get', { claimId: c.claimId });
      for (const b of detail.bindings) relations.add(b.relation);
    }
    for (const r of RELATIONS) expect(relations, r).toContain(r);
  });

  it('quarantined the injection attempt and the hash mismatch on ingest', async () => {
    const poisoned: { state: string; transitions: { reason: string }[] } = await call('evidence:get', { revisionId: 'ev-ti-004@1' });
    expect(poisoned.state).toBe('QUARANTINED');
    expect(poisoned.transitions[0]!.reason).toMatch(/quarantined on ingest/);
    const tampered: { state: string } = await call('evidence:get', { revisionId: 'ev-tamper-001@1' });
    expect(tampered.state).toBe('QUARANTINED');
  });

  it('opens with a remediation: the approved lateral-movement decision lost a revision to supersession', async () => {
    const list: { items: { claimId: string; status: string; owner: string; causes: { revisionId: string; cause: string }[] }[] } =
      await call('remediation:list', {});
    expect(list.items).toEqual([
      expect.objectContaining({ claimId: 'cl-rdp', status: 'OPEN', owner: 'lena.k', causes: [expect.objectContaining({ revisionId: 'ev-forensic-002@1', cause: 'SUPERSEDED' })] }),
    ]);
  });

  it('has a verifying audit chain', async () => {
    const v: { ok: boolean; length: number } = await call('audit:verify', {});
    expect(v.ok).toBe(true);
    expect(v.length).toBeGreaterThan(80);
  });
});
