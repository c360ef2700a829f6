import { canonicalJson } from '../../../shared/domain/canonical';
import type { LifecycleState } from '../../../shared/domain/enums';
import { TRANSITIONS } from '../../../shared/domain/lifecycle';
import type { ValidityContext } from '../../../shared/domain/schemas';
import type { BundleRecord } from '../../../shared/interchange/bundle';
import type { RequestOf } from '../../../shared/ipc/contract';
import type { ImportReport } from '../../../shared/ipc/channels/interchange';
import type { ServiceContext } from '../context';
import { sha256Hex } from '../crypto';
import { conflict, invalid, WorkbenchError } from '../errors';
import { readCaseMeta } from '../services/caseMeta';
import { bindEvidence, createClaim } from '../services/claims';
import { ingestEvidence, reviseEvidence } from '../services/evidence';
import { transitionEvidence } from '../services/evidenceTransitions';
import { recordProvenance } from '../services/provenance';
import { scopedName, scopeQualifier } from '../services/scopedNames';
import { addSource } from '../services/sources';
import { aclFilter } from '../store/acl';
import type { ReadBundle } from './bundleRead';
import { channelRequest } from './channelRequest';
import { applyAll } from './importJobs';

type Scope = { tenant: string; classification: ValidityContext['classification'] };
type Counted = 'sources' | 'evidence' | 'claims' | 'bindings' | 'prov';

/**
 * Applies a validated bundle (bundleRead.ts) to the case in ONE write transaction: every record
 * goes through the service its channel calls, with that channel's request schema, so screening,
 * ACL, lifecycle rules and receipts are exactly those of the same actions done by hand. The
 * first record the case refuses aborts the import with its line and the reason, and the
 * transaction leaves the case as it was. A record already present with the same content is
 * counted as unchanged, so re-importing a bundle writes nothing new.
 */
export function applyBundle(ctx: ServiceContext, bundle: ReadBundle): ImportReport {
  return applyAll(ctx, (runCtx) => bundleSteps(runCtx, bundle));
}

/** applyBundle as steps: one per record, for an import job to run in slices (importJobs.ts). Runs inside the caller's transaction. */
export function* bundleSteps(ctx: ServiceContext, bundle: ReadBundle): Generator<void, ImportReport> {
  const home = readCaseMeta(ctx.db).homeScope;
  const report: ImportReport = {
    bundleSha256: bundle.sha256,
    records: bundle.records.length,
    created: { sources: 0, evidence: 0, claims: 0, bindings: 0, prov: 0 },
    unchanged: { sources: 0, evidence: 0, claims: 0, bindings: 0, prov: 0 },
    quarantined: [],
    lifecycleNotApplied: [],
    renamed: [],
  };
  // Bundle names → case ids (a name may come back qualified with its scope).
  const sources = new Map<string, string>();
  const evidence = new Map<string, string>();
  const claims = new Map<string, string>();

  // The id this case gives a bundle name: a name another case qualified is checked against the
  // record's scope, then named by this case's own rule (so it may come back bare, or qualified).
  const caseName = (name: string, scope: Scope, where: string, field: string): string => {
    const [base, qualifier] = name.split('~') as [string, string | undefined];
    const expected = scopeQualifier(scope);
    if (qualifier !== undefined && qualifier !== expected) {
      throw invalid(`${where}: ${field}: ${name} carries the scope ~${qualifier}, but the record is in ${expected}`, [{ path: [field], message: `expected ~${expected}` }]);
    }
    return scopedName(base, scope, ctx.actor, home);
  };
  const chosen = (name: string) => name.split('~')[0]!;
  const rename = (kind: 'source' | 'evidence' | 'claim', name: string, id: string) => {
    if (name !== id) report.renamed.push({ kind, name, id });
  };
  const revisionOf = (ref: string, where: string, field: string): string => {
    const at = ref.lastIndexOf('@');
    const name = ref.slice(0, at);
    const id = evidence.get(name) ?? (visibleLineage(ctx, name) ? name : undefined);
    if (!id) throw invalid(`${where}: ${field}: no evidence ${name} in this bundle before this record, nor in the case`, [{ path: [field], message: 'unknown evidence' }]);
    return `${id}${ref.slice(at)}`;
  };
  const claimOf = (name: string, where: string, field: string): string => {
    const id = claims.get(name) ?? (visibleClaim(ctx, name) ? name : undefined);
    if (!id) throw invalid(`${where}: ${field}: no claim ${name} in this bundle before this record, nor in the case`, [{ path: [field], message: 'unknown claim' }]);
    return id;
  };
  // Reported states are applied after every record is in (validation may need PROV recorded
  // further on), in bundle order, each along the shortest legal path of the lifecycle.
  const reported: { revisionId: string; state: LifecycleState; where: string }[] = [];
  const assertLifecycle = (revisionId: string, state: LifecycleState | undefined, where: string) => {
    if (state) reported.push({ revisionId, state, where });
  };
  const applyReported = () => {
    for (const { revisionId, state, where } of reported) {
      const from = stateOf(ctx, revisionId);
      const path = lifecyclePath(from, state);
      if (path === null) {
        report.lifecycleNotApplied.push({ at: where, revisionId, reported: state, kept: from, reason: `no transition the import may make leads from ${from} to ${state} (a quarantined revision is released by a reviewer, never by an import)` });
        continue;
      }
      for (const to of path) {
        try {
          const next = to === 'SUPERSEDED' ? successorOf(ctx, revisionId) : undefined;
          transitionEvidence(ctx, channelRequest('evidence:transition', { revisionId, to, reason: `reported ${state} by the imported bundle (${where})`, ...(next ? { supportingRef: next } : {}) }));
        } catch (err) {
          if (!(err instanceof WorkbenchError)) throw err;
          report.lifecycleNotApplied.push({ at: where, revisionId, reported: state, kept: stateOf(ctx, revisionId), reason: err.message });
          break;
        }
      }
    }
  };

  const apply: { [T in BundleRecord['type']]: (r: Extract<BundleRecord, { type: T }>, where: string) => Counted | null } = {
    source: (r, where) => {
      caseName(r.sourceId, r, where, 'sourceId');
      const out = addSource(ctx, channelRequest('source:add', { sourceId: chosen(r.sourceId), title: r.title, content: r.content, mediaType: r.mediaType, tenant: r.tenant, classification: r.classification }));
      sources.set(r.sourceId, out.sourceId);
      rename('source', r.sourceId, out.sourceId);
      return out.created ? 'sources' : null;
    },
    evidence: (r, where) => {
      const id = caseName(r.evidenceId, r.context, where, 'evidenceId');
      const revisionId = `${id}@${r.revision}`;
      const sha = sha256Hex(r.content);
      evidence.set(r.evidenceId, id);
      rename('evidence', r.evidenceId, id);
      // Only a revision the importer may see counts as present; anything else is the service's to refuse.
      const acl = aclFilter(ctx.actor, 'r');
      const present = ctx.db.prepare(`SELECT r.content_sha256 AS sha FROM evidence_revision r WHERE r.revision_id = ? AND ${acl.sql}`).get(revisionId, ...acl.params) as { sha: string } | undefined;
      if (present) {
        if (present.sha !== sha) throw conflict(`${where}: evidence ${revisionId} is already in the case with other content (SHA-256 ${present.sha.slice(0, 12)}…); a correction is a new revision`);
        return null;
      }
      const span = r.span ? { ...r.span, sourceId: sources.get(r.span.sourceId) ?? r.span.sourceId } : undefined;
      const out =
        r.revision === 1
          ? ingestEvidence(ctx, channelRequest('evidence:ingest', { evidenceId: chosen(r.evidenceId), title: r.title, kind: r.kind, content: r.content, mediaType: r.mediaType, context: r.context, ...(r.contentSha256 ? { declaredSha256: r.contentSha256 } : {}), ...(span ? { span } : {}) }))
          : reviseEvidence(ctx, channelRequest('evidence:revise', { supersedes: `${id}@${r.revision - 1}`, content: r.content, reason: r.reason ?? `revision ${r.revision} from an imported bundle`, context: r.context, ...(r.contentSha256 ? { declaredSha256: r.contentSha256 } : {}), ...(span ? { span } : {}) }));
      if (out.revisionId !== revisionId) throw conflict(`${where}: evidence ${r.evidenceId}@${r.revision} would become ${out.revisionId} here; revisions must arrive in order`);
      if (out.state !== 'QUARANTINED') assertLifecycle(out.revisionId, r.lifecycle, where);
      else {
        report.quarantined.push(out.revisionId);
        if (r.lifecycle && r.lifecycle !== 'QUARANTINED') {
          report.lifecycleNotApplied.push({ at: where, revisionId: out.revisionId, reported: r.lifecycle, kept: 'QUARANTINED', reason: 'quarantined by ingest screening; a reviewer decides whether to release it' });
        }
      }
      return 'evidence';
    },
    claim: (r, where) => {
      const id = caseName(r.claimId, r, where, 'claimId');
      claims.set(r.claimId, id);
      rename('claim', r.claimId, id);
      const present = visibleClaim(ctx, id);
      if (present) {
        const same = canonicalJson({ statement: present.statement, scope: JSON.parse(present.scope), policy: JSON.parse(present.policy), tenant: present.tenant, classification: present.classification });
        if (same !== canonicalJson({ statement: r.statement, scope: r.scope, policy: r.policy, tenant: r.tenant, classification: r.classification })) {
          throw conflict(`${where}: claim ${id} is already in the case with another statement, scope, policy or compartment`);
        }
        return null;
      }
      createClaim(ctx, channelRequest('claim:create', { claimId: chosen(r.claimId), statement: r.statement, scope: r.scope, policy: r.policy, tenant: r.tenant, classification: r.classification }));
      return 'claims';
    },
    binding: (r, where) => bind(claimOf(r.claimId, where, 'claimId'), revisionOf(r.revision, where, 'revision'), r, where),
    submission: (r, where) => {
      const revisionId = revisionOf(r.evidence, where, 'evidence');
      const row = ctx.db.prepare('SELECT source_type, confidence, independence_group FROM evidence_revision WHERE revision_id = ?').get(revisionId) as
        | { source_type: string; confidence: number | null; independence_group: string | null }
        | undefined;
      if (!row) throw invalid(`${where}: evidence: no evidence revision ${revisionId} is visible to you`);
      const restated: [string, unknown, unknown][] = [
        ['provenance', r.provenance, row.source_type],
        ['confidence', r.confidence, row.confidence],
        ['independenceGroup', r.independenceGroup, row.independence_group],
      ];
      for (const [field, said, recorded] of restated) {
        if (said !== recorded) {
          throw invalid(`${where}: ${field}: the submission says ${JSON.stringify(said)} but ${revisionId} records ${JSON.stringify(recorded)}; a submission shares evidence as it is recorded, it does not restate it`, [{ path: [field], message: `expected ${JSON.stringify(recorded)}` }]);
        }
      }
      const counted = bind(claimOf(r.claim, where, 'claim'), revisionId, r, where);
      assertLifecycle(revisionId, r.lifecycle, where);
      return counted;
    },
    prov: (r, where) => {
      const endpoint = (e: string, field: string) =>
        e.startsWith('rev:') ? `rev:${revisionOf(e.slice(4), where, field)}` : e.startsWith('src:') ? `src:${sources.get(e.slice(4)) ?? e.slice(4)}` : e;
      const nodes = r.nodes.filter((n) => {
        const present = ctx.db.prepare('SELECT kind, label FROM prov_node WHERE node_id = ?').get(n.id) as { kind: string; label: string } | undefined;
        if (present && (present.kind !== n.kind || present.label !== n.label)) throw conflict(`${where}: provenance node ${n.id} is already in the case as another ${present.kind}`);
        return !present;
      });
      const edges = r.edges
        .map((e, i) => ({ ...e, from: endpoint(e.from, `edges.${i}.from`), to: endpoint(e.to, `edges.${i}.to`) }))
        .filter((e) => !edgePresent(ctx, e));
      if (nodes.length === 0 && edges.length === 0) return null;
      recordProvenance(ctx, channelRequest('prov:record', { tenant: r.tenant, classification: r.classification, nodes, edges }));
      return 'prov';
    },
  };

  function bind(claimId: string, revisionId: string, r: { relation: string; role: string; rationale: string }, where: string): Counted | null {
    const present = ctx.db
      .prepare('SELECT b.relation, b.role FROM claim_binding b JOIN claim c ON c.claim_id = b.claim_id AND c.generation = b.generation WHERE b.claim_id = ? AND b.revision_id = ?')
      .get(claimId, revisionId) as { relation: string; role: string } | undefined;
    if (present) {
      if (present.relation !== r.relation || present.role !== r.role) {
        throw conflict(`${where}: ${revisionId} is already bound to ${claimId} as ${present.relation}/${present.role}, not ${r.relation}/${r.role}`);
      }
      return null;
    }
    bindEvidence(ctx, channelRequest('claim:bind', { claimId, revisionId, relation: r.relation, role: r.role, rationale: r.rationale } as RequestOf<'claim:bind'>));
    return 'bindings';
  }

  for (const { at, record } of bundle.records) {
    const where = `${at} (${record.type})`;
    const counted = withLocation(where, () => (apply[record.type] as (r: BundleRecord, where: string) => Counted | null)(record, where));
    if (counted) report.created[counted]++;
    else report.unchanged[countedAs(record)]++;
    yield;
  }
  applyReported();
  return report;
}

const countedAs = (r: BundleRecord): Counted =>
  r.type === 'source' ? 'sources' : r.type === 'evidence' ? 'evidence' : r.type === 'claim' ? 'claims' : r.type === 'prov' ? 'prov' : 'bindings';

/** Any refusal inside a record names where the record stood, and aborts the whole import. */
function withLocation<T>(where: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof WorkbenchError) {
      const message = err.message.startsWith(where) ? err.message : `${where}: ${err.message}`;
      throw new WorkbenchError(err.code, `bundle:import: ${message}; nothing was imported`, err.issues);
    }
    if (err instanceof Error && err.name === 'ZodError') throw invalid(`bundle:import: ${where}: ${err.message.slice(0, 500)}; nothing was imported`);
    throw err;
  }
}

/**
 * The shortest chain of legal transitions from one state to another, or null. Never out of
 * QUARANTINED: releasing a quarantined revision is a reviewer's decision, not a bundle's.
 */
export function lifecyclePath(from: LifecycleState, to: LifecycleState): LifecycleState[] | null {
  const previous = new Map<LifecycleState, LifecycleState | null>([[from, null]]);
  const queue: LifecycleState[] = [from];
  while (queue.length > 0) {
    const at = queue.shift()!;
    if (at === to) {
      const path: LifecycleState[] = [];
      for (let s: LifecycleState | null = to; s !== null && s !== from; s = previous.get(s)!) path.unshift(s);
      return path;
    }
    if (at === 'QUARANTINED') continue;
    for (const next of TRANSITIONS[at]) {
      if (!previous.has(next)) {
        previous.set(next, at);
        queue.push(next);
      }
    }
  }
  return null;
}

function successorOf(ctx: ServiceContext, revisionId: string): string | undefined {
  return (ctx.db.prepare('SELECT revision_id AS id FROM evidence_revision WHERE supersedes = ?').get(revisionId) as { id: string } | undefined)?.id;
}

function stateOf(ctx: ServiceContext, revisionId: string): LifecycleState {
  return (ctx.db.prepare('SELECT state FROM evidence_revision WHERE revision_id = ?').get(revisionId) as { state: LifecycleState }).state;
}

function visibleLineage(ctx: ServiceContext, evidenceId: string): boolean {
  const acl = aclFilter(ctx.actor, 'r');
  return ctx.db.prepare(`SELECT 1 FROM evidence_revision r WHERE r.evidence_id = ? AND ${acl.sql} LIMIT 1`).get(evidenceId, ...acl.params) !== undefined;
}

function visibleClaim(ctx: ServiceContext, claimId: string): { statement: string; scope: string; policy: string; tenant: string; classification: string } | undefined {
  const acl = aclFilter(ctx.actor, 'c');
  return ctx.db.prepare(`SELECT statement, scope, policy, tenant, classification FROM claim c WHERE c.claim_id = ? AND ${acl.sql}`).get(claimId, ...acl.params) as
    | { statement: string; scope: string; policy: string; tenant: string; classification: string }
    | undefined;
}

function edgePresent(ctx: ServiceContext, e: { type: string; from: string; to: string }): boolean {
  return ctx.db.prepare('SELECT 1 FROM prov_edge WHERE subject = ? AND type = ? AND object = ?').get(e.from, e.type, e.to) !== undefined;
}

