import { randomUUID } from 'node:crypto';
import { ComputationError, recompute } from '../../../shared/domain/computation/record';
import type { Classification } from '../../../shared/domain/enums';
import type { ComputationView } from '../../../shared/ipc/channels/computations';
import type { ParsedRequestOf } from '../../../shared/ipc/contract';
import { appendReceipt } from '../audit/receipts';
import type { ServiceContext } from '../context';
import { sha256Hex } from '../crypto';
import { conflict, invalid } from '../errors';
import { canSee } from '../store/acl';
import { readTransaction, writeTransaction } from '../store/caseFile';
import { loadVisibleClaim, type ClaimRow } from '../store/claimRows';
import { loadVisibleRevision, type RevisionRow } from '../store/evidenceRows';
import { IN_FORCE } from '../store/reviewRows';
import { visibleRefs } from './claimBasis';
import { usableInClaim } from './claims';

/**
 * Computation records (issue 14 §1, seed 004). A computation answers a quantity ("12,400 records
 * at 10,000 per batch need 2 batches"), never a permission: no claim status or decision follows
 * from one. It is recorded once and never edited; whether it still holds is derived from its
 * inputs' evidence each time it is read, with the same usability rule claim status uses.
 */
export interface StoredInput {
  name: string;
  revisionId: string;
  start: number;
  end: number;
  quote: string;
  quoteSha256: string;
  unit: string | null;
  value: string;
}

export interface ComputationRow {
  computation_id: string;
  claim_id: string;
  generation: number;
  question: string;
  expression: string;
  inputs: string;
  result: string;
  tenant: string;
  classification: Classification;
  created_by: string;
  created_at: string;
}

/** Where `quote` sits in `content`: at `start` when given, else its only occurrence. */
function locate(content: string, quote: string, start: number | undefined, where: string): number {
  if (start !== undefined) {
    if (content.slice(start, start + quote.length) !== quote) throw new ComputationError('expression', `${where}: the content does not read "${quote}" at ${start}; select the text again`);
    return start;
  }
  const first = content.indexOf(quote);
  if (first < 0) throw new ComputationError('expression', `${where}: "${quote}" does not appear in the evidence content; quote it exactly as written`);
  const again = content.indexOf(quote, first + 1);
  if (again >= 0) throw new ComputationError('expression', `${where}: "${quote}" appears more than once in the evidence content (at ${first} and ${again}); give its start`);
  return first;
}

const issuePath = (err: ComputationError): (string | number)[] => (err.field === 'expression' ? ['expression'] : ['inputs', err.field.input, err.field.field]);

export function createComputation(ctx: ServiceContext, req: ParsedRequestOf<'computation:create'>): ComputationView {
  const channel = 'computation:create';
  return writeTransaction(ctx.db, () => {
    const claim = loadVisibleClaim(ctx, req.claimId, channel);
    // Inputs must be evidence the claim relies on (REQUIRED or SUPPORTING): revoking one then
    // moves the claim's support projection off ELIGIBLE, so a decision citing the computation is
    // fenced and remediated by the same path as any dependent (DESIGN §3.5).
    const relied = new Map(
      (
        ctx.db.prepare('SELECT revision_id, role FROM claim_binding WHERE claim_id = ? AND generation = ?').all(claim.claim_id, claim.generation) as { revision_id: string; role: string }[]
      ).map((b) => [b.revision_id, b.role]),
    );
    const inputs: StoredInput[] = [];
    let computed: { values: string[]; result: string };
    try {
      const revisions = req.inputs.map((input, i) => {
        const revision = loadVisibleRevision(ctx.db, ctx.actor, input.revisionId, channel);
        // Its inputs are the claim's evidence, so revoking one reaches the claim like any dependent.
        const role = relied.get(revision.revision_id);
        if (role === undefined) {
          throw new ComputationError({ input: i, field: 'quote' }, `input ${i + 1}: ${revision.revision_id} is not bound to claim ${claim.claim_id}; bind it first (a computation computes over the claim's evidence)`);
        }
        if (role === 'CONTEXT') {
          throw new ComputationError({ input: i, field: 'quote' }, `input ${i + 1}: ${revision.revision_id} is bound to claim ${claim.claim_id} as CONTEXT; a computation computes over evidence the claim relies on (REQUIRED or SUPPORTING)`);
        }
        return revision;
      });
      const starts = req.inputs.map((input, i) => {
        try {
          return locate(revisions[i]!.content, input.quote, input.start, `input ${i + 1} (${input.revisionId})`);
        } catch (err) {
          throw err instanceof ComputationError ? new ComputationError({ input: i, field: 'quote' }, err.message) : err;
        }
      });
      computed = recompute(req.expression, req.inputs);
      req.inputs.forEach((input, i) =>
        inputs.push({
          name: input.name,
          revisionId: input.revisionId,
          start: starts[i]!,
          end: starts[i]! + input.quote.length,
          quote: input.quote,
          quoteSha256: sha256Hex(input.quote),
          unit: input.unit ?? null,
          value: computed.values[i]!,
        }),
      );
    } catch (err) {
      if (err instanceof ComputationError) throw invalid(`${channel}: ${err.message}`, [{ path: issuePath(err), message: err.message }]);
      throw err;
    }
    const computationId = `${COMPUTATION_PREFIX}${randomUUID().slice(0, 8)}`;
    const row: ComputationRow = {
      computation_id: computationId,
      claim_id: claim.claim_id,
      generation: claim.generation,
      question: req.question,
      expression: req.expression,
      inputs: JSON.stringify(inputs),
      result: computed.result,
      tenant: claim.tenant,
      classification: claim.classification,
      created_by: ctx.actor.actorId,
      created_at: ctx.now(),
    };
    ctx.db
      .prepare(
        `INSERT INTO computation (computation_id, claim_id, generation, question, expression, inputs, result, tenant, classification, created_by, created_at)
         VALUES (@computation_id, @claim_id, @generation, @question, @expression, @inputs, @result, @tenant, @classification, @created_by, @created_at)`,
      )
      .run(row);
    const link = ctx.db.prepare('INSERT OR IGNORE INTO computation_input (computation_id, revision_id) VALUES (?, ?)');
    for (const input of inputs) link.run(computationId, input.revisionId);
    appendReceipt(ctx, {
      action: channel,
      targets: [`computation:${computationId}`, `claim:${claim.claim_id}`, ...[...new Set(inputs.map((i) => i.revisionId))].map((r) => `revision:${r}`)],
      body: computationBody(row, inputs),
    });
    return viewsOf(ctx, claim, [row])[0]!;
  });
}

/** What a computation:create receipt records: the whole row (verify holds the row to it). */
export function computationBody(row: ComputationRow, inputs: readonly StoredInput[]) {
  return {
    computationId: row.computation_id,
    claimId: row.claim_id,
    generation: row.generation,
    question: row.question,
    expression: row.expression,
    inputs,
    result: row.result,
    tenant: row.tenant,
    classification: row.classification,
  };
}

/** Each computation's state now: whether every input's evidence is still usable in the claim. */
function viewsOf(ctx: ServiceContext, claim: ClaimRow, rows: readonly ComputationRow[]): ComputationView[] {
  const ids = [...new Set(rows.flatMap((r) => (JSON.parse(r.inputs) as StoredInput[]).map((i) => i.revisionId)))];
  const revisions = ids.length === 0 ? [] : (ctx.db.prepare('SELECT * FROM evidence_revision WHERE revision_id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as RevisionRow[]);
  const usable = usableInClaim(ctx, claim, revisions);
  return rows.map((r) => {
    const inputs = JSON.parse(r.inputs) as StoredInput[];
    const reasons = [...new Set(inputs.flatMap((i) => (usable.get(i.revisionId)?.reasons ?? []).map((why) => `${i.name} (${i.revisionId}): ${why.message}`)))];
    const state = r.generation !== claim.generation ? 'HISTORICAL' : reasons.length > 0 ? 'FENCED' : 'CURRENT';
    return {
      computationId: r.computation_id,
      claimId: r.claim_id,
      generation: r.generation,
      question: r.question,
      expression: r.expression,
      inputs,
      result: r.result,
      createdBy: r.created_by,
      createdAt: r.created_at,
      state,
      reasons: state === 'HISTORICAL' ? [`made for generation ${r.generation}; the claim is at generation ${claim.generation}`, ...reasons] : reasons,
    };
  });
}

/** The computations of a claim the reader may see in full: the claim and every input's evidence. */
export function listComputations(ctx: ServiceContext, req: ParsedRequestOf<'computation:list'>): { computations: ComputationView[]; hidden: number } {
  return readTransaction(ctx.db, () => {
    const claim = loadVisibleClaim(ctx, req.claimId, 'computation:list');
    const rows = ctx.db.prepare('SELECT * FROM computation WHERE claim_id = ? ORDER BY created_at DESC, computation_id DESC').all(claim.claim_id) as ComputationRow[];
    const refs = [...new Set(rows.flatMap((r) => (JSON.parse(r.inputs) as StoredInput[]).map((i) => i.revisionId)))];
    const seen = visibleRefs(ctx.db, ctx.actor, refs);
    const shown = rows.filter((r) => canSee(ctx.actor, r) && (JSON.parse(r.inputs) as StoredInput[]).every((i) => seen.has(i.revisionId)));
    return { computations: viewsOf(ctx, claim, shown), hidden: rows.length - shown.length };
  });
}

/** A decision's computation ref names a computation record when it has this prefix; other refs are external (a query id, a notebook) and opaque. */
export const COMPUTATION_PREFIX = 'cmp-';

/**
 * The computations a decision cites, checked for the decision: each ref naming a computation
 * record must be one on this claim's current generation, visible to the reviewer, and CURRENT. A
 * decision cannot rest on arithmetic over evidence that was taken out of normal flows.
 */
export function assertCitable(ctx: ServiceContext, claim: ClaimRow, refs: readonly string[], channel: string): void {
  const computationIds = refs.filter((r) => r.startsWith(COMPUTATION_PREFIX));
  if (computationIds.length === 0) return;
  const rows = ctx.db.prepare('SELECT * FROM computation WHERE computation_id IN (SELECT value FROM json_each(?))').all(JSON.stringify(computationIds)) as ComputationRow[];
  const found = new Map(rows.map((r) => [r.computation_id, r]));
  const views = new Map(viewsOf(ctx, claim, rows).map((v) => [v.computationId, v]));
  for (const id of computationIds) {
    const row = found.get(id);
    if (!row || row.claim_id !== claim.claim_id || !canSee(ctx.actor, row)) {
      throw conflict(`${channel}: ${id} is not a computation recorded on claim ${claim.claim_id}; cite only the claim's own computations`);
    }
    const view = views.get(id)!;
    if (view.state !== 'CURRENT') throw conflict(`${channel}: computation ${id} is ${view.state}: ${view.reasons.join('; ')}; record it again on usable evidence, or leave it out`);
  }
}

/**
 * Decisions in force that cite a computation an input of which has left VALIDATED since (the
 * completion gate): like a decision resting on revoked evidence, it stays open until the claim is
 * re-reviewed on computations made again.
 */
export function fencedCitations(db: ServiceContext['db']): { decisionId: string; claimId: string; computationId: string; revisionId: string; state: string }[] {
  return db
    .prepare(
      `SELECT d.decision_id AS decisionId, d.claim_id AS claimId, i.computation_id AS computationId, r.revision_id AS revisionId, r.state
       FROM decision d JOIN claim c ON c.claim_id = d.claim_id AND c.generation = d.generation
       JOIN json_each(d.computation_refs) ref
       JOIN computation_input i ON i.computation_id = ref.value
       JOIN evidence_revision r ON r.revision_id = i.revision_id
       WHERE ${IN_FORCE('d')} AND r.state <> 'VALIDATED'
       ORDER BY d.claim_id, i.computation_id, r.revision_id`,
    )
    .all() as { decisionId: string; claimId: string; computationId: string; revisionId: string; state: string }[];
}
