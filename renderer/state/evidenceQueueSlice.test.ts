import { beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkbenchCallError } from '../../shared/ipc/envelope';
import { DEFAULT_EVIDENCE_FILTER } from './evidenceQueueSlice';

// The store talks to the host only through bridge.call; replace it with a scripted fake.
const call = vi.fn();
vi.mock('../bridge', () => ({ call: (...args: unknown[]) => call(...args) }));

const { useWorkbench } = await import('./store');

const summary = (revisionId: string) => ({
  revisionId, evidenceId: revisionId.split('@')[0], revision: 1, title: revisionId, kind: 'telemetry', state: 'CANDIDATE',
  tenant: 'acme', classification: 'internal', sourceType: 'edr', producer: 'mde', observedAt: null, contentSha256: 'c'.repeat(64),
});
const counts = (total: number) => ({ total, byState: { CANDIDATE: total, VALIDATED: 0, DISPUTED: 0, SUPERSEDED: 0, QUARANTINED: 0, REVOKED: 0 } });

/** A host whose queue has `total` rows named by page; remembers per case what the window asks it to. */
function host(total = 250) {
  const remembered = new Map<string, unknown>();
  call.mockImplementation(async (channel: string, req: Record<string, unknown>) => {
    switch (channel) {
      case 'evidence:list': {
        const from = req.after === undefined ? 0 : Number(String(req.after).split('-')[1]) + 1;
        const ids = Array.from({ length: Math.max(0, Math.min(Number(req.limit), total - from)) }, (_, i) => `ev-${from + i}@1`);
        const more = from + ids.length < total;
        return { items: ids.map(summary), nextCursor: more ? `ev-${from + ids.length - 1}` : null, ...(req.counts ? { counts: counts(total) } : {}) };
      }
      case 'view:recall':
        return { value: remembered.get(String(useWorkbench.getState().caseInfo?.caseId)) ?? null };
      case 'view:remember':
        remembered.set(String(useWorkbench.getState().caseInfo?.caseId), req.value);
        return { remembered: true };
      default:
        throw new Error(`unexpected channel ${channel}`);
    }
  });
  return remembered;
}
const lists = () => call.mock.calls.filter(([c]) => c === 'evidence:list').map(([, r]) => r as Record<string, unknown>);

beforeEach(() => {
  call.mockReset();
  useWorkbench.setState({ caseInfo: { caseId: 'case-a' } as never, evidenceFilterCase: null, evidenceFilter: DEFAULT_EVIDENCE_FILTER });
});

describe('the evidence queue', () => {
  it('reads a first page with the counts, then pages on with the cursor until none is left', async () => {
    host(250);
    await useWorkbench.getState().loadEvidenceQueue();
    expect(useWorkbench.getState().evidenceQueue).toMatchObject({ nextCursor: 'ev-99', counts: { total: 250 }, error: null });
    await useWorkbench.getState().loadMoreEvidence();
    await useWorkbench.getState().loadMoreEvidence();
    await useWorkbench.getState().loadMoreEvidence();
    const q = useWorkbench.getState().evidenceQueue;
    expect(q.items.map((r) => r.revisionId)).toEqual(Array.from({ length: 250 }, (_, i) => `ev-${i}@1`));
    expect(q.nextCursor).toBeNull();
    expect(lists().map((r) => [r.after, r.counts])).toEqual([[undefined, true], ['ev-99', undefined], ['ev-199', undefined]]);
  });

  it('asks the store to filter and order, and remembers the filter for this case only', async () => {
    const remembered = host();
    await useWorkbench.getState().setEvidenceFilter({ state: 'CANDIDATE', text: '  lateral ', sort: 'observed-desc' });
    expect(lists().at(-1)).toEqual({ state: 'CANDIDATE', text: 'lateral', sort: 'observed-desc', limit: 100, counts: true });
    expect(remembered.get('case-a')).toMatchObject({ state: 'CANDIDATE', sort: 'observed-desc' });
    // Another case recalls its own (nothing: the defaults); coming back recalls this one.
    useWorkbench.setState({ caseInfo: { caseId: 'case-b' } as never });
    await useWorkbench.getState().loadEvidenceQueue();
    expect(useWorkbench.getState().evidenceFilter).toEqual(DEFAULT_EVIDENCE_FILTER);
    useWorkbench.setState({ caseInfo: { caseId: 'case-a' } as never });
    await useWorkbench.getState().loadEvidenceQueue();
    expect(useWorkbench.getState().evidenceFilter).toMatchObject({ state: 'CANDIDATE', text: '  lateral ', sort: 'observed-desc' });
  });

  it('a remembered filter that no longer fits falls back field by field', async () => {
    const remembered = host();
    remembered.set('case-a', { state: 'NOT_A_STATE', kind: 'telemetry', sort: 42 });
    await useWorkbench.getState().loadEvidenceQueue();
    expect(useWorkbench.getState().evidenceFilter).toEqual({ state: 'ALL', kind: 'telemetry', text: '', sort: 'revision' });
  });

  it('an answer to an older filter is dropped: the rows shown are those of the last filter asked', async () => {
    host();
    let release: () => void = () => {};
    const slow = new Promise<void>((r) => (release = r));
    const inner = call.getMockImplementation()!;
    call.mockImplementation(async (channel: string, req: Record<string, unknown>) => {
      if (channel === 'evidence:list' && req.state === 'VALIDATED') await slow;
      return inner(channel, req);
    });
    const first = useWorkbench.getState().setEvidenceFilter({ state: 'VALIDATED' });
    const second = useWorkbench.getState().setEvidenceFilter({ state: 'CANDIDATE' });
    await second;
    release();
    await first;
    expect(useWorkbench.getState().evidenceFilter.state).toBe('CANDIDATE');
    expect(lists().at(-1)).toMatchObject({ state: 'CANDIDATE' });
    expect(useWorkbench.getState().evidenceQueue.items).toHaveLength(100);
  });

  it('a page that cannot be read keeps the rows read and says why, and a first page that cannot be read is no empty list', async () => {
    host(250);
    await useWorkbench.getState().loadEvidenceQueue();
    call.mockImplementationOnce(async () => {
      throw new WorkbenchCallError('evidence:list', { code: 'INTERNAL', message: 'disk I/O error' });
    });
    await useWorkbench.getState().loadMoreEvidence();
    expect(useWorkbench.getState().evidenceQueue).toMatchObject({ error: expect.stringContaining('disk I/O error'), nextCursor: 'ev-99', loading: false });
    expect(useWorkbench.getState().evidenceQueue.items).toHaveLength(100);
    call.mockImplementation(async () => {
      throw new WorkbenchCallError('evidence:list', { code: 'INTERNAL', message: 'disk I/O error' });
    });
    await useWorkbench.getState().loadEvidenceQueue();
    expect(useWorkbench.getState().evidenceQueue).toMatchObject({ items: [], counts: null, error: expect.stringContaining('disk I/O error') });
  });
});
