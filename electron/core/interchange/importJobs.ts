import { randomBytes } from 'node:crypto';
import type { ImportFormat, ImportProgress } from '../../../shared/ipc/channels/importJobs';
import { pinnedKeySource } from '../audit/keys';
import { closeSignedRun, signedAtRunEnd } from '../audit/receipts';
import type { ServiceContext } from '../context';
import { cancelled, conflict, notFound, storageFailure, WorkbenchError } from '../errors';
import type { Seat } from '../session';
import { writeTransaction, type CaseDb } from '../store/caseFile';

/**
 * Imports as jobs (issue 10.7): a job reads its file (streamed, nothing written), then applies
 * it in ONE write transaction that it keeps open while yielding to the event loop between slices
 * of records, so the window stays responsive, progress can be asked for, and a cancel rolls the
 * whole import back. While a job applies, the case is held (Session.hold): every other call on
 * it answers BUSY with the job's progress, so nothing reads the uncommitted half and nothing
 * else writes into the import's transaction.
 */

/** What reading a file reports as it goes; `signal` aborts the read. */
export interface ReadControl {
  signal: AbortSignal;
  onBytes: (bytesRead: number, bytesTotal: number) => void;
}

/** What an importer's step yields: nothing (one record applied), or the total once it knows it. */
export type ImportStep = void | { total: number };

/**
 * One importer: `read` validates the file without writing; `apply` is a generator that applies
 * it inside the job's transaction and yields after each record (the job decides when to pause).
 * `total` is the number of records as read; a step may announce a better one (a translated format
 * knows its record count only once translated).
 */
export interface Importer<R, Report> {
  format: ImportFormat;
  read: (control: ReadControl) => Promise<R>;
  total: (read: R) => number;
  apply: (ctx: ServiceContext, read: R) => Generator<ImportStep, Report>;
}

/** How long one slice of records runs before the job yields to the event loop. */
const SLICE_MS = 40;
/** The share of the percentage reading the file takes; applying it is the rest (and most of the time). */
const READ_SHARE = 10;
/** Finished jobs are kept for their progress to be read, then forgotten (oldest first). */
const KEEP_FINISHED = 20;

interface Job {
  id: string;
  seat: Seat;
  progress: ImportProgress;
  startedMs: number;
  abort: AbortController;
  /** Resolves when the job has finished, however it finished. */
  finished: Promise<void>;
}

const jobs = new Map<string, Job>();

/**
 * Drives an importer's steps to the end inside one write transaction (no yielding): the CLI and
 * tests' form. Like a job, its receipts are signed once, at the end (signedAtRunEnd).
 */
export function applyAll<Report>(ctx: ServiceContext, stepsIn: (ctx: ServiceContext) => Generator<ImportStep, Report>): Report {
  const restore = statementJournalsInMemory(ctx.db);
  try {
    return writeTransaction(ctx.db, () => {
      const runCtx = signedAtRunEnd(ctx);
      const steps = stepsIn(runCtx);
      for (;;) {
        const next = steps.next();
        if (next.done) {
          closeSignedRun(runCtx);
          return next.value;
        }
      }
    });
  } finally {
    restore();
  }
}

/**
 * Every record an import applies goes through its channel's service, whose write is a savepoint
 * nested in the import's transaction. SQLite keeps what a savepoint would roll back in a
 * statement journal, which spills to a temporary file past 64 KiB: on a case of any size, one
 * file written and truncated per record. Held in memory instead (temp_store = MEMORY, for the
 * import only: it bounds nothing else, such as a large sort, to memory), a bundle of 10,000
 * evidence and 10,000 bindings imports about 10% faster (bench/bundle-import.ts). Returns what
 * puts the connection's setting back.
 */
function statementJournalsInMemory(db: CaseDb): () => void {
  const before = db.pragma('temp_store', { simple: true }) as number;
  db.pragma('temp_store = MEMORY');
  return () => db.pragma(`temp_store = ${before}`);
}

/**
 * Starts an import for `seat`'s reviewer and returns at once; `importProgress` follows it. The
 * seat's key is pinned at the start, so the job's receipts are signed by whoever started it even
 * though the case answers BUSY to everyone (that seat included) until it ends.
 */
export function startImport<R, Report extends object>(seat: Seat, importer: Importer<R, Report>, label: { path: string; cleanup?: () => void }): ImportProgress {
  const ctx = seat.context();
  const key = seat.activeKey(ctx.db, ctx.actor.actorId, `${importer.format}:import`);
  const id = `imp-${randomBytes(9).toString('base64url')}`;
  const abort = new AbortController();
  const job: Job = {
    id,
    seat,
    startedMs: Date.now(),
    abort,
    finished: Promise.resolve(),
    progress: { jobId: id, format: importer.format, path: label.path, phase: 'reading', done: 0, total: null, bytesRead: 0, bytesTotal: null, recordsPerSecond: null, percent: 0, elapsedMs: 0, report: null, error: null },
  };
  jobs.set(id, job);
  forgetOldJobs();
  const say = () => {
    const p = job.progress;
    return `an import of ${p.path} is running (${p.phase}, ${p.percent}%)`;
  };
  const update = (patch: Partial<ImportProgress>) => {
    const elapsedMs = Date.now() - job.startedMs;
    job.progress = { ...job.progress, ...patch, elapsedMs };
  };

  let applyStartMs = Date.now();
  job.finished = (async () => {
    let hold: { db: CaseDb; release: () => void } | null = null;
    try {
      const read = await importer.read({
        signal: abort.signal,
        onBytes: (bytesRead, bytesTotal) => update({ bytesRead, bytesTotal, percent: Math.floor((READ_SHARE * bytesRead) / Math.max(1, bytesTotal)) }),
      });
      if (abort.signal.aborted) throw cancelled('the import');
      let total = importer.total(read);
      update({ phase: 'applying', total, done: 0, percent: READ_SHARE });
      applyStartMs = Date.now();
      hold = seat.session.hold(say);
      // Reading let the event loop run: had another case been opened meanwhile, this would write into it.
      if (hold.db !== ctx.db) throw conflict(`${importer.format}:import: the case changed while ${label.path} was read (another case was opened); nothing was imported`);
      const jobCtx = signedAtRunEnd({ db: hold.db, actor: ctx.actor, now: ctx.now, keyring: pinnedKeySource(seat, key) });
      const report = await applySliced(hold.db, importer.apply(jobCtx, read), () => closeSignedRun(jobCtx), abort.signal, (done, announced) => {
        if (announced !== null) total = announced;
        const seconds = (Date.now() - applyStartMs) / 1000;
        update({ done, total, percent: READ_SHARE + Math.floor(((100 - READ_SHARE) * Math.min(done, total)) / Math.max(1, total)), recordsPerSecond: seconds > 0 ? Math.round(done / seconds) : null });
      });
      update({ phase: 'done', done: total, total, percent: 100, report: report as ImportProgress['report'] });
    } catch (err) {
      if (abort.signal.aborted) update({ phase: 'cancelled', error: { code: 'CANCELLED', message: cancelled('the import').message } });
      else {
        // A storage failure (the file locked by another process for too long, a full disk) is named as dispatch names it.
        const known = err instanceof WorkbenchError ? err : storageFailure(`${importer.format}:import`, err);
        if (!known) seat.log(`${importer.format}:import: ${(err as Error)?.stack ?? String(err)}`);
        update({ phase: 'failed', error: known ? { code: known.code, message: known.message } : { code: 'INTERNAL', message: `${importer.format}:import: internal error; see the workbench log; nothing was imported` } });
      }
    } finally {
      hold?.release();
      label.cleanup?.();
    }
  })();
  return job.progress;
}

/** Runs the steps in slices of SLICE_MS inside one transaction, yielding between slices; an abort or error rolls everything back. */
async function applySliced<Report>(
  db: CaseDb,
  steps: Generator<ImportStep, Report>,
  beforeCommit: () => void,
  signal: AbortSignal,
  onDone: (done: number, total: number | null) => void,
): Promise<Report> {
  const restore = statementJournalsInMemory(db);
  let done = 0;
  let total: number | null = null;
  try {
    db.exec('BEGIN IMMEDIATE');
    for (;;) {
      const sliceEnd = performance.now() + SLICE_MS;
      while (performance.now() < sliceEnd) {
        const next = steps.next();
        if (next.done) {
          beforeCommit();
          db.exec('COMMIT');
          // A job that ends inside its first slice still reports the total its steps announced.
          onDone(done, total);
          return next.value;
        }
        if (next.value) total = next.value.total;
        else done++;
      }
      onDone(done, total);
      await new Promise((r) => setImmediate(r));
      if (signal.aborted) throw cancelled('the import');
    }
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  } finally {
    restore();
  }
}

function jobOf(seat: Seat, jobId: string, channel: string): Job {
  const job = jobs.get(jobId);
  // Another window's job is not this one's to follow or cancel, and not said to exist.
  if (!job || job.seat !== seat) throw notFound(`${channel}: no import ${jobId} was started in this window`);
  return job;
}

export function importProgress(seat: Seat, jobId: string): ImportProgress {
  const job = jobOf(seat, jobId, 'import:progress');
  return { ...job.progress, elapsedMs: job.progress.phase === 'reading' || job.progress.phase === 'applying' ? Date.now() - job.startedMs : job.progress.elapsedMs };
}

/** Cancels a running job and waits until its transaction is rolled back; a finished job cannot be cancelled. */
export async function cancelImport(seat: Seat, jobId: string): Promise<ImportProgress> {
  const job = jobOf(seat, jobId, 'import:cancel');
  if (job.progress.phase !== 'reading' && job.progress.phase !== 'applying') {
    throw conflict(`import:cancel: the import of ${job.progress.path} already ${job.progress.phase === 'done' ? 'finished' : job.progress.phase}; there is nothing to cancel`);
  }
  job.abort.abort();
  await job.finished;
  return job.progress;
}

/** Waits for a job to end and returns its last progress (the CLI and tests). */
export async function importFinished(seat: Seat, jobId: string): Promise<ImportProgress> {
  await jobOf(seat, jobId, 'import:progress').finished;
  return importProgress(seat, jobId);
}

function forgetOldJobs(): void {
  const finished = [...jobs.values()].filter((j) => j.progress.phase !== 'reading' && j.progress.phase !== 'applying');
  for (const j of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) jobs.delete(j.id);
}
