import { canonicalJson } from '../../../shared/domain/canonical';
import { sha256Hex } from '../crypto';
import type { CaseDb } from '../store/caseFile';
import { CASE_META_KEYS } from '../store/caseMetaRows';
import { decisionState, voteState, type DecisionRow, type VoteRow } from '../store/reviewRows';
import type { ValidityContext } from '../../../shared/domain/schemas';
import { toContext, type RevisionRow } from '../store/evidenceRows';
import type { KeyRegistration } from './keys';
import { postDiffers, timeDiffers, type CaseStateCheck, type ReceiptFacts, type StateCheck } from './stateChecks';

/**
 * What verification recomputes for the core receipts: evidence content and lifecycle, bindings,
 * claims, reviewer profiles and keys, the case identity, decisions and votes (DESIGN §3.7).
 */
const targetId = (r: ReceiptFacts, prefix: string): string | null => {
  const t = r.targets.find((x) => x.startsWith(`${prefix}:`));
  return t ? t.slice(prefix.length + 1) : null;
};

interface RevisionStateRow {
  revision_id: string;
  state: string;
  state_version: number;
  content: string;
  content_sha256: string;
}

/**
 * A revision's transition rows must be exactly its history: one first state and one row per
 * move (state_version counts the moves), ending in the state it is in. A row added or removed
 * behind the receipts' back breaks this even where each receipted row is still there.
 */
function transitionHistoryDiffers(db: CaseDb, row: RevisionStateRow): string | null {
  const t = db
    .prepare(
      `SELECT COUNT(*) AS n, (SELECT to_state FROM evidence_transition WHERE revision_id = ? ORDER BY transition_id DESC LIMIT 1) AS last
       FROM evidence_transition WHERE revision_id = ?`,
    )
    .get(row.revision_id, row.revision_id) as { n: number; last: string | null };
  if (t.n !== row.state_version + 1) return `${row.revision_id} has ${t.n} lifecycle transition rows for ${row.state_version + 1} receipted states`;
  return t.last === row.state ? null : `the last lifecycle transition of ${row.revision_id} ends in ${t.last}, not in its state ${row.state}`;
}

const loadRevision = (db: CaseDb, target: string | undefined): RevisionStateRow | undefined =>
  target?.startsWith('revision:')
    ? (db.prepare('SELECT revision_id, state, state_version, content, content_sha256 FROM evidence_revision WHERE revision_id = ?').get(target.slice('revision:'.length)) as
        | RevisionStateRow
        | undefined)
    : undefined;

export const CORE_STATE_CHECKS: readonly StateCheck[] = [
  {
    name: 'evidence validity context',
    actions: ['evidence:ingest', 'evidence:revise'],
    scope: 'each',
    check: (db, r) => {
      const b = r.body() as { revisionId: string; evidenceId?: string; title?: string; kind: string; mediaType?: string; context?: ValidityContext; supersedes?: string };
      // Receipts written before the context was recorded (schema 330) cannot be held to it.
      if (b.context === undefined) return null;
      const row = db
        .prepare('SELECT r.*, l.title, l.created_by AS lineage_by, l.created_at AS lineage_at FROM evidence_revision r JOIN evidence_lineage l USING (evidence_id) WHERE r.revision_id = ?')
        .get(b.revisionId) as (RevisionRow & { lineage_by: string; lineage_at: string; created_at: string }) | undefined;
      if (!row) return `${b.revisionId} is missing`;
      const late = timeDiffers(r, row.created_at, b.revisionId) ?? (b.title !== undefined ? timeDiffers(r, row.lineage_at, `the lineage of ${b.revisionId}`) : null);
      if (late) return late;
      const recorded = {
        evidenceId: b.evidenceId, kind: b.kind, mediaType: b.mediaType, createdBy: r.actor, supersedes: b.supersedes ?? null, context: b.context,
        revision: Number(b.revisionId.slice(b.revisionId.lastIndexOf('@') + 1)),
        // An ingest starts the lineage; a revise adds to one someone else may have started.
        ...(b.title !== undefined ? { title: b.title, lineageBy: r.actor } : {}),
      };
      const stored = {
        evidenceId: row.evidence_id, kind: row.kind, mediaType: row.media_type, createdBy: row.created_by, supersedes: row.supersedes, context: toContext(row),
        revision: row.revision,
        ...(b.title !== undefined ? { title: row.title, lineageBy: row.lineage_by } : {}),
      };
      if (canonicalJson(recorded) === canonicalJson(stored)) return null;
      const changed = Object.keys(recorded.context).filter((k) => canonicalJson(recorded.context[k as keyof ValidityContext]) !== canonicalJson(stored.context[k as keyof ValidityContext]));
      const what = changed.length > 0 ? `validity context (${changed.join(', ')})` : 'lineage, revision number, kind, media type, title or author';
      return `${what} of ${b.revisionId} differs from what this receipt recorded`;
    },
  },
  {
    name: 'evidence content',
    actions: ['evidence:ingest', 'evidence:revise'],
    scope: 'each',
    check: (db, r) => {
      const digest = r.artifacts.content;
      if (digest === undefined) return null;
      const row = loadRevision(db, r.targets[0]);
      if (!row) return `${r.targets[0]} is missing`;
      if (row.content_sha256 !== digest) return `stored content_sha256 of ${row.revision_id} is not the digest this receipt recorded`;
      if (sha256Hex(row.content) !== digest) return `content of ${row.revision_id} no longer hashes to the digest this receipt recorded`;
      return null;
    },
  },
  {
    name: 'evidence state',
    actions: ['evidence:ingest', 'evidence:revise', 'evidence:transition'],
    scope: 'latest',
    // A revise records the new revision and, when it superseded the one it corrects, that one too.
    latestTargets: (r) => {
      const superseded = r.action === 'evidence:revise' ? (r.body().superseded as { revisionId: string } | undefined) : undefined;
      return [r.targets[0]!, ...(superseded ? [`revision:${superseded.revisionId}`] : [])];
    },
    check: (db, r, target) => {
      const row = loadRevision(db, target);
      if (!row) return `${target} is missing`;
      let problem: string | null;
      if (target !== r.targets[0]) {
        const s = r.body().superseded as { to: string; stateVersion: number };
        const same = row.state === s.to && row.state_version === s.stateVersion;
        problem = same ? null : `lifecycle state of ${row.revision_id} differs from the supersede this receipt recorded`;
      } else if (r.action === 'evidence:transition') {
        problem = postDiffers(r, { revisionId: row.revision_id, state: row.state, stateVersion: row.state_version }, `lifecycle state of ${row.revision_id}`);
      } else {
        // Ingest and revise describe the new revision's content; nothing moved it since.
        problem =
          postDiffers(r, { revisionId: row.revision_id, state: row.state, contentSha256: row.content_sha256 }, `lifecycle state of ${row.revision_id}`) ??
          (row.state_version === 0 ? null : `${row.revision_id} records ${row.state_version} lifecycle moves that no receipt made`);
      }
      return problem ?? transitionHistoryDiffers(db, row);
    },
  },
  {
    name: 'evidence transition rows',
    actions: ['evidence:ingest', 'evidence:revise', 'evidence:transition'],
    scope: 'each',
    check: (db, r) => {
      const b = r.body() as {
        revisionId: string; state?: string; from?: string; to?: string; reason?: string; supportingRef?: string | null; firstReason?: string; supersedes?: string;
        superseded?: { revisionId: string; from: string; to: string };
      };
      const row = db.prepare(
        `SELECT 1 FROM evidence_transition WHERE revision_id = ? AND from_state IS ? AND to_state = ? AND actor = ? AND (? IS NULL OR reason = ?) AND (? = 0 OR supporting_ref IS ?)
           AND (? = 0 OR at = ?) LIMIT 1`,
      );
      const has = (revisionId: string, from: string | null, to: string, reason: string | null, ref?: string | null) =>
        !!row.get(revisionId, from, to, r.actor, reason, reason, ref === undefined ? 0 : 1, ref ?? null, r.exactTimes ? 1 : 0, r.at);
      if (r.action === 'evidence:transition') {
        return has(b.revisionId, b.from!, b.to!, b.reason!, b.supportingRef ?? null) ? null : `the transition of ${b.revisionId} from ${b.from} to ${b.to} that this receipt recorded is missing or altered`;
      }
      // Receipts written before the first state's reason was recorded (schema 330) hold only the state.
      const firstRef = b.firstReason === undefined ? undefined : (b.supersedes ?? null);
      if (!has(b.revisionId, null, b.state!, b.firstReason ?? null, firstRef)) return `the first lifecycle state of ${b.revisionId} that this receipt recorded is missing or altered`;
      if (b.superseded && !has(b.superseded.revisionId, b.superseded.from, b.superseded.to, null, b.revisionId)) {
        return `the supersede of ${b.superseded.revisionId} that this receipt recorded is missing or altered`;
      }
      return null;
    },
  },
  {
    name: 'claim binding',
    actions: ['claim:bind'],
    scope: 'each',
    check: (db, r) => {
      const b = r.body() as { claimId: string; generation: number; revisionId: string; rationale: string };
      const row = db
        .prepare('SELECT * FROM claim_binding WHERE claim_id = ? AND generation = ? AND revision_id = ?')
        .get(b.claimId, b.generation, b.revisionId) as
        | { binding_id: number; claim_id: string; generation: number; revision_id: string; relation: string; role: string; rationale: string; created_by: string; created_at: string }
        | undefined;
      if (!row) return `binding of ${b.revisionId} to ${b.claimId} (generation ${b.generation}) is missing`;
      const late = timeDiffers(r, row.created_at, `binding of ${b.revisionId} to ${b.claimId}`);
      if (late) return late;
      if (row.rationale !== b.rationale || row.created_by !== r.actor) return `binding of ${b.revisionId} to ${b.claimId} (rationale or author) differs from what this receipt recorded`;
      const state = { bindingId: row.binding_id, claimId: row.claim_id, generation: row.generation, revisionId: row.revision_id, relation: row.relation, role: row.role };
      return postDiffers(r, state, `binding of ${b.revisionId} to ${b.claimId}`);
    },
  },
  {
    name: 'claim content',
    actions: ['claim:create'],
    scope: 'latest',
    check: (db, r) => {
      const id = targetId(r, 'claim');
      const row = db.prepare('SELECT * FROM claim WHERE claim_id = ?').get(id) as
        | { claim_id: string; statement: string; scope: string; policy: string; generation: number; tenant: string; classification: string; author: string; created_at: string }
        | undefined;
      if (!row) return `claim ${id} is missing`;
      const late = timeDiffers(r, row.created_at, `claim ${id}`);
      if (late) return late;
      const b = r.body();
      // The receipt body is the claim as created; a policy edited afterwards (say, a quorum removed)
      // would change what review the claim needs, so it is compared field by field.
      const created = canonicalJson({ statement: b.statement, scope: b.scope, policy: b.policy, tenant: b.tenant, classification: b.classification, author: r.actor });
      const now = canonicalJson({ statement: row.statement, scope: JSON.parse(row.scope) as unknown, policy: JSON.parse(row.policy) as unknown, tenant: row.tenant, classification: row.classification, author: row.author });
      if (created !== now) return `claim ${id} (statement, scope, policy, tenant, classification or author) differs from the claim this receipt created`;
      return postDiffers(r, { claimId: row.claim_id, generation: row.generation }, `generation of claim ${id}`);
    },
  },
  {
    name: 'reviewer profile',
    actions: ['actor:create', 'case:create'],
    scope: 'latest',
    // The case's first admin is created by case:create, which names the case, not the actor.
    latestTargets: (r) => (r.action === 'case:create' ? [`actor:${(r.body().admin as { actorId: string }).actorId}`] : [r.targets[0]!]),
    check: (db, r, target) => {
      const id = target.slice('actor:'.length);
      const row = db.prepare('SELECT * FROM actor WHERE actor_id = ?').get(id) as
        | { actor_id: string; display_name: string; role: string; tenants: string; max_classification: string; created_at: string }
        | undefined;
      if (!row) return `reviewer ${id} is missing`;
      const late = timeDiffers(r, row.created_at, `reviewer ${id}`);
      if (late) return late;
      const actor = { actorId: row.actor_id, displayName: row.display_name, role: row.role, tenants: JSON.parse(row.tenants) as unknown, maxClassification: row.max_classification };
      if (r.action === 'case:create') {
        const admin = r.body().admin as typeof actor;
        const recorded = { actorId: admin.actorId, displayName: admin.displayName, role: admin.role, tenants: admin.tenants, maxClassification: admin.maxClassification };
        return canonicalJson(recorded) === canonicalJson(actor) ? null : `profile of ${id} (role, clearance or name) differs from the admin this case was created with`;
      }
      return postDiffers(r, actor, `profile of ${id} (role, clearance or name)`);
    },
  },
  {
    name: 'case identity',
    actions: ['case:create'],
    scope: 'latest',
    check: (db, r) => {
      const rows = db.prepare('SELECT key, value FROM case_meta').all() as { key: string; value: string }[];
      const stray = rows.find((x) => !(CASE_META_KEYS as readonly string[]).includes(x.key));
      if (stray) return `case_meta holds ${JSON.stringify(stray.key)}, which no receipt wrote`;
      const m = Object.fromEntries(rows.map((x) => [x.key, x.value]));
      const homeScope = m.home_scope === undefined ? undefined : (JSON.parse(m.home_scope) as unknown);
      return postDiffers(r, { caseId: m.case_id, name: m.name, description: m.description, createdAt: m.created_at, homeScope }, 'case identity');
    },
  },
  {
    name: 'key registration',
    actions: ['case:create', 'actor:create', 'actor:rekey'],
    scope: 'each',
    check: (db, r) => {
      // verify.ts has refused, as a signature break, a registering receipt that registers no key.
      const reg = r.body().registersKey as KeyRegistration;
      const key = db.prepare('SELECT actor_id, algorithm, public_key, registered_at, retired_at FROM actor_key WHERE key_id = ?');
      const row = key.get(reg.keyId) as { actor_id: string; algorithm: string; public_key: string; registered_at: string; retired_at: string | null } | undefined;
      if (!row) return `actor_key lacks ${reg.keyId}, which this receipt registered for ${reg.actorId}`;
      if (row.actor_id !== reg.actorId || row.public_key !== reg.publicKey || row.algorithm !== 'ed25519') return `actor_key row ${reg.keyId} differs from the key this receipt registered`;
      const late = timeDiffers(r, row.registered_at, `key ${reg.keyId}`);
      if (late) return late;
      // The keys it retired stopped signing here; the key's own retirement is a later receipt's to record.
      for (const old of reg.retires) {
        const retired = key.get(old) as { retired_at: string | null } | undefined;
        if (!retired || retired.retired_at === null) return `key ${old}, retired by this receipt, is not marked retired`;
        const when = timeDiffers(r, retired.retired_at, `the retirement of key ${old}`);
        if (when) return when;
      }
      if (r.action !== 'actor:rekey') return null;
      return postDiffers(r, { keyId: reg.keyId, actorId: row.actor_id, publicKey: row.public_key }, `key ${reg.keyId}`);
    },
  },
  {
    name: 'decision',
    actions: ['decision:propose', 'decision:approve', 'decision:reject', 'decision:withdraw'],
    scope: 'latest',
    check: (db, r) => {
      const id = targetId(r, 'decision');
      const row = db.prepare('SELECT * FROM decision WHERE decision_id = ?').get(id) as DecisionRow | undefined;
      if (!row) return `decision ${id} is missing`;
      return postDiffers(r, decisionState(row), `decision ${id}`);
    },
  },
  {
    name: 'review vote',
    actions: ['review:vote'],
    scope: 'each',
    check: (db, r) => {
      const id = targetId(r, 'vote');
      const row = db.prepare('SELECT * FROM review_vote WHERE vote_id = ?').get(Number(id)) as VoteRow | undefined;
      if (!row) return `vote ${id} is missing`;
      return postDiffers(r, voteState(row), `vote ${id}`);
    },
  },
];

/** Checks of the case as a whole for the core tables (run once the whole chain verified). */
export const CORE_CASE_CHECKS: readonly CaseStateCheck[] = [
  {
    name: "the file's own constraints",
    // The schema's foreign keys, CHECKs and NOT NULLs hold as the workbench writes, but a file
    // written with them switched off (foreign_keys, ignore_check_constraints) keeps rows that break
    // them: a transition or an outbox job of nothing, a 0/1 flag set to 100000. A verification of
    // what changed runs inside a pull, whose writes these constraints check as each row is written
    // and at its commit, and on rows this machine verified before: only a whole verification runs it.
    dependsOn: { tables: [], actions: [] },
    check: (db) => {
      const orphan = db.prepare('PRAGMA foreign_key_check').get() as { table: string; rowid: number | null; parent: string } | undefined;
      if (orphan) return `${orphan.rowid === null ? 'a row' : `row ${orphan.rowid}`} of ${orphan.table} refers to a row of ${orphan.parent} that does not exist`;
      // Held to its CHECKs even on a connection told to ignore them (a setting of the connection, not the file).
      const ignoring = db.pragma('ignore_check_constraints', { simple: true }) === 1;
      if (ignoring) db.pragma('ignore_check_constraints = OFF');
      try {
        const [first] = db.pragma('quick_check') as { quick_check: string }[];
        if (first && first.quick_check !== 'ok') return `the file breaks its schema (${first.quick_check})`;
      } finally {
        if (ignoring) db.pragma('ignore_check_constraints = ON');
      }
      return null;
    },
  },
  {
    name: 'reviewer keys',
    // A new registration changes which key is a reviewer's last.
    dependsOn: { tables: ['actor_key'], actions: ['case:create', 'actor:create', 'actor:rekey'] },
    // Each reviewer signs with the key their last registration named. A key row no receipt
    // registered, or the last key marked retired, changes who can sign. (A replaced key left active
    // is the key-registration check's to find: each registration names the keys it retires.)
    check: (db) => {
      const registrations = db
        .prepare(
          `SELECT json_extract(body, '$.registersKey.keyId') AS keyId, json_extract(body, '$.registersKey.actorId') AS actorId FROM audit_receipt
           WHERE action IN ('case:create', 'actor:create', 'actor:rekey') ORDER BY seq`,
        )
        .all() as { keyId: string; actorId: string }[];
      const registeredTo = new Map(registrations.map((x) => [x.keyId, x.actorId]));
      const lastOf = new Map(registrations.map((x) => [x.actorId, x.keyId]));
      const keys = db.prepare('SELECT key_id, actor_id, retired_at FROM actor_key ORDER BY key_id').all() as { key_id: string; actor_id: string; retired_at: string | null }[];
      for (const k of keys) {
        if (registeredTo.get(k.key_id) !== k.actor_id) return `key ${k.key_id} of ${k.actor_id} was registered by no receipt`;
        if (lastOf.get(k.actor_id) === k.key_id && k.retired_at !== null) return `key ${k.key_id} of ${k.actor_id} is marked retired, but no later receipt replaced it`;
      }
      return null;
    },
  },
];
