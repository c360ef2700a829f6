import { z } from 'zod';

/** What can keep a case from being FINAL (DESIGN §3.4 completion gate). */
export const BLOCKER_KINDS = [
  'undecided',
  'open-proposal',
  'stale-fingerprint',
  'quorum',
  'dispute',
  'revalidation',
  'remediation',
  'chain',
] as const;

export const Blocker = z.object({
  kind: z.enum(BLOCKER_KINDS),
  /** e.g. `claim:cl-1`, `decision:dec-…`, `revision:ev-3@2`, `audit:seq:17`; `hidden` when outside your clearance. */
  target: z.string(),
  message: z.string(),
  /** The gate check that raised it. */
  check: z.string(),
});
export type Blocker = z.infer<typeof Blocker>;
/** A blocker as a gate check returns it; the gate adds the check's name. */
export type GateBlocker = Omit<Blocker, 'check'>;

const Finalization = z.object({ seq: z.number().int(), certifiedHead: z.string(), at: z.string(), by: z.string() });

export const gateChannels = {
  /** Read-only: what would block case:finalize now. */
  'case:gate': {
    request: z
      .object({
        /** The blockers from this position of the list on (a case of thousands of claims has thousands). */
        offset: z.number().int().min(0).default(0),
        limit: z.number().int().min(1).max(1000).default(200),
      })
      .strict(),
    response: z.object({
      ready: z.boolean(),
      /** The blockers from `offset`, at most `limit` of them, in the gate's order. */
      blockers: z.array(Blocker),
      /** Every open blocker, and how many of each kind. */
      total: z.number().int(),
      byKind: z.record(z.enum(BLOCKER_KINDS), z.number().int()),
      head: z.string(),
      /** The last finalization, whether or not it is still in force. */
      lastFinalization: Finalization.nullable(),
      /** FINAL: finalized and not reopened since. A FINAL case takes no change until case:reopen. */
      final: z.boolean(),
    }),
  },
  'case:finalize': {
    request: z.object({}).strict(),
    response: z.object({
      final: z.boolean(),
      blockers: z.array(Blocker),
      /** Chain head after finalizing (the finalize receipt), or the current head when blocked. */
      head: z.string(),
      /** The head the finalize receipt certifies (the chain just before it); null when blocked. */
      certifiedHead: z.string().nullable(),
    }),
  },
  /** An admin makes a FINAL case DRAFT again, with a reason (receipted); it must pass the gate again. */
  'case:reopen': {
    request: z.object({ reason: z.string().trim().min(1, 'a reason is required').max(4000) }).strict(),
    response: z.object({ reopenedSeq: z.number().int(), finalizationSeq: z.number().int(), head: z.string() }),
  },
} as const;
