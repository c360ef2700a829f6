import { useCallback, useEffect, useState } from 'react';
import type { Channel } from '../../../shared/ipc/contract';
import type { TeamConflict, TeamStatus } from '../../../shared/ipc/channels/team';
import { call } from '../../bridge';
import { formatTime } from '../../components/format';
import { messageOf } from '../../state/actionError';
import { useWorkbench } from '../../state/store';

/** How often the panel asks the server where the case stands while it is shown. */
const POLL_MS = 15_000;

function standing(s: TeamStatus): string {
  if (s.serverHead === null) return `this file: seq ${s.localHead}`;
  if (s.diverged) {
    return `your ${s.ahead} receipt${s.ahead === 1 ? ' was' : 's were'} made on a head the server has moved past (${s.behind} new there): close the case and run npm run team -- sync <case-file> ${s.server ?? '<server>'} --as <you>`;
  }
  if (s.ahead > 0) return `${s.ahead} receipt${s.ahead === 1 ? '' : 's'} ahead of the server (not pushed yet)`;
  if (s.behind > 0) return `${s.behind} receipt${s.behind === 1 ? '' : 's'} behind the server`;
  return `in step (seq ${s.localHead})`;
}

/**
 * The open case on its team server (issue 15.4): connected or not, ahead or behind, last sync, who
 * else is working on it, and the conflicts waiting for the reviewer in this window, to redo (the
 * recorded request sent again through its channel, checked as any action is) or drop.
 */
export function TeamPanel() {
  const refreshAll = useWorkbench((s) => s.refreshAll);
  const [status, setStatus] = useState<TeamStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setStatus(await call('team:status', {}));
      setError(null);
    } catch (err) {
      setError(messageOf(err));
    }
  }, []);
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [load]);

  const act = async (label: string, work: () => Promise<string>) => {
    setBusy(label);
    setOutcome(null);
    setError(null);
    try {
      setOutcome(await work());
      await refreshAll();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(null);
      await load();
    }
  };
  const sync = () =>
    act('sync', async () => {
      const r = await call('team:sync', {});
      return `Synced: pulled ${r.pulled}, pushed ${r.pushed} (head seq ${r.head}).`;
    });
  const converge = () =>
    act('converge', async () => {
      const r = await call('team:converge', {});
      if (r.status === 'busy') return `${r.heldBy ?? 'Another worker'} converges this case now; ${r.openJobs} job${r.openJobs === 1 ? '' : 's'} left to it.`;
      if (r.status === 'lost') return `The converger lease was taken over after ${r.converged} job${r.converged === 1 ? '' : 's'} (by ${r.heldBy ?? 'another worker'}); it goes on from there.`;
      const done = `Converged ${r.converged} revocation job${r.converged === 1 ? '' : 's'}`;
      if (r.status === 'pending' && r.heldLocally) {
        const until = new Date(r.heldLocally.expiresAt).toLocaleTimeString();
        return `${done}; ${r.openJobs} still open, held on this machine by ${r.heldLocally.owner} until ${until} (a worker still at it, or one that stopped while holding them): converge here again after that.`;
      }
      return `${done}; ${r.openJobs} still open.`;
    });
  const redo = (c: TeamConflict) =>
    act(`redo-${c.conflictId}`, async () => {
      await call(c.channel as Channel, JSON.parse(c.request!) as never);
      await call('team:dropConflict', { conflictId: c.conflictId });
      return `Redone: ${c.channel}.`;
    });
  const drop = (c: TeamConflict) =>
    act(`drop-${c.conflictId}`, async () => {
      await call('team:dropConflict', { conflictId: c.conflictId });
      return `Dropped: ${c.channel}.`;
    });

  if (!status) {
    return (
      <section className="panel" data-testid="team-panel">
        <h2>Team server</h2>
        <p className="muted">{error ? `Could not read the team status: ${error}` : 'Reading the team status…'}</p>
      </section>
    );
  }
  return (
    <section className="panel stack" data-testid="team-panel">
      <div className="row wrap">
        <h2>Team server</h2>
        <span className="grow" />
        {status.replica && (
          <button type="button" data-testid="team-sync" disabled={busy !== null || status.problem !== null} onClick={() => void sync()}>
            {busy === 'sync' ? 'Syncing…' : 'Sync now'}
          </button>
        )}
      </div>
      {!status.replica ? (
        <p className="muted" data-testid="team-solo">
          This case is kept on this machine only. To review it with others, put it on a PostgreSQL team server: <code>npm run team -- publish &lt;case-file&gt; &lt;postgres-url&gt;</code>
        </p>
      ) : (
        <dl className="facts">
          <dt>Server</dt>
          <dd className="mono" data-testid="team-server">
            {status.server ?? 'not named yet'}
            {status.role ? ` as ${status.role}` : ''}
          </dd>
          <dt>Connection</dt>
          <dd data-testid="team-connection" className={status.problem ? 'bad' : 'ok'}>
            {status.problem ? `Not connected: ${status.problem}` : 'Connected'}
          </dd>
          <dt>This file</dt>
          <dd data-testid="team-standing" className={status.diverged ? 'bad' : undefined}>
            {standing(status)}
          </dd>
          <dt>Last sync</dt>
          <dd data-testid="team-last-sync">{status.lastSync ? formatTime(status.lastSync) : 'never'}</dd>
          <dt>Converger</dt>
          <dd data-testid="team-converger">{status.converger ?? 'nobody converges this case now'}</dd>
          <dt>Revocation jobs</dt>
          <dd data-testid="team-open-jobs" className="row wrap">
            <span>{status.openJobs === 0 ? 'none open' : `${status.openJobs.toLocaleString('en')} open in this file`}</span>
            {status.openJobs > 0 && (
              <button
                type="button"
                data-testid="team-converge"
                disabled={busy !== null || status.problem !== null || status.converger !== null}
                title={status.converger ? `${status.converger} converges this case now` : 'Take the converger lease and run the open jobs here, pushing each receipt'}
                onClick={() => void converge()}
              >
                {busy === 'converge' ? 'Converging…' : 'Converge here'}
              </button>
            )}
          </dd>
        </dl>
      )}
      {outcome && (
        <p className="ok" role="status" data-testid="team-outcome">
          {outcome}
        </p>
      )}
      {error && (
        <div className="error-notice" role="alert" data-testid="team-error">
          {error}
        </div>
      )}
      {status.replica && status.others.length > 0 && (
        <div data-testid="team-others">
          <h3>Also working on this case</h3>
          <ul className="plain">
            {status.others.map((o) => (
              <li key={o.actorId} data-testid="team-other">
                <b>{o.actorId}</b> <span className="muted small">· {o.receipts.toLocaleString('en')} receipts · latest {formatTime(o.lastAt)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {status.conflicts.length > 0 && (
        <div data-testid="team-conflicts">
          <h3>Conflicts waiting for you ({status.conflicts.length})</h3>
          <p className="muted small">
            Actions you took offline that were no longer valid on the server&apos;s newer head. Nothing was applied: redo one (it is sent again and checked
            like any action) or drop it.
          </p>
          <ul className="plain stack">
            {status.conflicts.map((c) => (
              <li key={c.conflictId} className="card" data-testid="team-conflict">
                <div className="row wrap">
                  <b className="mono">{c.channel}</b>
                  <span className="muted small">made {formatTime(c.madeAt)}</span>
                  <span className="grow" />
                  <button type="button" data-testid="team-conflict-redo" disabled={busy !== null || c.request === null} onClick={() => void redo(c)}>
                    Redo
                  </button>
                  <button type="button" data-testid="team-conflict-drop" disabled={busy !== null} onClick={() => void drop(c)}>
                    Drop
                  </button>
                </div>
                <p className="small">{c.reason}</p>
                {c.request && <pre className="mono small wrap-anywhere">{c.request}</pre>}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
