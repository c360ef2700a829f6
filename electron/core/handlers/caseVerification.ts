import type { ChainVerification } from '../../../shared/ipc/channels/audit';
import type { VerifyOptions } from '../audit/verifyOptions';
import { marksOf, verifyFromMark } from '../audit/verifyMarks';
import type { Seat } from '../session';
import { inReadSnapshot, openReader } from '../store/caseFile';

/**
 * Verifies the open case as this machine may: in full the first time after the case was opened
 * (the file may have been changed while the workbench was closed), then routinely, from where the
 * last verification ended (verifyMarks.ts). audit:verify and the completion gate both ask here,
 * so a gate shown after a verification costs only what came after it.
 *
 * Its own connection and one read transaction: the workbench's writes (the outbox worker's too)
 * go on meanwhile, and the chain walk and the state checks see the same state.
 */
export function verifyOpenCase(s: Seat, how: { full: boolean; options?: VerifyOptions }): Promise<ChainVerification> {
  const opened = s.session.openCase();
  const full = how.full || !opened.verifiedInFull;
  // The window asks for the gate and the audit view together on opening: one verification of a
  // large case at a time, shared by every caller asking the same question meanwhile.
  const key = JSON.stringify({ full, signatures: how.options?.signatures ?? 'every', expectedHead: how.options?.expectedHead ?? null });
  let byQuestion = running.get(opened);
  if (!byQuestion) running.set(opened, (byQuestion = new Map()));
  const pending = byQuestion.get(key);
  if (pending) return pending;
  const started = verify(s, opened, full, how.options).finally(() => byQuestion.delete(key));
  byQuestion.set(key, started);
  return started;
}

const running = new WeakMap<object, Map<string, Promise<ChainVerification>>>();

async function verify(s: Seat, opened: ReturnType<Seat['session']['openCase']>, full: boolean, options: VerifyOptions | undefined): Promise<ChainVerification> {
  const reader = openReader(s.casePath!);
  const marks = marksOf(s.session.userDataDir);
  try {
    const verified = await inReadSnapshot(reader, () =>
      verifyFromMark(reader, { marks, full, now: s.now, ...(options ? { options } : {}) }),
    );
    if (verified.ok && !verified.routine) opened.verifiedInFull = true;
    return verified;
  } finally {
    reader.close();
  }
}
