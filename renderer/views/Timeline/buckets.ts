import type { TimelineEvent } from '../../../shared/ipc/channels/timeline';

/** How finely the timeline groups events: the zoom of a list that reads down in time. */
export type Zoom = 'day' | 'hour' | 'minute';
export const ZOOMS: readonly Zoom[] = ['day', 'hour', 'minute'];

/**
 * The bucket an instant falls in at a zoom, as its label (UTC, the case's times are UTC):
 * `2026-11-20`, `2026-11-20 03:00`, `2026-11-20 03:24`. A time that does not parse is its own bucket.
 */
export function bucketOf(at: string, zoom: Zoom): string {
  const t = Date.parse(at);
  if (Number.isNaN(t)) return at;
  const iso = new Date(t).toISOString();
  const day = iso.slice(0, 10);
  if (zoom === 'day') return day;
  if (zoom === 'hour') return `${day} ${iso.slice(11, 13)}:00`;
  return `${day} ${iso.slice(11, 16)}`;
}

/** Events in order, grouped into consecutive buckets. */
export function groupByBucket(events: readonly TimelineEvent[], zoom: Zoom): { bucket: string; events: TimelineEvent[] }[] {
  const groups: { bucket: string; events: TimelineEvent[] }[] = [];
  for (const e of events) {
    const bucket = bucketOf(e.at, zoom);
    const last = groups[groups.length - 1];
    if (last && last.bucket === bucket) last.events.push(e);
    else groups.push({ bucket, events: [e] });
  }
  return groups;
}
