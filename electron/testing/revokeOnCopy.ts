import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClaimStatus, SupportProjection } from '../../shared/domain/enums';
import type { WhatIfClaim } from '../../shared/ipc/channels/whatIf';
import type { Channel, RequestOf, ResponseOf } from '../../shared/ipc/contract';
import { dispatch } from '../core/dispatch';
import { handlers } from '../core/handlers';
import { runWorker } from '../core/worker/outbox';
import type { Seat } from '../core/session';
import { testSession } from './testCase';

/**
 * Test helper (not a test): the what-if's reference. A closed case directory (`pristine`) is
 * copied, the copy opened as `actor`, a revision really revoked and the worker run until no job is
 * left; then the claims are read back. Comparing that with whatIf:revoke on another copy checks the
 * what-if against the real thing, not against a second model of it.
 */
export interface CaseDir {
  pristine: string;
  /** Paths inside the directory. */
  casePath: string;
  userDir: string;
  actor: string;
  passphrase: string;
}

export interface OpenedCopy {
  seat: Seat;
  call: <C extends Channel>(channel: C, request: RequestOf<C>) => Promise<ResponseOf<C>>;
  close: () => void;
}

export function openCopy(c: CaseDir): OpenedCopy {
  const dir = mkdtempSync(join(tmpdir(), 'erwb-copy-'));
  cpSync(c.pristine, dir, { recursive: true });
  const seat = testSession({ userDataDir: join(dir, c.userDir) }).seat('copy');
  seat.open(join(dir, c.casePath));
  seat.unlock(c.actor, c.passphrase);
  const call = async <C extends Channel>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> => {
    const envelope = await dispatch(handlers, seat, channel, request);
    if (!envelope.ok) throw new Error(`${channel}: ${envelope.error.message}`);
    return envelope.value as ResponseOf<C>;
  };
  return {
    seat,
    call,
    close: () => {
      seat.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ClaimState {
  status: ClaimStatus;
  /** Absent where claim:list leaves it out. */
  projection: SupportProjection | undefined;
}

export async function claimStates(copy: OpenedCopy): Promise<Map<string, ClaimState>> {
  const list = await copy.call('claim:list', {});
  return new Map(list.map((c) => [c.claimId, { status: c.status, projection: c.projection }]));
}

export const openRemediations = (copy: OpenedCopy): Set<string> =>
  new Set(copy.seat.db().prepare("SELECT claim_id FROM remediation WHERE status = 'OPEN'").pluck().all() as string[]);

/** Revokes `revisionId` on a fresh copy, converges, and answers the claims and open remediations after. */
export async function revokeOnCopy(c: CaseDir, revisionId: string): Promise<{ claims: Map<string, ClaimState>; remediations: Set<string> }> {
  const copy = openCopy(c);
  try {
    await copy.call('evidence:transition', { revisionId, to: 'REVOKED', reason: 'what-if reference: revoked for real on a copy' });
    for (let round = 0; round < 1000; round++) if (runWorker(copy.seat.context(), { owner: 'what-if-reference', maxJobs: 100 }).openJobs === 0) break;
    return { claims: await claimStates(copy), remediations: openRemediations(copy) };
  } finally {
    copy.close();
  }
}

/**
 * Where the what-if and the real revocation disagree, as readable lines (empty when they agree):
 * every claim the prediction names must end as predicted, every other claim must not move, and
 * the remediations opened must be exactly those predicted.
 */
export function disagreements(
  predicted: readonly WhatIfClaim[],
  before: { claims: Map<string, ClaimState>; remediations: Set<string> },
  after: { claims: Map<string, ClaimState>; remediations: Set<string> },
): string[] {
  const out: string[] = [];
  const named = new Map(predicted.map((p) => [p.claimId, p]));
  for (const [claimId, now] of after.claims) {
    const was = before.claims.get(claimId)!;
    const p = named.get(claimId);
    const expected = p ? { status: p.statusAfter, projection: p.projectionAfter } : was;
    if (p && p.statusBefore !== was.status) out.push(`${claimId}: predicted from status ${p.statusBefore}, but it was ${was.status}`);
    if (now.status !== expected.status) out.push(`${claimId}: status ${was.status} -> ${now.status}, predicted ${expected.status}`);
    if (now.projection !== expected.projection) out.push(`${claimId}: projection ${was.projection} -> ${now.projection}, predicted ${expected.projection}`);
  }
  const opened = [...after.remediations].filter((id) => !before.remediations.has(id)).sort();
  const predictedOpened = predicted.filter((p) => p.opensRemediation).map((p) => p.claimId).sort();
  if (opened.join() !== predictedOpened.join()) out.push(`remediations opened ${opened.join(', ') || 'none'}, predicted ${predictedOpened.join(', ') || 'none'}`);
  return out;
}
