import { randomUUID } from 'node:crypto';
import type { HandlersFor } from '../dispatch';
import { epochMs } from '../store/fenceRows';
import { listRemediations, getRemediation } from '../services/remediationView';
import { requestRereview, retainCurrentRevision, withdrawRemediated } from '../services/remediation';
import { revocationStatus, visibleJobs } from '../services/revocationStatus';
import type { Seat } from '../session';
import { workerLoopStatus } from '../worker/loop';
import { runWorker } from '../worker/outbox';

const status = (s: Seat, limit: number) => {
  const ctx = s.context();
  return revocationStatus(ctx, limit, workerLoopStatus(), epochMs(ctx));
};

export const revocationHandlers = {
  'revocation:status': (s, req) => status(s, req.limit),
  'revocation:runWorker': (s, req) => {
    const ctx = s.context();
    const run = runWorker(ctx, { owner: `call:${process.pid}:${randomUUID().slice(0, 8)}`, maxJobs: req.maxJobs });
    // Jobs of revocations outside the clearance are left out, like everything else about them.
    const visible = visibleJobs(ctx, run.jobs.map((j) => j.jobId));
    return { jobs: run.jobs.filter((j) => visible.has(j.jobId)), status: status(s, 50) };
  },
  'remediation:list': (s, req) => listRemediations(s.context(), req.status),
  'remediation:get': (s, req) => getRemediation(s.context(), req.remediationId),
  'remediation:retainCurrentRevision': (s, req) => retainCurrentRevision(s.context(), req),
  'remediation:requestRereview': (s, req) => requestRereview(s.context(), req),
  'remediation:withdraw': (s, req) => withdrawRemediated(s.context(), req),
} satisfies HandlersFor<
  | 'revocation:status'
  | 'revocation:runWorker'
  | 'remediation:list'
  | 'remediation:get'
  | 'remediation:retainCurrentRevision'
  | 'remediation:requestRereview'
  | 'remediation:withdraw'
>;
