import { CLASSIFICATIONS, type Classification } from '../../../shared/domain/enums';
import { isAuthorized } from '../../../shared/domain/usable';
import type { ParsedRequestOf } from '../../../shared/ipc/contract';
import type { DrillReport } from '../../../shared/ipc/channels/drill';
import type { Actor, ServiceContext } from '../context';
import { WorkbenchError } from '../errors';
import { getClaim } from '../services/claims';
import { getEvidence, listEvidence } from '../services/evidenceReads';
import { traceProvenance } from '../services/provenance';
import { searchCase } from '../services/search';

/**
 * The retrieval probe (seed 000 §38.5: high-similarity evidence must not bypass ACL): readers of
 * narrower clearance than the planted items ask the read paths for them by id, by their exact
 * words and by listing. Read-only: a reader here is an Actor value, never a row, so no permission
 * changes. Every item an answer holds is checked against the reader's clearance with the domain rule.
 */
export interface ProbeTargets {
  revisions: readonly string[];
  claims: readonly string[];
  /** Words of the planted text to search for. */
  words: string;
  tenant: string;
  classification: Classification;
}

type Item = { kind: 'revision' | 'claim'; id: string };

function readersFor(t: ProbeTargets): Actor[] {
  const base = { role: 'analyst' as const, displayName: 'drill probe' };
  const readers: Actor[] = [{ ...base, actorId: 'drill-probe-other-tenant', tenants: [`${t.tenant}-drill-elsewhere`], maxClassification: 'restricted' }];
  const below = CLASSIFICATIONS.indexOf(t.classification) - 1;
  if (below >= 0) readers.push({ ...base, actorId: 'drill-probe-lower-clearance', tenants: [t.tenant], maxClassification: CLASSIFICATIONS[below]! });
  return readers;
}

export function retrievalProbe(ctx: ServiceContext, t: ProbeTargets): DrillReport['retrievalProbe'] {
  const readers = readersFor(t);
  let reads = 0;
  let refused = 0;
  let itemsReturned = 0;
  let unauthorizedReads = 0;
  const compartment = (item: Item) =>
    ctx.db.prepare(item.kind === 'revision' ? 'SELECT tenant, classification FROM evidence_revision WHERE revision_id = ?' : 'SELECT tenant, classification FROM claim WHERE claim_id = ?').get(item.id) as
      | { tenant: string; classification: Classification }
      | undefined;
  for (const actor of readers) {
    const as: ServiceContext = { db: ctx.db, actor, now: ctx.now };
    const read = (ask: () => Item[]) => {
      reads += 1;
      let items: Item[];
      try {
        items = ask();
      } catch (err) {
        if (err instanceof WorkbenchError && err.code === 'NOT_FOUND') {
          refused += 1;
          return;
        }
        throw err;
      }
      itemsReturned += items.length;
      if (items.some((i) => !isAuthorized(actor, compartment(i) ?? { tenant: '', classification: 'restricted' }))) unauthorizedReads += 1;
    };
    const search: ParsedRequestOf<'search:query'> = { q: t.words, limit: 100, includeQuarantined: true };
    read(() => searchCase(as, search).hits.map((h) => ({ kind: h.kind === 'evidence' ? 'revision' : 'claim', id: h.id })));
    read(() => listEvidence(as, { limit: 500 }).items.map((i) => ({ kind: 'revision', id: i.revisionId })));
    for (const id of t.revisions) {
      read(() => [{ kind: 'revision', id: getEvidence(as, id).revisionId }]);
      read(() => traceProvenance(as, { revisionId: id }).nodes.flatMap((n) => (n.revisionId ? [{ kind: 'revision' as const, id: n.revisionId }] : [])));
    }
    for (const id of t.claims) read(() => [{ kind: 'claim', id: getClaim(as, id).claimId }]);
  }
  return {
    definition:
      'Readers narrower than the planted items (another tenant at the highest classification; the same tenant one classification lower) ask for them by id (evidence:get, provenance:trace, claim:get on the targets), by their exact words (search:query, quarantined included) and by listing (evidence:list). A read is unauthorized when its answer holds an item outside the reader’s clearance, checked with the domain rule. Rate: unauthorized reads / reads.',
    readers: readers.map((r) => ({ label: r.actorId, tenants: r.tenants, maxClassification: r.maxClassification })),
    reads,
    refused,
    itemsReturned,
    unauthorizedReads,
    rate: reads === 0 ? null : unauthorizedReads / reads,
  };
}
