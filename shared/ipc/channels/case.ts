import { z } from 'zod';
import { ActorView, Id } from '../../domain/schemas';
import { Classification, Role } from '../../domain/enums';

export const CaseInfo = z.object({
  path: z.string(),
  caseId: z.string(),
  name: z.string(),
  description: z.string(),
  schemaVersion: z.number().int(),
  claimCount: z.number().int(),
  evidenceCount: z.number().int(),
  actor: ActorView,
});
export type CaseInfo = z.infer<typeof CaseInfo>;

const CasePath = z.string().min(1).max(4096).refine((p) => !p.includes('\u0000'), 'path contains a NUL byte');

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
        admin: z.object({ actorId: Id, displayName: z.string().min(1).max(200) }).strict(),
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
  'actor:list': { request: z.object({}).strict(), response: z.array(ActorView) },
  'actor:select': { request: z.object({ actorId: Id }).strict(), response: ActorView },
  'actor:create': {
    request: z
      .object({
        actorId: Id,
        displayName: z.string().min(1).max(200),
        role: Role,
        tenants: z.array(z.string().min(1)).min(1),
        maxClassification: Classification,
      })
      .strict(),
    response: ActorView,
  },
} as const;
