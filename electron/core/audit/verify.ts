import { verify as verifyAsync } from 'node:crypto';
import type { ChainVerification } from '../../../shared/ipc/channels/audit';
import type { CaseDb } from '../store/caseFile';
import { badSignature, ChainWalk, type Broken, type SignatureJob } from './chainWalk';
import { decodeSignature } from './keys';
import { signedMessage } from './receipts';

export { chainHead, formatHead, listReceipts, parseHead } from './receiptViews';
export type { ResumePoint, VerifyOptions } from './verifyOptions';
import type { VerifyOptions } from './verifyOptions';

/** The earliest failing job of a batch (run-end failures pinpointed to the receipt). */
function firstFailure(walk: ChainWalk, failed: SignatureJob[]): Broken | null {
  const breaks = failed.map((job) => (job.run ? (walk.pinpoint(job.run) ?? badSignature(job.from, job.seq)) : badSignature(job.from, job.seq)));
  return breaks.sort((a, b) => a.seq - b.seq)[0] ?? null;
}

/** Verifies the chain on this thread; the completion gate uses it inside its transaction. */
export function verifyChain(db: CaseDb, options: VerifyOptions = {}): ChainVerification {
  let failure: Broken | null = null;
  const walk: ChainWalk = new ChainWalk(db, options, (job) => {
    if (!failure && !walk.check(job)) failure = firstFailure(walk, [job]);
  });
  // Stopping at the first bad signature keeps a broken chain cheap to diagnose.
  while (!walk.done && !failure) walk.nextPage();
  if (failure) return walk.result(failure);
  const open = walk.closeOpenRun();
  if (walk.broken && open) failure = walk.pinpoint(open);
  return walk.result(failure);
}

/**
 * Verifies the chain with signature checks on libuv's thread pool, overlapped with hashing the
 * next page here: the same answer as verifyChain, sooner on a machine with more than one core.
 */
export async function verifyChainAsync(db: CaseDb, options: VerifyOptions = {}): Promise<ChainVerification> {
  let batch: SignatureJob[] = [];
  const walk = new ChainWalk(db, options, (job) => batch.push(job));
  const failed: SignatureJob[] = [];
  const checkBatch = (jobs: SignatureJob[]): Promise<void> =>
    Promise.all(
      jobs.map(
        (job) =>
          new Promise<void>((resolve) => {
            walk.verified += 1;
            const bytes = decodeSignature(job.signature);
            // Stryker disable next-line BlockStatement: equivalent; crypto.verify throws on a missing signature and the catch below fails the job too
            if (!bytes) {
              failed.push(job);
              resolve();
              return;
            }
            try {
              verifyAsync(null, signedMessage(job.hash), job.key, bytes, (err, ok) => {
                if (err || !ok) failed.push(job);
                resolve();
              });
            } catch {
              failed.push(job);
              resolve();
            }
          }),
      ),
    ).then(() => undefined);
  let inFlight: Promise<void> = Promise.resolve();
  while (!walk.done && failed.length === 0) {
    walk.nextPage();
    const jobs = batch;
    batch = [];
    await inFlight;
    inFlight = checkBatch(jobs);
  }
  await inFlight;
  // The open run is checked even after a failure: it comes after every run checked so far, so
  // the earliest failure stays the one found, and one path is simpler than two.
  const open = walk.closeOpenRun();
  await checkBatch(batch);
  let failure = firstFailure(walk, failed);
  if (!failure && walk.broken && open) failure = walk.pinpoint(open);
  return walk.result(failure);
}
