import { describe, expect, it } from 'vitest';
import type { TimelineEvent } from '../../../shared/ipc/channels/timeline';
import { bucketOf, groupByBucket } from './buckets';

const ev = (at: string): TimelineEvent => ({ at, key: `o:${at}`, type: 'observed', revisionId: 'x@1', claimId: null, title: '', kind: 'telemetry', state: 'VALIDATED', detail: '', actor: null });

describe('timeline buckets', () => {
  it('labels an instant by day, hour or minute, in UTC whatever offset it was written with', () => {
    expect(bucketOf('2026-11-20T03:24:07Z', 'day')).toBe('2026-11-20');
    expect(bucketOf('2026-11-20T03:24:07.500Z', 'hour')).toBe('2026-11-20 03:00');
    expect(bucketOf('2026-11-20T04:24:07+01:00', 'minute')).toBe('2026-11-20 03:24');
    expect(bucketOf('last Tuesday', 'day')).toBe('last Tuesday');
  });

  it('groups consecutive events of one bucket, keeping their order', () => {
    const events = ['2026-11-20T03:01:00Z', '2026-11-20T03:59:00Z', '2026-11-20T04:00:00Z', '2026-11-21T00:00:00Z'].map(ev);
    expect(groupByBucket(events, 'hour').map((g) => [g.bucket, g.events.length])).toEqual([
      ['2026-11-20 03:00', 2],
      ['2026-11-20 04:00', 1],
      ['2026-11-21 00:00', 1],
    ]);
    expect(groupByBucket(events, 'day').map((g) => g.events.length)).toEqual([3, 1]);
    expect(groupByBucket([], 'minute')).toEqual([]);
  });
});
