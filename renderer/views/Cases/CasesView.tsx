import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { selectCaseActions, selectCasesView } from '../../state/selectors';
import { useWorkbench } from '../../state/store';
import { BundlePanel } from './BundlePanel';
import { HandoffReceiveForm } from './HandoffReceiveForm';
import { FinalizePanel } from './FinalizePanel';
import { NewCaseForm } from './NewCaseForm';
import { TeamPanel } from './TeamPanel';

export function CasesView() {
  const { caseInfo, actors, recent, caseError } = useWorkbench(useShallow(selectCasesView));
  const { openCase, lock } = useWorkbench(useShallow(selectCaseActions));
  const [path, setPath] = useState('');
  return (
    <div className="stack">
      {caseInfo && (
        <section className="panel" data-testid="case-summary">
          <h1 data-testid="case-name">{caseInfo.name}</h1>
          <p className="lead">{caseInfo.description}</p>
          <dl className="facts">
            <dt>Claims</dt>
            <dd data-testid="case-claim-count">{caseInfo.claimCount ?? '—'}</dd>
            <dt>Evidence revisions visible to you</dt>
            <dd data-testid="case-evidence-count">{caseInfo.evidenceCount ?? '—'}</dd>
            <dt>Case file</dt>
            <dd className="mono">{caseInfo.path}</dd>
            <dt>Schema</dt>
            <dd>{caseInfo.schemaVersion}</dd>
            <dt title="Ids chosen here by reviewers cleared for all of it are kept as typed; elsewhere they carry a ~tenant.classification suffix">Home scope</dt>
            <dd data-testid="case-home-scope">
              {caseInfo.homeScope.tenants.includes('*') ? 'every tenant' : caseInfo.homeScope.tenants.join(', ')}, up to {caseInfo.homeScope.maxClassification}
            </dd>
          </dl>
          {caseInfo.actor && (
            <div className="row" data-testid="acting-reviewer">
              <span className="grow">
                Acting as <b>{caseInfo.actor.displayName}</b> ({caseInfo.actor.role}, up to {caseInfo.actor.maxClassification}); {actors.length}{' '}
                reviewer profile{actors.length === 1 ? '' : 's'} in this case. To act as someone else, lock this window and unlock as them.
              </span>
              <button type="button" data-testid="lock-window" onClick={() => void lock()}>
                Lock window
              </button>
            </div>
          )}
        </section>
      )}
      {caseInfo?.actor && <BundlePanel />}
      {caseInfo?.actor && <FinalizePanel />}
      {caseInfo?.actor && <TeamPanel />}
      <section className="panel">
        <h2>Open a case file</h2>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            void openCase(path);
          }}
        >
          <input
            data-testid="open-path"
            className="grow mono"
            placeholder="/path/to/case.case.sqlite"
            value={path}
            onChange={(e) => setPath(e.target.value)}
          />
          <button type="submit" data-testid="open-submit">Open</button>
        </form>
        {caseError && (
          <p role="alert" className="error" data-testid="case-error">
            {caseError}
          </p>
        )}
        <h3>Receive a case handed off from another machine</h3>
        <HandoffReceiveForm />
        <h3>New case</h3>
        <NewCaseForm />
        <h3>Recent cases</h3>
        <ul className="plain">
          {recent.map((r) => (
            <li key={r.path}>
              <button type="button" className="link" onClick={() => void openCase(r.path)}>
                {r.name}
              </button>{' '}
              <span className="muted mono">{r.path}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
