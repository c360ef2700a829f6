import { canonicalJson } from '../../../shared/domain/canonical';
import { ComputationError, recompute } from '../../../shared/domain/computation/record';
import { timeDiffers, type CaseStateCheck, type StateCheck } from '../audit/stateChecks';
import { sha256Hex } from '../crypto';
import type { CaseDb } from '../store/caseFile';
import { computationBody, type ComputationRow, type StoredInput } from './computations';

/**
 * What verify holds computations to (issue 14 §1): each row is exactly what its receipt recorded,
 * each input still quotes its evidence (the span of the revision's content, which the evidence
 * checks hold to its own digest), and the arithmetic recomputes to the recorded values and result.
 */
function recomputed(db: CaseDb, row: ComputationRow): string | null {
  const inputs = JSON.parse(row.inputs) as StoredInput[];
  for (const input of inputs) {
    const content = db.prepare('SELECT content FROM evidence_revision WHERE revision_id = ?').pluck().get(input.revisionId) as string | undefined;
    if (content === undefined) return `computation ${row.computation_id}: input "${input.name}" quotes ${input.revisionId}, which does not exist`;
    if (content.slice(input.start, input.end) !== input.quote || sha256Hex(input.quote) !== input.quoteSha256) {
      return `computation ${row.computation_id}: input "${input.name}" no longer matches ${input.revisionId} at [${input.start}, ${input.end})`;
    }
  }
  let again: { values: string[]; result: string };
  try {
    again = recompute(row.expression, inputs);
  } catch (err) {
    if (err instanceof ComputationError) return `computation ${row.computation_id} no longer computes: ${err.message}`;
    throw err;
  }
  const differs = inputs.findIndex((input, i) => again.values[i] !== input.value);
  if (differs >= 0) return `computation ${row.computation_id}: input "${inputs[differs]!.name}" reads ${again.values[differs]}, not the recorded ${inputs[differs]!.value}`;
  if (again.result !== row.result) return `computation ${row.computation_id} recomputes to ${again.result}, not the recorded ${row.result}`;
  return null;
}

export const COMPUTATION_STATE_CHECKS: readonly StateCheck[] = [
  {
    name: 'computation',
    actions: ['computation:create'],
    scope: 'each',
    check: (db, r) => {
      const id = String((r.body() as { computationId: unknown }).computationId);
      const row = db.prepare('SELECT * FROM computation WHERE computation_id = ?').get(id) as ComputationRow | undefined;
      if (!row) return `computation ${id} is missing`;
      const late = timeDiffers(r, row.created_at, `computation ${id}`);
      if (late) return late;
      const inputs = JSON.parse(row.inputs) as StoredInput[];
      if (canonicalJson(computationBody(row, inputs)) !== canonicalJson(r.body()) || row.created_by !== r.actor) {
        return `computation ${id} (its claim, question, expression, inputs, result, compartment or author) differs from what this receipt recorded`;
      }
      const linked = (db.prepare('SELECT revision_id FROM computation_input WHERE computation_id = ? ORDER BY revision_id').pluck().all(id) as string[]).join();
      if (linked !== [...new Set(inputs.map((i) => i.revisionId))].sort().join()) return `computation ${id}: the index of its input evidence differs from its inputs`;
      return recomputed(db, row);
    },
  },
];

export const COMPUTATION_CASE_CHECKS: readonly CaseStateCheck[] = [
  {
    // The per-receipt check finds rows missing or altered; this finds rows (and input links) added.
    name: 'computations',
    dependsOn: { tables: ['computation', 'computation_input'], actions: [] },
    check: (db) => {
      const recorded = new Set(db.prepare(`SELECT json_extract(body, '$.computationId') FROM audit_receipt WHERE action = 'computation:create'`).pluck().all() as string[]);
      for (const id of db.prepare('SELECT computation_id FROM computation ORDER BY computation_id').pluck().iterate() as IterableIterator<string>) {
        if (!recorded.has(id)) return `computation ${id} was written by no receipt`;
      }
      const stray = db.prepare('SELECT i.computation_id, i.revision_id FROM computation_input i LEFT JOIN computation c USING (computation_id) WHERE c.computation_id IS NULL LIMIT 1').get() as
        | { computation_id: string; revision_id: string }
        | undefined;
      return stray ? `an input link of ${stray.computation_id} to ${stray.revision_id} belongs to no computation` : null;
    },
  },
];
