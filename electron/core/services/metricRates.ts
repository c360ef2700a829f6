import { EVIDENCE_STRENGTH, EVIDENCE_KINDS } from '../../../shared/domain/enums';
import { ID_SAMPLE, type DelayStats, type IdSample, type RateMetric } from '../../../shared/ipc/channels/drill';

/** What the §37 metrics are made of: rates with their goal, id samples, delay percentiles. */
export const DERIVED_KINDS = EVIDENCE_KINDS.filter((k) => EVIDENCE_STRENGTH[k] === 'derived');
export const COUNTED_RELATIONS = ['FULL_SUPPORT', 'PARTIAL_SUPPORT', 'REFUTES'];
export const list = (xs: readonly string[]) => xs.map((x) => `'${x}'`).join(', ');

export const sample = (label: string, kind: IdSample['kind'], ids: readonly string[], total = ids.length): IdSample => ({
  label,
  kind,
  total,
  ids: [...ids].sort().slice(0, ID_SAMPLE),
});

export function rate(m: Omit<RateMetric, 'rate' | 'meetsGoal'>): RateMetric {
  const r = m.denominator === 0 ? null : m.numerator / m.denominator;
  const meetsGoal = m.goal === 'higher' ? null : r === null || r === (m.goal === 'one' ? 1 : 0);
  return { ...m, rate: r, meetsGoal };
}

/** Nearest-rank percentiles of durations (ms). */
export function delayStats(values: readonly number[]): DelayStats {
  if (values.length === 0) return { count: 0, p50Ms: null, p95Ms: null, maxMs: null };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
  return { count: sorted.length, p50Ms: at(0.5), p95Ms: at(0.95), maxMs: sorted[sorted.length - 1]! };
}

