import { z } from 'zod';

export const ReceiptView = z.object({
  seq: z.number().int(),
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  targets: z.array(z.string()),
  body: z.record(z.string(), z.unknown()),
  prevHash: z.string(),
  hash: z.string(),
});
export type ReceiptView = z.infer<typeof ReceiptView>;

export const ChainVerification = z.object({
  ok: z.boolean(),
  length: z.number().int(),
  head: z.string().nullable(),
  firstBroken: z.object({ seq: z.number().int(), reason: z.string() }).nullable(),
});
export type ChainVerification = z.infer<typeof ChainVerification>;

export const auditChannels = {
  'audit:verify': { request: z.object({}).strict(), response: ChainVerification },
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
} as const;
