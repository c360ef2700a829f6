import { canTransition } from '../../../shared/domain/lifecycle';
import type { RevisionSummary } from '../../../shared/domain/schemas';
import { usability } from '../../../shared/domain/usable';
import { failedChecks } from '../../../shared/domain/validationChecklist';
import type { EvidenceDetail } from '../../../shared/ipc/channels/evidence';
import type { ParsedRequestOf } from '../../../shared/ipc/contract';
import type { ServiceContext } from '../context';
import { aclFilter } from '../store/acl';
import { loadVisibleRevision, SUMMARY_COLUMNS, toDetail, toSummary, usabilityInput, type RevisionRow } from '../store/evidenceRows';
import { copiesOf } from './copies';
import { spanOf } from './sources';
import { checklistFor, latestValidationRun } from './validation';

/** The page query of evidence:list; exported so a test can hold its query plan to an index. */
export function listEvidenceQuery(actor: ServiceContext['actor'], req: ParsedRequestOf<'evidence:list'>): { sql: string; params: (string | number)[] } {
  const acl = aclFilter(actor, 'r', { useIndex: false });
  const where = [acl.sql];
  const params: (string | number)[] = [...acl.params];
  const filter = (sql: string, value: string | undefined) => {
    if (value === undefined) return;
    where.push(sql);
    params.push(value);
  };
  filter('r.state = ?', req.state);
  filter('r.kind = ?', req.kind);
  filter('r.revision_id > ?', req.after);
  return {
    sql: `SELECT ${SUMMARY_COLUMNS} FROM evidence_revision r JOIN evidence_lineage l USING (evidence_id)
       WHERE ${where.join(' AND ')} ORDER BY r.revision_id LIMIT ?`,
    params: [...params, req.limit + 1],
  };
}

export function listEvidence(ctx: ServiceContext, req: ParsedRequestOf<'evidence:list'>): { items: RevisionSummary[]; nextCursor: string | null } {
  const query = listEvidenceQuery(ctx.actor, req);
  const rows = ctx.db.prepare(query.sql).all(...query.params) as RevisionRow[];
  const page = rows.slice(0, req.limit);
  return {
    items: page.map(toSummary),
    nextCursor: rows.length > req.limit ? page[page.length - 1]!.revision_id : null,
  };
}

export function getEvidence(ctx: ServiceContext, revisionId: string): EvidenceDetail {
  const row = loadVisibleRevision(ctx.db, ctx.actor, revisionId, 'evidence:get');
  const detail = toDetail(ctx.db, row);
  return {
    ...detail,
    // Scope is empty here: applicability to a particular claim is judged where the claim is.
    usability: usability(usabilityInput(row), { clearance: ctx.actor, now: ctx.now(), scope: [] }),
    validation: latestValidationRun(ctx, revisionId),
    span: spanOf(ctx, revisionId),
    copies: copiesOf(ctx, revisionId),
    boundTo: claimsBindingRevision(ctx, revisionId),
  };
}

/** The visible claims whose current generation binds this revision (the binding index by revision). */
function claimsBindingRevision(ctx: ServiceContext, revisionId: string): EvidenceDetail['boundTo'] {
  const acl = aclFilter(ctx.actor, 'c');
  return ctx.db
    .prepare(
      `SELECT b.claim_id AS claimId, c.statement, b.relation, b.role FROM claim_binding b JOIN claim c ON c.claim_id = b.claim_id AND c.generation = b.generation
       WHERE b.revision_id = ? AND ${acl.sql} ORDER BY b.claim_id LIMIT 200`,
    )
    .all(revisionId, ...acl.params) as EvidenceDetail['boundTo'];
}

/** evidence:validate: the checklist as a dry run; computes and answers, writes nothing. */
export function validateEvidence(ctx: ServiceContext, revisionId: string) {
  const row = loadVisibleRevision(ctx.db, ctx.actor, revisionId, 'evidence:validate');
  const checks = checklistFor(ctx, row);
  return { revisionId, state: row.state, canValidate: canTransition(row.state, 'VALIDATED'), passed: failedChecks(checks).length === 0, checks };
}
