import type { RevisionDetail } from '../../shared/domain/schemas';
import { formatTime, orDash } from './format';

/** The validity context of one revision (DESIGN §3.1): everything Usable(E) is computed from. */
export function ValidityFacts({ detail, testId }: { detail: RevisionDetail; testId: string }) {
  const c = detail.context;
  const rows: [string, string, string?][] = [
    ['Source', `${c.sourceType} · ${c.sourceRef}`, 'source'],
    ['Source version', orDash(c.sourceVersion)],
    ['Observed', formatTime(c.observedAt), 'observed'],
    ['Effective from', formatTime(c.effectiveFrom)],
    ['Valid until', c.validUntil ? formatTime(c.validUntil) : 'open-ended'],
    ['Producer', `${c.producer} (${c.producerType})`],
    ['Tenant · classification', `${c.tenant} · ${c.classification}`, 'acl'],
    ['Trust tier', c.trustTier, 'trust'],
    ['Confidence', c.confidence === null ? '—' : c.confidence.toFixed(2)],
    ['Independence group', c.independenceGroup ?? 'none (counts on its own source)', 'group'],
    ['Validation method', orDash(c.validationMethod)],
    ['Applies to', c.appliesTo.length > 0 ? c.appliesTo.join(', ') : '—'],
    ['Media type', detail.mediaType],
    ['Ingested', `${formatTime(detail.createdAt)} by ${detail.createdBy}`],
  ];
  return (
    <dl className="facts compact" data-testid={testId}>
      {rows.map(([label, value, id]) => (
        <div key={label} className="fact">
          <dt>{label}</dt>
          <dd data-testid={id ? `${testId}-${id}` : undefined}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
