import { Passphrase } from './case';
import { z } from 'zod';
import { Id } from '../../domain/schemas';

export const ReceiptView = z.object({
  seq: z.number().int(),
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  targets: z.array(z.string()),
  body: z.record(z.string(), z.unknown()),
  preStateFp: z.string().nullable(),
  postStateFp: z.string().nullable(),
  artifacts: z.record(z.string(), z.string()),
  prevHash: z.string(),
  hash: z.string(),
  /** Key id of the reviewer key that signed the receipt; null only on receipts older than signatures. */
  signer: z.string().nullable(),
  signature: z.string().nullable(),
});
export type ReceiptView = z.infer<typeof ReceiptView>;

/** `erwb-head:<seq>:<hash>`: short enough to paste into a ticket; audit:verify checks against it. */
export const ChainHead = z
  .string()
  .max(100, 'expected erwb-head:<seq>:<64 hex digits> as printed by audit:head')
  .regex(/^erwb-head:(0|[1-9][0-9]*):[0-9a-f]{64}$/, 'expected erwb-head:<seq>:<64 hex digits> as printed by audit:head');

export const BROKEN_KINDS = ['chain', 'signature', 'state', 'head'] as const;

export const ChainVerification = z.object({
  ok: z.boolean(),
  /**
   * Set when this was a routine verification: it checked the receipts after `since` (where this
   * machine's last verification of the case ended, the receipt there unchanged) and their states;
   * null for a full verification of the whole chain and every row.
   */
  routine: z.object({ since: z.number().int(), markedAt: z.string().optional() }).nullable(),
  /** Receipts that verified before the first break (all of them when ok). */
  length: z.number().int(),
  /** Head of the verified prefix. */
  head: z.string().nullable(),
  firstBroken: z
    .object({
      seq: z.number().int(),
      /** chain: seq/prev_hash/hash; signature: key or signature; state: a recomputed fingerprint
       * or digest differs from the receipt; head: the chain does not reach the expected head. */
      kind: z.enum(BROKEN_KINDS),
      reason: z.string(),
    })
    .nullable(),
  signatures: z.object({
    mode: z.enum(['every', 'run-ends']),
    /** Ed25519 verifications performed. */
    verified: z.number().int(),
  }),
  fingerprints: z.object({
    /** Receipts whose state fingerprint or artifact digest was recomputed from the case and matched. */
    checked: z.number().int(),
    /** Latest state receipts of actions no check knows how to recompute (reported, not trusted). */
    unchecked: z.number().int(),
  }),
  /** Key id that signed seq 1 (the case creator's): compare it out of band to pin the chain's root. */
  rootKey: z.string().nullable(),
  expectedHead: z.string().nullable(),
});
export type ChainVerification = z.infer<typeof ChainVerification>;

export const ActorKeyView = z.object({
  keyId: z.string(),
  actorId: z.string(),
  algorithm: z.literal('ed25519'),
  /** base64 SPKI DER. */
  publicKey: z.string(),
  registeredAt: z.string(),
  retiredAt: z.string().nullable(),
});
export type ActorKeyView = z.infer<typeof ActorKeyView>;

export const auditChannels = {
  'audit:verify': {
    request: z
      .object({
        /** A head printed earlier; a chain that ends before it or differs at it fails (truncation, rewrite). */
        expectedHead: ChainHead.optional(),
        /** 'every' checks each receipt's signature; 'run-ends' checks the last receipt of each run of
         * one signer, whose signature covers the run through the hash chain (see verify.ts). */
        signatures: z.enum(['every', 'run-ends']).default('every'),
        /** Re-read the whole chain and every row, instead of only what came after this machine's last verification. */
        full: z.boolean().default(false),
      })
      .strict(),
    response: ChainVerification,
  },
  'audit:head': {
    request: z.object({}).strict(),
    response: z.object({ seq: z.number().int(), hash: z.string(), head: z.string() }),
  },
  'audit:list': {
    request: z
      .object({
        limit: z.number().int().min(1).max(500).default(100),
        beforeSeq: z.number().int().min(1).optional(),
      })
      .strict(),
    response: z.object({ items: z.array(ReceiptView) }),
  },
  'audit:keys': {
    request: z.object({}).strict(),
    response: z.object({ items: z.array(ActorKeyView) }),
  },
  'actor:rekey': {
    request: z
      .object({
        actorId: Id,
        reason: z.string().trim().min(1, 'a reason is required').max(2000),
        /** The reviewer's passphrase for the new key, typed by them. */
        passphrase: Passphrase,
      })
      .strict(),
    response: ActorKeyView,
  },
} as const;
