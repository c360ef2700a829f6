import { useCallback, useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { EVIDENCE_KINDS, type EvidenceKind } from '../../../shared/domain/enums';
import type { TimelineEvent } from '../../../shared/ipc/channels/timeline';
import type { RequestOf } from '../../../shared/ipc/contract';
import { call } from '../../bridge';
import { StateBadge } from '../../components/Badges';
import { EnumSelect } from '../../components/EnumSelect';
import { InertLabel } from '../../components/InertLabel';
import { messageOf } from '../../state/actionError';
import { useWorkbench } from '../../state/store';
import { groupByBucket, ZOOMS, type Zoom } from './buckets';

const PAGE = 200;
const TYPE_LABEL: Record<TimelineEvent['type'], string> = { observed: 'observed', lifecycle: 'lifecycle', proposed: 'proposed', decided: 'decided' };

type Filters = { claimId: string; kind: EvidenceKind | ''; sourceType: string };

/**
 * The case as it happened (timeline:list): evidence by observed time, lifecycle changes and
 * decisions at their own times, grouped by day, hour or minute; filtered by claim, kind and
 * source type; a page at a time. An evidence event opens the Evidence view, a decision the Review.
 */
export function TimelineView() {
  const { setView, selectRevision, openReview } = useWorkbench(useShallow((s) => ({ setView: s.setView, selectRevision: s.selectRevision, openReview: s.openReview })));
  const [filters, setFilters] = useState<Filters>({ claimId: '', kind: '', sourceType: '' });
  const [zoom, setZoom] = useState<Zoom>('hour');
  const [events, setEvents] = useState<TimelineEvent[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const asked = useRef(0);

  const read = useCallback(async (f: Filters, after: string | null) => {
    const ticket = ++asked.current;
    setLoading(true);
    const request: RequestOf<'timeline:list'> = {
      limit: PAGE,
      ...(f.claimId.trim() ? { claimId: f.claimId.trim() } : {}),
      ...(f.kind ? { kind: f.kind } : {}),
      ...(f.sourceType.trim() ? { sourceType: f.sourceType.trim() } : {}),
      ...(after ? { after } : {}),
    };
    try {
      const page = await call('timeline:list', request);
      if (ticket !== asked.current) return;
      setEvents((before) => (after ? [...before, ...page.events] : page.events));
      setNext(page.nextCursor);
      setError(null);
    } catch (err) {
      if (ticket === asked.current) setError(messageOf(err));
    } finally {
      if (ticket === asked.current) setLoading(false);
    }
  }, []);

  // Filters apply after a pause in typing; a later read replaces an earlier one.
  useEffect(() => {
    const timer = setTimeout(() => void read(filters, null), 250);
    return () => clearTimeout(timer);
  }, [filters, read]);

  const open = (e: TimelineEvent) => {
    if (e.revisionId) {
      selectRevision(e.revisionId);
      setView('evidence');
    } else if (e.claimId) openReview(e.claimId);
  };

  return (
    <section className="panel stack" data-testid="timeline">
      <h1>Timeline</h1>
      <p className="lead">The case as it happened: evidence at the time it was observed, lifecycle changes and decisions when they were made (UTC).</p>
      <div className="row wrap timeline-filters">
        <label className="field">
          Claim
          <input data-testid="timeline-claim" value={filters.claimId} placeholder="claim id" onChange={(e) => setFilters({ ...filters, claimId: e.target.value })} />
        </label>
        <label className="field">
          Kind
          <EnumSelect<EvidenceKind | ''> values={['', ...EVIDENCE_KINDS]} value={filters.kind} onChange={(kind) => setFilters({ ...filters, kind })} testId="timeline-kind" label={(k) => k || 'any'} />
        </label>
        <label className="field">
          Source type
          <input data-testid="timeline-source" value={filters.sourceType} placeholder="e.g. edr" onChange={(e) => setFilters({ ...filters, sourceType: e.target.value })} />
        </label>
        <fieldset className="zoom" aria-label="Group events by">
          {ZOOMS.map((z) => (
            <button key={z} type="button" className={z === zoom ? 'small' : 'secondary small'} aria-pressed={z === zoom} data-testid={`timeline-zoom-${z}`} onClick={() => setZoom(z)}>
              {z}
            </button>
          ))}
        </fieldset>
      </div>
      {error && (
        <div className="error-notice" role="alert" data-testid="timeline-error">
          The timeline could not be read: {error}{' '}
          <button type="button" className="secondary small" data-testid="timeline-retry" onClick={() => void read(filters, null)}>
            Retry
          </button>
        </div>
      )}
      {!error && !loading && events.length === 0 && (
        <p className="muted" data-testid="timeline-empty">
          Nothing visible to you happened under these filters.
        </p>
      )}
      <ol className="plain timeline" data-testid="timeline-list">
        {groupByBucket(events, zoom).map((g) => (
          <li key={g.bucket} className="timeline-bucket">
            <h2 className="timeline-when" data-testid={`timeline-bucket-${g.bucket}`}>
              {g.bucket} <span className="muted small">({g.events.length})</span>
            </h2>
            <ol className="plain">
              {g.events.map((e) => (
                <li key={e.key}>
                  <button type="button" className={`list-button timeline-event type-${e.type}`} data-testid={`timeline-event-${e.key}`} onClick={() => open(e)}>
                    <time dateTime={e.at} className="small muted">
                      {e.at.slice(11, 19) || e.at}
                    </time>
                    <span className="tag">{TYPE_LABEL[e.type]}</span>
                    {e.state && <StateBadge state={e.state} />}
                    <code className="small">{e.revisionId ?? e.claimId}</code>
                    <span className="timeline-title">
                      <InertLabel text={e.title} />
                    </span>
                    <span className="small muted timeline-detail">
                      <InertLabel text={e.detail} />
                      {e.actor ? ` · ${e.actor}` : ''}
                    </span>
                  </button>
                </li>
              ))}
            </ol>
          </li>
        ))}
      </ol>
      <div className="row">
        <span className="muted small" data-testid="timeline-count">
          {events.length} event(s){next ? ', more after these' : ''}
        </span>
        {next && (
          <button type="button" className="secondary small" data-testid="timeline-more" disabled={loading} onClick={() => void read(filters, next)}>
            Load {PAGE} more
          </button>
        )}
      </div>
    </section>
  );
}
