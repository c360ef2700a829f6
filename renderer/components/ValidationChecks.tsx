import type { ValidationCheck, ValidationRunView } from '../../shared/ipc/channels/evidence';
import { formatTime } from './format';

/** One checklist: every check with its pass/fail and the service's detail. */
export function ValidationChecks({ checks, testId }: { checks: readonly ValidationCheck[]; testId: string }) {
  return (
    <ul className="plain checks" data-testid={testId}>
      {checks.map((c) => (
        <li key={c.id} className={c.passed ? 'check-pass' : 'check-fail'} data-testid={`${testId}-${c.id}`}>
          <span className="check-mark" aria-label={c.passed ? 'passed' : 'failed'}>
            {c.passed ? '✓' : '✗'}
          </span>{' '}
          <code>{c.id}</code> <span className="muted">{c.detail}</span>
        </li>
      ))}
    </ul>
  );
}

/** The stored run that moved the revision to VALIDATED, with the override reason if checks failed. */
export function ValidationRun({ run, testId }: { run: ValidationRunView; testId: string }) {
  return (
    <div data-testid={testId}>
      <p className="muted small">
        Run by {run.actor} at {formatTime(run.at)} from {run.fromState}: {run.passed ? 'all checks passed' : 'checks failed'}
        {run.overrideReason && <> · overridden: {run.overrideReason}</>}
      </p>
      <ValidationChecks checks={run.checks} testId={`${testId}-checks`} />
    </div>
  );
}
