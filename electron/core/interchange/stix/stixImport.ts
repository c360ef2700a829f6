import type { Classification, LifecycleState } from '../../../../shared/domain/enums';
import { BUNDLE_FORMAT, BUNDLE_VERSION } from '../../../../shared/interchange/bundle';
import type { ImportReport } from '../../../../shared/ipc/channels/interchange';
import { DEFAULT_MAX_STIX_BYTES, type StixImportReport, type StixMappingReport } from '../../../../shared/ipc/channels/stix';
import type { Actor, ServiceContext } from '../../context';
import { invalid, WorkbenchError } from '../../errors';
import { readCaseMeta } from '../../services/caseMeta';
import { scopedName } from '../../services/scopedNames';
import { transitionEvidence } from '../../services/evidenceTransitions';
import { aclFilter } from '../../store/acl';
import { writeTransaction } from '../../store/caseFile';
import { bundleSteps, lifecyclePath } from '../bundleImport';
import { applyAll, type ImportStep } from '../importJobs';
import { channelRequest } from '../channelRequest';
import { stixToBundle, type CaseLineage, type StixMapping } from './stixMap';
import { readStixFile, type StixDocument } from './stixRead';
import { nameOf } from './stixVocabulary';

/**
 * stix:import (issue 10.3): reads and checks the whole file, translates it into evidence bundle
 * records (stixMap.ts) and applies them with applyBundle, so screening, ACL, receipts, idempotency
 * and all-or-nothing are those of a bundle import. Revocation, which a bundle cannot express
 * (a successor in another lineage), is applied after the records in the same transaction.
 */

export interface StixImportRequest {
  path: string;
  tenant?: string;
  classification?: Classification;
  maxBytes?: number;
}

export function importStix(ctx: ServiceContext, req: StixImportRequest): StixImportReport {
  const doc = readStixFile(req.path, req.maxBytes ?? DEFAULT_MAX_STIX_BYTES);
  return applyStix(ctx, doc, stixOptions(ctx, req));
}

/** Where objects are filed: the request's tenant and default classification, else the importer's defaults. */
export const stixOptions = (ctx: ServiceContext, req: Pick<StixImportRequest, 'tenant' | 'classification'>) => ({
  tenant: req.tenant ?? defaultTenant(ctx),
  classification: req.classification ?? ('internal' as const),
});

/** The importer's tenant: their only one, else the case's home tenant when they may write there. */
function defaultTenant(ctx: ServiceContext): string {
  const own = ctx.actor.tenants.filter((t) => t !== '*');
  if (own.length === 1 && !ctx.actor.tenants.includes('*')) return own[0]!;
  const home = readCaseMeta(ctx.db).homeScope.tenants.find((t) => t !== '*' && (ctx.actor.tenants.includes('*') || ctx.actor.tenants.includes(t)));
  if (home) return home;
  throw invalid('stix:import: tenant: name the tenant the objects are filed under; your clearance covers several', [{ path: ['tenant'], message: 'required here' }]);
}

export function applyStix(ctx: ServiceContext, doc: StixDocument, options: { tenant: string; classification: Classification }): StixImportReport {
  return applyAll(ctx, (runCtx) => stixSteps(runCtx, doc, options));
}

/**
 * applyStix as steps, for an import job (importJobs.ts): the mapping (which reads what the case
 * holds), announced as the total, then one step per bundle record, then revocation. Runs inside the
 * caller's transaction.
 */
export function* stixSteps(ctx: ServiceContext, doc: StixDocument, options: { tenant: string; classification: Classification }): Generator<ImportStep, StixImportReport> {
  const lookups = caseLookups(ctx);
  const home = readCaseMeta(ctx.db).homeScope;
  const mapping = stixToBundle(doc, { ...options, ...lookups, caseName: (name, scope) => scopedName(name, scope, ctx.actor, home) });
  yield { total: mapping.records.length };
  let base: ImportReport;
  try {
    base = yield* bundleSteps(ctx, { header: { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, producer: `STIX ${doc.specVersion} ${doc.bundleId}` }, records: mapping.records, sha256: doc.sha256, bytes: doc.bytes });
  } catch (err) {
    // The records are this import's translation: name the channel the user called.
    if (err instanceof WorkbenchError) throw new WorkbenchError(err.code, err.message.replace(/^bundle:import: /, 'stix:import: '), err.issues);
    throw err;
  }
  const renamed = new Map(base.renamed.filter((r) => r.kind === 'evidence').map((r) => [r.name, r.id]));
  const lifecycle = applyRevocations(ctx, mapping, (name) => renamed.get(name) ?? name, lookups.lineage, doc.bundleId);
  // A source lands under its scoped name, or under the id of the same text already in its compartment.
  const sourceIds = new Map(base.renamed.filter((r) => r.kind === 'source').map((r) => [r.name, r.id]));
  const keptAsSource = { ...mapping.report.keptAsSource, versions: mapping.report.keptAsSource.versions.map((v) => ({ ...v, sourceId: sourceIds.get(v.sourceId) ?? v.sourceId })) };
  return { ...base, stix: { ...mapping.report, keptAsSource, ...lifecycle } };
}

/**
 * What the lookups below read, by name: the revisions and the claims filed under a name, bare or
 * qualified `<name>~<scope>` (one key range covers both; its bounds come first), as `actor` may
 * see them. The clearance filters the revisions the key range found (`useIndex: false`): led by
 * the classification index instead (migration 0440), every lookup walked every visible revision,
 * and re-importing 6,000 objects took 9.2 s instead of 0.4. Exported for queryPlans.test.ts.
 */
export function namedRowsQueries(actor: Actor) {
  const revAcl = aclFilter(actor, 'r', { useIndex: false });
  const claimAcl = aclFilter(actor, 'c');
  return {
    revisions: {
      sql: `SELECT r.evidence_id, r.revision, r.content_sha256, r.source_version, r.classification, r.state, l.title
              FROM evidence_revision r JOIN evidence_lineage l USING (evidence_id)
             WHERE r.evidence_id >= ? AND r.evidence_id < ? AND ${revAcl.sql} ORDER BY r.evidence_id, r.revision`,
      params: revAcl.params,
    },
    claims: { sql: `SELECT claim_id FROM claim c WHERE c.claim_id >= ? AND c.claim_id < ? AND ${claimAcl.sql} ORDER BY c.claim_id`, params: claimAcl.params },
  };
}

/** What the case holds under the names a STIX id maps to, as the importer may see it (read once per id). */
function caseLookups(ctx: ServiceContext) {
  const named = namedRowsQueries(ctx.actor);
  const revisions = ctx.db.prepare(named.revisions.sql);
  const claims = ctx.db.prepare(named.claims.sql);
  const sameName = (name: string) => (id: string) => id === name || id.startsWith(`${name}~`);
  const lineages = new Map<string, CaseLineage | undefined>();
  const lineage = (stixId: string): CaseLineage | undefined => {
    if (lineages.has(stixId)) return lineages.get(stixId);
    const name = nameOf(stixId);
    const rows = (revisions.all(name, `${name}~\u007f`, ...named.revisions.params) as {
      evidence_id: string; revision: number; content_sha256: string; source_version: string | null; classification: Classification; state: LifecycleState; title: string;
    }[]).filter((r) => sameName(name)(r.evidence_id));
    const first = rows[0]?.evidence_id;
    const mine = rows.filter((r) => r.evidence_id === first);
    const latest = mine.at(-1);
    const found = latest
      ? { evidenceId: latest.evidence_id, title: latest.title, classification: latest.classification, state: latest.state, revisions: mine.map((r) => ({ revision: r.revision, sha256: r.content_sha256, sourceVersion: r.source_version })) }
      : undefined;
    lineages.set(stixId, found);
    return found;
  };
  const claim = (name: string): string | undefined =>
    (claims.all(name, `${name}~\u007f`, ...named.claims.params) as { claim_id: string }[]).map((r) => r.claim_id).find(sameName(name));
  const sourceAcl = aclFilter(ctx.actor, 's');
  const source = ctx.db.prepare(`SELECT s.content_sha256 FROM source_document s WHERE s.source_id = ? AND ${sourceAcl.sql}`);
  const sourceSha256 = (sourceId: string): string | undefined => (source.get(sourceId, ...sourceAcl.params) as { content_sha256: string } | undefined)?.content_sha256;
  return { lineage, claim, sourceSha256 };
}

type Lifecycle = Pick<StixMappingReport, 'superseded' | 'revoked' | 'lifecycleNotApplied'>;

/**
 * A revoked object's new latest revision becomes SUPERSEDED, with the latest revision of its live
 * replacement (revoked-by chains followed to their end) as supporting ref, or REVOKED when nothing
 * live replaces it. SUPERSEDED is reachable only from VALIDATED, so the move goes through the
 * validation checklist first, as a reported SUPERSEDED of a bundle does; when the checklist (or the
 * lifecycle) refuses, the revision is REVOKED instead, the closest legal state, and the report says why.
 */
function applyRevocations(ctx: ServiceContext, mapping: StixMapping, caseId: (name: string) => string, lineage: (id: string) => CaseLineage | undefined, bundleId: string): Lifecycle {
  const out: Lifecycle = { superseded: [], revoked: [], lifecycleNotApplied: [] };
  const acl = aclFilter(ctx.actor, 'r');
  const latestOf = ctx.db.prepare(`SELECT r.revision_id, r.state, r.content FROM evidence_revision r WHERE r.evidence_id = ? AND ${acl.sql} ORDER BY r.revision DESC LIMIT 1`);
  const supersededBy = ctx.db.prepare(`SELECT supporting_ref FROM evidence_transition WHERE revision_id = ? AND to_state = 'SUPERSEDED' ORDER BY transition_id DESC LIMIT 1`);
  const latest = (id: string) => {
    const name = mapping.evidenceNames.get(id) ?? lineage(id)?.evidenceId;
    return name ? (latestOf.get(caseId(name), ...acl.params) as { revision_id: string; state: LifecycleState; content: string } | undefined) : undefined;
  };
  // Where a chain continues past an object revoked in an earlier import: the revision it was superseded by.
  const successorInCase = (id: string): string | undefined => {
    const row = latest(id);
    if (!row || row.state !== 'SUPERSEDED') return undefined;
    const ref = (supersededBy.get(row.revision_id) as { supporting_ref: string | null } | undefined)?.supporting_ref;
    const next = ref ? (latestOf.get(ref.slice(0, ref.lastIndexOf('@')), ...acl.params) as { content: string } | undefined) : undefined;
    try {
      return next ? ((JSON.parse(next.content) as { id?: string }).id ?? undefined) : undefined;
    } catch {
      return undefined;
    }
  };
  const isRevoked = (id: string) => mapping.revokedIds.has(id) || (!mapping.evidenceNames.has(id) && ['REVOKED', 'SUPERSEDED'].includes(latest(id)?.state ?? ''));

  for (const plan of mapping.revocations) {
    const revisionId = `${caseId(plan.evidenceName)}@${plan.revision}`;
    const chain: string[] = [];
    let end: string | null = null;
    let why = 'revoked: true and no revoked-by relationship names a replacement';
    for (let cur = mapping.revokedBy.get(plan.id); cur !== undefined; ) {
      if (chain.includes(cur) || cur === plan.id) {
        why = `its revoked-by chain ${[plan.id, ...chain, cur].join(' → ')} is a cycle`;
        break;
      }
      chain.push(cur);
      if (!isRevoked(cur)) {
        end = cur;
        break;
      }
      const next = mapping.revokedBy.get(cur) ?? successorInCase(cur);
      if (next === undefined) why = `its revoked-by chain ${[plan.id, ...chain].join(' → ')} ends at a revoked object with no replacement`;
      cur = next;
    }
    const reason = (text: string) => `${text} (imported STIX ${bundleId})`.slice(0, 4000);
    if (end !== null) {
      const successor = latest(end)?.revision_id ?? `stix:${end}`;
      const moved = move(ctx, revisionId, 'SUPERSEDED', reason(`STIX: ${plan.id} revoked; replaced by ${[...chain].join(' → ')}`), successor);
      if (moved === null) {
        out.superseded.push({ id: plan.id, revisionId, successor, chain });
        continue;
      }
      const fallback = move(ctx, revisionId, 'REVOKED', reason(`STIX: ${plan.id} revoked, replaced by ${end}; SUPERSEDED was refused: ${moved.reason}`), successor);
      out.lifecycleNotApplied.push({ id: plan.id, revisionId, wanted: 'SUPERSEDED', kept: stateOf(ctx, revisionId), reason: fallback === null ? `revoked instead: ${moved.reason}` : moved.reason });
      if (fallback === null) out.revoked.push({ id: plan.id, revisionId, reason: `replaced by ${end}, but SUPERSEDED was refused: ${moved.reason}` });
      continue;
    }
    const moved = move(ctx, revisionId, 'REVOKED', reason(`STIX: ${plan.id} ${why}`));
    if (moved === null) out.revoked.push({ id: plan.id, revisionId, reason: why });
    else out.lifecycleNotApplied.push({ id: plan.id, revisionId, wanted: 'REVOKED', kept: stateOf(ctx, revisionId), reason: moved.reason });
  }
  return out;
}

/** Moves a revision along the shortest legal path to `to` as one savepoint; null when done, else why not. */
function move(ctx: ServiceContext, revisionId: string, to: LifecycleState, reason: string, supportingRef?: string): { reason: string } | null {
  const from = stateOf(ctx, revisionId);
  if (from === to) return null;
  const path = lifecyclePath(from, to);
  if (path === null) return { reason: `no transition the import may make leads from ${from} to ${to}` };
  try {
    writeTransaction(ctx.db, () => {
      for (const step of path) {
        const last = step === to;
        transitionEvidence(ctx, channelRequest('evidence:transition', { revisionId, to: step, reason: last ? reason : `on the way to ${to}: ${reason}`.slice(0, 4000), ...(last && supportingRef ? { supportingRef } : {}) }));
      }
    });
    return null;
  } catch (err) {
    if (!(err instanceof WorkbenchError)) throw err;
    return { reason: err.message };
  }
}

function stateOf(ctx: ServiceContext, revisionId: string): LifecycleState {
  return (ctx.db.prepare('SELECT state FROM evidence_revision WHERE revision_id = ?').get(revisionId) as { state: LifecycleState }).state;
}
