import { z } from 'zod';
import { BindingRole, Classification, Relation } from '../../domain/enums';
import { BindingView, ClaimSummary, Id, RevisionId } from '../../domain/schemas';
import { ClaimPolicySchema } from '../../domain/claimStatus';

export const ClaimDetail = ClaimSummary.extend({
  scope: z.array(z.string()),
  policy: ClaimPolicySchema,
  tenant: z.string(),
  classification: Classification,
  unresolvedReason: z.string().nullable(),
  reasons: z.array(z.string()),
  missingKinds: z.array(z.string()),
  bindings: z.array(BindingView),
});
export type ClaimDetail = z.infer<typeof ClaimDetail>;

export const claimChannels = {
  'claim:list': { request: z.object({}).strict(), response: z.array(ClaimSummary) },
  'claim:get': { request: z.object({ claimId: Id }).strict(), response: ClaimDetail },
  'claim:create': {
    request: z
      .object({
        claimId: Id.optional(),
        statement: z.string().trim().min(1).max(2000),
        scope: z.array(z.string().min(1)).default([]),
        policy: ClaimPolicySchema.default({ minIndependentSources: 1, requiredKinds: [], quorumSize: null }),
        tenant: z.string().min(1),
        classification: Classification,
      })
      .strict(),
    response: ClaimDetail,
  },
  'claim:bind': {
    request: z
      .object({
        claimId: Id,
        revisionId: RevisionId,
        relation: Relation,
        role: BindingRole,
        rationale: z.string().max(4000).default(''),
      })
      .strict(),
    response: BindingView,
  },
} as const;
