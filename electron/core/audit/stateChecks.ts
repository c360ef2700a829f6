import { canonicalJson } from '../../../shared/domain/canonical';
import { sha256Hex } from '../crypto';
import { decisionState, voteState, type DecisionRow, type VoteRow } from '../services/reviewRows';
import type { CaseDb } from '../store/caseFile';
import { stateFingerprint } from './receipts';
import type { KeyRegistration } from './keys';

/**
 * State checks: verification recomputes, from the case as it is now, what receipts recorded as
 * state fingerprints and artifact digests (DESIGN §3.7). The chain proves the receipts were not
 * edited; these prove the tables were not edited behind the receipts' back.
 *
 * - scope 'each': the receipt records an immutable fact (a binding, a content digest, a vote), so
 *   every such receipt is checked.
 * - scope 'latest': the receipt records mutable state of its first target (a revision's lifecycle
 *   state, a decision's status); only the latest receipt about that target must match now. A later
 *   receipt about the same target whose action no check understands hides the older ones: the
 *   verifier cannot recompute it, so it reports it as unchecked instead of guessing.
 */
export interface ReceiptFacts {
  seq: number;
  action: string;
  actor: string;
  targets: string[];
  /** Parsed on demand: most checks never need it. */
  body(): Record<string, unknown>;
  postFp: string | null;
  artifacts: Record<string, string>;
}

/** ReceiptFacts of a stored receipt; a class so a million of them share one body() function. */
export class StoredReceiptFacts implements ReceiptFacts {
  private parsed: Record<string, unknown> | undefined;
  constructor(
    readonly seq: number,
    readonly action: string,
    readonly actor: string,
    readonly targets: string[],
    private readonly bodyText: string,
    readonly postFp: string | null,
    readonly artifacts: Record<string, string>,
  ) {}

  body(): Record<string, unknown> {
    return (this.parsed ??= JSON.parse(this.bodyText) as Record<string, unknown>);
  }
}

export interface StateCheck {
  name: string;
  actions: readonly string[];
  scope: 'each' | 'latest';
  /** Tables the check reads; on an older case file without them it is skipped (counted unchecked). */
  tables: readonly string[];
  /** null when the case still matches what the receipt recorded, else why it does not. */
  check(db: CaseDb, r: ReceiptFacts): string | null;
}

const checks: StateCheck[] = [];

/** Lets other capabilities teach verification their receipts; a check with the same name is replaced. */
export function registerStateCheck(check: StateCheck): void {
  const i = checks.findIndex((c) => c.name === check.name);
  if (i >= 0) checks[i] = check;
  else checks.push(check);
}

export interface StateBreak {
  seq: number;
  reason: string;
}

/** Collects receipts while the chain streams by, then checks them against the tables. */
export class StateCollector {
  private readonly byAction = new Map<string, StateCheck[]>();
  private readonly latest = new Map<string, ReceiptFacts>();
  /** Every target any receipt named, and claim–revision pairs named together (bindings). */
  private readonly named = new Set<string>();
  private readonly namedPairs = new Map<string, Set<string>>();
  private readonly presentTables: Set<string>;
  checked = 0;
  unchecked = 0;
  private firstBreak: StateBreak | null = null;

  constructor(private readonly db: CaseDb) {
    for (const c of checks) for (const a of c.actions) this.byAction.set(a, [...(this.byAction.get(a) ?? []), c]);
    this.presentTables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name),
    );
  }

  /**
   * Called for each receipt in seq order, after its hash verified. `newTargets` is false when an
   * earlier receipt had the very same targets, which are then already indexed.
   */
  observe(r: ReceiptFacts, newTargets = true): void {
    if (newTargets) this.index(r.targets);
    const list = this.byAction.get(r.action) ?? [];
    for (const c of list) if (c.scope === 'each') this.run(c, r);
    const tracksState = list.length === 0 ? r.postFp !== null : list.some((c) => c.scope === 'latest');
    if (tracksState && r.targets[0] !== undefined) this.latest.set(r.targets[0], r);
  }

  private index(targets: readonly string[]): void {
    for (const t of targets) {
      this.named.add(t);
      if (!t.startsWith('claim:')) continue;
      for (const u of targets) {
        if (!u.startsWith('revision:')) continue;
        let set = this.namedPairs.get(t);
        if (!set) this.namedPairs.set(t, (set = new Set()));
        set.add(u);
      }
    }
  }

  /**
   * The earliest receipt whose recorded state the case no longer matches. `complete` says the whole
   * chain verified: only then is the latest receipt about a target really the latest, and only
   * then can a row that no receipt names be told apart from one whose receipt was cut off, so
   * those checks wait for it. Immutable facts ('each') were checked as they streamed by.
   */
  finish(length: number, complete: boolean): StateBreak | null {
    if (complete) {
      for (const r of this.latest.values()) {
        const latestChecks = (this.byAction.get(r.action) ?? []).filter((c) => c.scope === 'latest');
        if (latestChecks.length === 0) this.unchecked += 1;
        for (const c of latestChecks) this.run(c, r);
      }
      const orphan = this.unreceipted();
      if (orphan && !this.firstBreak) {
        this.firstBreak = { seq: length + 1, reason: `${orphan} exists but no receipt names it: it was changed without a receipt, or receipts were removed from the end of the chain` };
      }
    }
    return this.firstBreak && this.firstBreak.seq <= length + 1 ? this.firstBreak : null;
  }

  /** The first row of a receipted table that no receipt names, if any. */
  private unreceipted(): string | null {
    const probes: [table: string, sql: string, prefix: string][] = [
      ['claim', 'SELECT claim_id AS id FROM claim', 'claim:'],
      ['evidence_revision', 'SELECT revision_id AS id FROM evidence_revision', 'revision:'],
      ['decision', 'SELECT decision_id AS id FROM decision', 'decision:'],
      ['review_vote', 'SELECT vote_id AS id FROM review_vote', 'vote:'],
    ];
    for (const [table, sql, prefix] of probes) {
      if (!this.presentTables.has(table)) continue;
      for (const { id } of this.db.prepare(sql).all() as { id: string | number }[]) {
        if (!this.named.has(`${prefix}${id}`)) return `${prefix}${id}`;
      }
    }
    if (this.presentTables.has('claim_binding')) {
      for (const b of this.db.prepare('SELECT claim_id, revision_id, generation FROM claim_binding').all() as { claim_id: string; revision_id: string; generation: number }[]) {
        if (!this.namedPairs.get(`claim:${b.claim_id}`)?.has(`revision:${b.revision_id}`)) return `the binding of revision:${b.revision_id} to claim:${b.claim_id} (generation ${b.generation})`;
      }
    }
    return null;
  }

  private run(c: StateCheck, r: ReceiptFacts): void {
    if (!c.tables.every((t) => this.presentTables.has(t))) {
      this.unchecked += 1;
      return;
    }
    let problem: string | null;
    try {
      problem = c.check(this.db, r);
    } catch (err) {
      problem = `could not be recomputed (${(err as Error).message})`;
    }
    if (problem === null) {
      this.checked += 1;
      return;
    }
    if (!this.firstBreak || r.seq < this.firstBreak.seq) {
      // A 'latest' receipt is the last word on its target: say so, it narrows down what happened.
      const last = c.scope === 'latest' ? ' (and no later receipt records a change to it)' : '';
      this.firstBreak = { seq: r.seq, reason: `${c.name}: ${problem}${last}` };
    }
  }
}

/** null when `state` fingerprints to what the receipt recorded as its post state. */
export function postDiffers(r: ReceiptFacts, state: unknown, what: string): string | null {
  return stateFingerprint(state) === r.postFp ? null : `${what} differs from the state this receipt recorded`;
}

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

const loadRevision = (db: CaseDb, r: ReceiptFacts): RevisionStateRow | undefined => {
  const id = r.targets[0]?.startsWith('revision:') ? r.targets[0].slice('revision:'.length) : null;
  return id === null
    ? undefined
    : (db.prepare('SELECT revision_id, state, state_version, content, content_sha256 FROM evidence_revision WHERE revision_id = ?').get(id) as
        | RevisionStateRow
        | undefined);
};

registerStateCheck({
  name: 'evidence content',
  actions: ['evidence:ingest', 'evidence:revise'],
  scope: 'each',
  tables: ['evidence_revision'],
  check: (db, r) => {
    const digest = r.artifacts.content;
    if (digest === undefined) return null;
    const row = loadRevision(db, r);
    if (!row) return `${r.targets[0]} is missing`;
    if (row.content_sha256 !== digest) return `stored content_sha256 of ${row.revision_id} is not the digest this receipt recorded`;
    if (sha256Hex(row.content) !== digest) return `content of ${row.revision_id} no longer hashes to the digest this receipt recorded`;
    return null;
  },
});

registerStateCheck({
  name: 'evidence state',
  actions: ['evidence:ingest', 'evidence:revise', 'evidence:transition'],
  scope: 'latest',
  tables: ['evidence_revision'],
  check: (db, r) => {
    const row = loadRevision(db, r);
    if (!row) return `${r.targets[0]} is missing`;
    // The post shapes evidence.ts records: ingest and revise describe the new revision's content,
    // a transition its lifecycle position.
    const state =
      r.action === 'evidence:transition'
        ? { revisionId: row.revision_id, state: row.state, stateVersion: row.state_version }
        : { revisionId: row.revision_id, state: row.state, contentSha256: row.content_sha256 };
    return postDiffers(r, state, `lifecycle state of ${row.revision_id}`);
  },
});

registerStateCheck({
  name: 'claim binding',
  actions: ['claim:bind'],
  scope: 'each',
  tables: ['claim_binding'],
  check: (db, r) => {
    const b = r.body() as { claimId: string; generation: number; revisionId: string };
    const row = db
      .prepare('SELECT * FROM claim_binding WHERE claim_id = ? AND generation = ? AND revision_id = ?')
      .get(b.claimId, b.generation, b.revisionId) as
      | { binding_id: number; claim_id: string; generation: number; revision_id: string; relation: string; role: string }
      | undefined;
    if (!row) return `binding of ${b.revisionId} to ${b.claimId} (generation ${b.generation}) is missing`;
    const state = { bindingId: row.binding_id, claimId: row.claim_id, generation: row.generation, revisionId: row.revision_id, relation: row.relation, role: row.role };
    return postDiffers(r, state, `binding of ${b.revisionId} to ${b.claimId}`);
  },
});

registerStateCheck({
  name: 'claim content',
  actions: ['claim:create'],
  scope: 'latest',
  tables: ['claim'],
  check: (db, r) => {
    const id = targetId(r, 'claim');
    const row = db.prepare('SELECT * FROM claim WHERE claim_id = ?').get(id) as
      | { claim_id: string; statement: string; scope: string; policy: string; generation: number; tenant: string; classification: string; author: string }
      | undefined;
    if (!row) return `claim ${id} is missing`;
    const b = r.body();
    // The receipt body is the claim as created; a policy edited afterwards (say, a quorum removed)
    // would change what review the claim needs, so it is compared field by field.
    const created = canonicalJson({ statement: b.statement, scope: b.scope, policy: b.policy, tenant: b.tenant, classification: b.classification, author: r.actor });
    const now = canonicalJson({ statement: row.statement, scope: JSON.parse(row.scope) as unknown, policy: JSON.parse(row.policy) as unknown, tenant: row.tenant, classification: row.classification, author: row.author });
    if (created !== now) return `claim ${id} (statement, scope, policy, tenant, classification or author) differs from the claim this receipt created`;
    return postDiffers(r, { claimId: row.claim_id, generation: row.generation }, `generation of claim ${id}`);
  },
});

registerStateCheck({
  name: 'reviewer profile',
  actions: ['actor:create'],
  scope: 'latest',
  tables: ['actor'],
  check: (db, r) => {
    const id = targetId(r, 'actor');
    const row = db.prepare('SELECT * FROM actor WHERE actor_id = ?').get(id) as
      | { actor_id: string; display_name: string; role: string; tenants: string; max_classification: string }
      | undefined;
    if (!row) return `reviewer ${id} is missing`;
    const actor = { actorId: row.actor_id, displayName: row.display_name, role: row.role, tenants: JSON.parse(row.tenants) as unknown, maxClassification: row.max_classification };
    return postDiffers(r, actor, `profile of ${id} (role, clearance or name)`);
  },
});

registerStateCheck({
  name: 'case identity',
  actions: ['case:create'],
  scope: 'latest',
  tables: ['case_meta'],
  check: (db, r) => {
    const rows = db.prepare('SELECT key, value FROM case_meta').all() as { key: string; value: string }[];
    const m = Object.fromEntries(rows.map((x) => [x.key, x.value]));
    return postDiffers(r, { caseId: m.case_id, name: m.name, description: m.description, createdAt: m.created_at }, 'case identity');
  },
});

registerStateCheck({
  name: 'key registration',
  actions: ['case:create', 'actor:create', 'actor:rekey'],
  scope: 'each',
  tables: ['actor_key'],
  check: (db, r) => {
    const reg = r.body().registersKey as KeyRegistration | undefined;
    if (!reg) return 'registers no key';
    const row = db.prepare('SELECT actor_id, public_key FROM actor_key WHERE key_id = ?').get(reg.keyId) as
      | { actor_id: string; public_key: string }
      | undefined;
    if (!row) return `actor_key lacks ${reg.keyId}, which this receipt registered for ${reg.actorId}`;
    if (row.actor_id !== reg.actorId || row.public_key !== reg.publicKey) return `actor_key row ${reg.keyId} differs from the key this receipt registered`;
    if (r.action !== 'actor:rekey') return null;
    return postDiffers(r, { keyId: reg.keyId, actorId: row.actor_id, publicKey: row.public_key }, `key ${reg.keyId}`);
  },
});

registerStateCheck({
  name: 'decision',
  actions: ['decision:propose', 'decision:approve', 'decision:reject', 'decision:withdraw'],
  scope: 'latest',
  tables: ['decision'],
  check: (db, r) => {
    const id = targetId(r, 'decision');
    const row = db.prepare('SELECT * FROM decision WHERE decision_id = ?').get(id) as DecisionRow | undefined;
    if (!row) return `decision ${id} is missing`;
    return postDiffers(r, decisionState(row), `decision ${id}`);
  },
});

registerStateCheck({
  name: 'review vote',
  actions: ['review:vote'],
  scope: 'each',
  tables: ['review_vote'],
  check: (db, r) => {
    const id = targetId(r, 'vote');
    const row = db.prepare('SELECT * FROM review_vote WHERE vote_id = ?').get(Number(id)) as VoteRow | undefined;
    if (!row) return `vote ${id} is missing`;
    return postDiffers(r, voteState(row), `vote ${id}`);
  },
});
