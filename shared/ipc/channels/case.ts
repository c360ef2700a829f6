import { z } from 'zod';
import { ActorView, HomeScope, Id } from '../../domain/schemas';
import { Classification, Role } from '../../domain/enums';

/** The views whose state (filters, order) is remembered per case on this machine. */
export const RememberedView = z.enum(['evidence', 'review', 'disputes', 'quarantine', 'remediations']);
export type RememberedView = z.infer<typeof RememberedView>;
/**
 * A view's remembered state: a filter's name, or a queue's filter fields. The view checks what
 * comes back against its own schema, so these only bound what may be kept.
 */
const RememberedValue = z.union([
  z.string().max(200),
  z.object({ state: z.string().max(40), kind: z.string().max(40), text: z.string().max(200), sort: z.string().max(40) }).partial().strict(),
  z.null(),
]);
export type RememberedValue = z.infer<typeof RememberedValue>;

export const CaseInfo = z.object({
  path: z.string(),
  caseId: z.string(),
  name: z.string(),
  description: z.string(),
  /** Where names chosen for new items are kept as chosen (elsewhere they get a `~<scope>` suffix). */
  homeScope: HomeScope,
  schemaVersion: z.number().int(),
  /** Counted as the acting reviewer may see them; null while no one is unlocked. */
  claimCount: z.number().int().nullable(),
  evidenceCount: z.number().int().nullable(),
  /** The reviewer unlocked in this window, or null: then every other call answers LOCKED. */
  actor: ActorView.nullable(),
  /** How long this window may sit unused before it locks again. */
  idleLockMinutes: z.number(),
});
export type CaseInfo = z.infer<typeof CaseInfo>;

/** A reviewer's passphrase: it seals their signing key on this machine and never enters the case file. */
export const Passphrase = z.string().min(8, 'a passphrase has at least 8 characters').max(1024);

/**
 * A case file's path, exactly as it will be opened: a leading or trailing space (or a control
 * character) is refused rather than trimmed, because a path that means one file to the check and
 * another to the opener once made case:create write into another application's database.
 */
const CasePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !/[\u0000-\u001f\u007f]/.test(p), 'the path contains a control character (a NUL, a newline or a tab)')
  .refine((p) => p === p.trim(), 'the path starts or ends with a space; remove it (a file name that really ends in a space cannot be a case file)');

export const caseChannels = {
  'case:info': { request: z.object({}).strict(), response: CaseInfo },
  'case:open': {
    request: z.object({ path: CasePath }).strict(),
    response: CaseInfo,
  },
  'case:create': {
    request: z
      .object({
        path: CasePath,
        name: z.string().min(1).max(200),
        description: z.string().max(4000).default(''),
        admin: z.object({ actorId: Id, displayName: z.string().min(1).max(200), passphrase: Passphrase }).strict(),
        /** Defaults to the whole case: every tenant, up to restricted. */
        homeScope: HomeScope.optional(),
      })
      .strict(),
    response: CaseInfo,
  },
  'case:recent': {
    request: z.object({}).strict(),
    response: z.object({
      cases: z.array(z.object({ path: z.string(), name: z.string(), openedAt: z.string() })),
    }),
  },
  /** What this machine remembers of a view on this case (a queue's filters and order); not part of the case. */
  'view:recall': { request: z.object({ view: RememberedView }).strict(), response: z.object({ value: z.unknown() }) },
  'view:remember': { request: z.object({ view: RememberedView, value: RememberedValue }).strict(), response: z.object({ remembered: z.literal(true) }) },
  'actor:list': { request: z.object({}).strict(), response: z.array(ActorView) },
  /** Acting as a reviewer in this window means unlocking their key with their passphrase. */
  'actor:unlock': { request: z.object({ actorId: Id, passphrase: z.string().min(1).max(1024) }).strict(), response: ActorView },
  'actor:lock': { request: z.object({}).strict(), response: z.object({ locked: z.literal(true) }) },
  /** The unlocked reviewer reseals their own key under a new passphrase (this machine only; no receipt). */
  'actor:passphrase': {
    request: z.object({ current: z.string().min(1).max(1024), next: Passphrase }).strict(),
    response: z.object({ actorId: Id }),
  },
  'actor:create': {
    request: z
      .object({
        actorId: Id,
        displayName: z.string().min(1).max(200),
        role: Role,
        tenants: z.array(z.string().min(1).max(128)).min(1).max(100),
        maxClassification: Classification,
        /** The new reviewer's own passphrase, typed by them: it seals the key issued for them here. */
        passphrase: Passphrase,
      })
      .strict(),
    response: ActorView,
  },
} as const;
