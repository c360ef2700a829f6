import { useShallow } from 'zustand/react/shallow';
import type { ImportProgress } from '../../shared/ipc/channels/importJobs';
import type { ImportReport, ProvImportReport } from '../../shared/ipc/channels/interchange';
import type { StixImportReport } from '../../shared/ipc/channels/stix';
import { useWorkbench } from '../state/store';
import { ErrorNotice } from './ErrorNotice';
import { ImportSummary, ProvImportSummary, StixImportSummary } from './ImportSummary';

const PHASE: Record<ImportProgress['phase'], string> = {
  reading: 'Reading and checking every record (nothing is written yet)',
  applying: 'Writing, in one transaction: cancel leaves the case as it was',
  done: 'Imported',
  failed: 'Not imported: the case is as it was',
  cancelled: 'Cancelled: nothing was imported',
};

function JobReport({ report }: { report: NonNullable<ImportProgress['report']> }) {
  if (!('records' in report)) return <ProvImportSummary report={report as ProvImportReport} />;
  return (
    <>
      <ImportSummary report={report as ImportReport} />
      {'stix' in report && <StixImportSummary stix={(report as StixImportReport).stix} />}
    </>
  );
}

/** The progress of this window's import: records, records per second, percent, and Cancel. */
export function ImportDialog() {
  const { job, error, cancel, dismiss } = useWorkbench(useShallow((s) => ({ job: s.importJob, error: s.importError, cancel: s.cancelImport, dismiss: s.dismissImport })));
  if (!job && !error) return null;
  const running = job !== null && (job.phase === 'reading' || job.phase === 'applying');
  return (
    <div className="modal-backdrop">
      <section className="panel modal" role="dialog" aria-modal="true" aria-labelledby="import-title" data-testid="import-dialog">
        <h2 id="import-title">Import {job ? <span className="mono">{job.path}</span> : null}</h2>
        {job && (
          <>
            <p data-testid="import-phase" data-phase={job.phase}>
              {PHASE[job.phase]}
            </p>
            <progress data-testid="import-progress" max={100} value={job.percent} aria-label="Import progress" />
            <p className="mono" data-testid="import-figures">
              {job.percent}% ·{' '}
              {job.total === null
                ? `${job.bytesRead.toLocaleString('en')} of ${(job.bytesTotal ?? 0).toLocaleString('en')} bytes read`
                : `${job.done.toLocaleString('en')} of ${job.total.toLocaleString('en')} records`}
              {job.recordsPerSecond !== null && ` · ${job.recordsPerSecond.toLocaleString('en')} records/s`} · {(job.elapsedMs / 1000).toFixed(1)} s
            </p>
            {job.error && <ErrorNotice error={{ ...job.error, issues: [] }} testId="import-error" />}
            {job.phase === 'done' && job.report && <JobReport report={job.report} />}
          </>
        )}
        {error && <ErrorNotice error={error} testId="import-error" />}
        <div className="row">
          {running ? (
            <button type="button" data-testid="import-cancel" onClick={() => void cancel()}>
              Cancel import
            </button>
          ) : (
            <button type="button" data-testid="import-close" onClick={dismiss}>
              Close
            </button>
          )}
        </div>
      </section>
    </div>
  );
}
