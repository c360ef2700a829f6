import { beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkbenchCallError } from '../../shared/ipc/envelope';

// The store talks to the host only through bridge.call; replace it with a scripted fake.
const call = vi.fn();
vi.mock('../bridge', () => ({ call: (...args: unknown[]) => call(...args) }));

const { useWorkbench } = await import('./store');

const summary = (revisionId: string, state = 'VALIDATED') => ({
  revisionId,
  evidenceId: revisionId.split('@')[0],
  revision: 1,
  title: revisionId,
  kind: 'telemetry',
  state,
  tenant: 'acme',
  classification: 'internal',
  sourceType: 'edr',
  producer: 'mde',
  observedAt: null,
  contentSha256: 'c'.repeat(64),
});
const detail = (revisionId: string, state = 'VALIDATED') => ({ ...summary(revisionId, state), content: `content of ${revisionId}`, transitions: [] });

/** A host with a fixed evidence list; counts the calls per channel. */
function host(listed: string[], states: Record<string, string> = {}) {
  call.mockImplementation(async (channel: string, req: { revisionId?: string }) => {
    switch (channel) {
      case 'evidence:list':
        return { items: listed.map((id) => summary(id, states[id])), nextCursor: null };
      case 'evidence:get':
        if (!listed.includes(req.revisionId!)) throw new WorkbenchCallError('evidence:get', { code: 'NOT_FOUND', message: `evidence:get: no revision ${req.revisionId}` });
        return detail(req.revisionId!, states[req.revisionId!]);
      case 'claim:list':
        return [];
      case 'audit:verify':
        return { ok: true, length: 1, head: 'h', firstBroken: null };
      case 'audit:list':
        return { items: [] };
      case 'audit:head':
        return { seq: 1, hash: 'h', head: 'erwb-head:1:h' };
      case 'audit:keys':
      case 'review:list':
        return { items: [] };
      case 'case:gate':
        return { ready: false, blockers: [], total: 0, byKind: {}, head: 'erwb-head:1:h', lastFinalization: null, final: false };
      case 'case:info':
        // Unlocked: the store reads the rest of the case only once a reviewer acts in this window.
        return { actor: { actorId: 'priya.s' } };
      case 'actor:list':
        return [];
      case 'case:recent':
        return { cases: [] };
      default:
        throw new Error(`unexpected channel ${channel}`);
    }
  });
}
const calls = (channel: string) => call.mock.calls.filter(([c]) => c === channel).length;

beforeEach(() => {
  call.mockReset();
  useWorkbench.setState({ revisionDetails: {}, evidenceError: null });
});

describe('evidence slice', () => {
  it('fetches each missing detail once, however many views ask at the same time', async () => {
    host(['ev-a@1', 'ev-b@1']);
    await Promise.all([
      useWorkbench.getState().ensureRevisionDetails(['ev-a@1', 'ev-b@1']),
      useWorkbench.getState().ensureRevisionDetails(['ev-a@1']),
    ]);
    await useWorkbench.getState().ensureRevisionDetails(['ev-a@1']);
    expect(calls('evidence:get')).toBe(2);
    expect(Object.keys(useWorkbench.getState().revisionDetails).sort()).toEqual(['ev-a@1', 'ev-b@1']);
  });

  it('on refresh reads the kept details again and drops the ones no longer visible, reporting nothing', async () => {
    host(['ev-a@1', 'ev-b@1']);
    await useWorkbench.getState().ensureRevisionDetails(['ev-a@1', 'ev-b@1']);
    host(['ev-a@1'], { 'ev-a@1': 'DISPUTED' });
    await useWorkbench.getState().refreshRevisionDetails();
    const details = useWorkbench.getState().revisionDetails;
    expect(Object.keys(details)).toEqual(['ev-a@1']);
    expect(details['ev-a@1']!.state).toBe('DISPUTED');
    expect(useWorkbench.getState().evidenceError).toBeNull();
    // Never the whole list: only the details a view has open.
    expect(calls('evidence:list')).toBe(0);
  });

  it('a detail that cannot be read for another reason is reported, and the others stay', async () => {
    host(['ev-a@1', 'ev-b@1']);
    await useWorkbench.getState().ensureRevisionDetails(['ev-a@1', 'ev-b@1']);
    const answer = call.getMockImplementation()!;
    call.mockImplementation(async (channel: string, req: { revisionId?: string }) => {
      if (channel === 'evidence:get' && req.revisionId === 'ev-b@1') throw new Error('Failed to fetch');
      return answer(channel, req);
    });
    await useWorkbench.getState().refreshRevisionDetails();
    expect(Object.keys(useWorkbench.getState().revisionDetails)).toEqual(['ev-a@1']);
    expect(useWorkbench.getState().evidenceError).toBe('Failed to fetch');
  });

  it('keeps the most recent details, and always the whole batch a view asked for', async () => {
    const ids = Array.from({ length: 450 }, (_, i) => `ev-${i}@1`);
    host(ids);
    await useWorkbench.getState().ensureRevisionDetails(ids.slice(0, 300));
    await useWorkbench.getState().ensureRevisionDetails(ids.slice(300));
    const kept = Object.keys(useWorkbench.getState().revisionDetails);
    expect(kept).toHaveLength(400);
    expect(kept).toContain('ev-449@1');
    expect(kept).not.toContain('ev-0@1');
    await useWorkbench.getState().ensureRevisionDetails(ids);
    expect(Object.keys(useWorkbench.getState().revisionDetails)).toHaveLength(450);
  });

  it('a refused move returns the service’s code, message and zod paths and reloads nothing', async () => {
    host(['ev-a@1']);
    call.mockImplementationOnce(async () => {
      throw new WorkbenchCallError('evidence:transition', {
        code: 'VALIDATION',
        message: 'evidence:transition: invalid request',
        issues: [{ path: ['reason'], message: 'a reason is required' }],
      });
    });
    const refused = await useWorkbench.getState().transitionRevision({ revisionId: 'ev-a@1', to: 'DISPUTED', reason: '' });
    expect(refused).toEqual({ code: 'VALIDATION', message: 'evidence:transition: invalid request', issues: [{ path: ['reason'], message: 'a reason is required' }] });
    expect(calls('evidence:list')).toBe(0);
  });

  it('a move refused because the revision moved meanwhile reloads, so the analyst sees where it is now', async () => {
    host(['ev-a@1']);
    await useWorkbench.getState().ensureRevisionDetails(['ev-a@1']);
    host(['ev-a@1'], { 'ev-a@1': 'REVOKED' });
    call.mockImplementationOnce(async () => {
      throw new WorkbenchCallError('evidence:transition', { code: 'ILLEGAL_TRANSITION', message: 'illegal transition REVOKED → SUPERSEDED; REVOKED is terminal' });
    });
    const refused = await useWorkbench.getState().transitionRevision({ revisionId: 'ev-a@1', to: 'SUPERSEDED', reason: 'x' });
    expect(refused?.code).toBe('ILLEGAL_TRANSITION');
    expect(useWorkbench.getState().revisionDetails['ev-a@1']!.state).toBe('REVOKED');
  });

  it('a recorded move reloads evidence, claims and the audit chain', async () => {
    host(['ev-a@1']);
    call.mockImplementationOnce(async () => ({ revisionId: 'ev-a@1', from: 'VALIDATED', to: 'DISPUTED' }));
    expect(await useWorkbench.getState().transitionRevision({ revisionId: 'ev-a@1', to: 'DISPUTED', reason: 'conflicts with ev-b@1' })).toBeNull();
    expect(call.mock.calls[0]).toEqual(['evidence:transition', { revisionId: 'ev-a@1', to: 'DISPUTED', reason: 'conflicts with ev-b@1' }]);
    // One evidence:list, the Evidence queue's first page; no whole-case list of claims or evidence.
    expect([calls('evidence:list'), calls('claim:list'), calls('audit:verify')]).toEqual([1, 0, 1]);
  });
});
