import type { CaseDb } from '../store/caseFile';
import { LATEST_VERSION } from '../store/migrations';
import { schemaTablesAt, tableNames } from '../store/schemaTables';
import { stateFingerprint } from './receipts';
import type { ChangedRows } from './verifyOptions';

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
  /** When the receipt was written: the time of every row it wrote, where `exactTimes`. */
  at: string;
  /**
   * The case's first receipt says its rows carry their receipt's time (cases created since row
   * times were receipted, issue 9.1); older cases wrote rows a moment before their receipt.
   */
  exactTimes: boolean;
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
    readonly at: string,
    readonly exactTimes: boolean,
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
  /**
   * 'latest' checks: the targets whose current state this receipt records (default: its first).
   * An evidence:revise also records the supersede of the revision it corrects.
   */
  latestTargets?(r: ReceiptFacts): string[];
  /**
   * null when the case still matches what the receipt recorded, else why it does not.
   * `target`: for 'latest' checks, the target being checked; 'each' checks get the first target.
   */
  check(db: CaseDb, r: ReceiptFacts, target: string): string | null;
}

/**
 * A check of the case as a whole, run once after the chain verified: rows whose every write is
 * receipted somewhere, but not by one receipt a per-receipt check could hold them to.
 */
export interface CaseStateCheck {
  name: string;
  /**
   * What can change its answer: rows of these tables, or new receipts of these actions. A
   * verification of what changed (VerifyOptions.changed) runs it only then. A receipt that only
   * accounts for more rows cannot make a check that asks whether every row is accounted for fail,
   * so such checks list only the actions that can take an account back.
   */
  dependsOn: { tables: readonly string[]; actions: readonly string[] };
  /**
   * The same check of the changed rows only (their rowids by table), where it can be told without
   * reading the whole case; used when only tables, not new actions, brought the check in.
   */
  checkRows?(db: CaseDb, rowids: ReadonlyMap<string, readonly number[]>): string | null;
  /** null when the case is consistent with its receipts, else what is not. */
  check(db: CaseDb): string | null;
}

export interface StateBreak {
  seq: number;
  reason: string;
}

/** Collects receipts while the chain streams by, then checks them against the tables. */
export class StateCollector {
  private readonly byAction = new Map<string, StateCheck[]>();
  /** target → the latest receipt recording its state. */
  private readonly latest = new Map<string, ReceiptFacts>();
  /** Every target any receipt named, and claim–revision pairs named together (bindings). */
  private readonly named = new Set<string>();
  private readonly namedPairs = new Map<string, Set<string>>();
  /** The actions of the receipts observed as they streamed by (not of those checked again for a pull). */
  private readonly actionsSeen = new Set<string>();
  private readonly presentTables: Set<string>;
  /**
   * Verified as it is, without migrating (cli verify of a file an older build wrote): a check that
   * reads a table its schema does not have yet is skipped and counted unchecked.
   */
  private readonly olderSchema: boolean;
  /** Tables the file's own schema version has and the file does not: dropped by hand, a break. */
  private readonly dropped: string[];
  checked = 0;
  unchecked = 0;
  private firstBreak: StateBreak | null = null;

  /**
   * `since-resume`: the receipts observed are those after a point an earlier verification reached;
   * their states are checked, but rows no receipt names and the whole-case checks need every
   * receipt, so they are left to a full verification. Unless `changed` says which rows changed
   * since that point: then those rows must be named, and the whole-case checks whose answer what
   * changed can move run (the caller observes the earlier receipts that name the changed rows' targets).
   */
  constructor(
    private readonly db: CaseDb,
    checks: readonly StateCheck[],
    private readonly caseChecks: readonly CaseStateCheck[] = [],
    private readonly coverage: 'whole-chain' | 'since-resume' = 'whole-chain',
    private readonly changed: ChangedRows | null = null,
  ) {
    for (const c of checks) for (const a of c.actions) this.byAction.set(a, [...(this.byAction.get(a) ?? []), c]);
    this.presentTables = new Set(tableNames(db));
    const version = db.pragma('user_version', { simple: true }) as number;
    this.olderSchema = version < LATEST_VERSION;
    this.dropped = [...schemaTablesAt(version)].filter((t) => !this.presentTables.has(t));
  }

  /**
   * Called for each receipt in seq order, after its hash verified. `newTargets` is false when an
   * earlier receipt had the very same targets, which are then already indexed.
   */
  observe(r: ReceiptFacts, newTargets: boolean): void {
    this.actionsSeen.add(r.action);
    this.take(r, newTargets, () => true);
  }

  /**
   * A receipt from before the resume point, checked again because it names a changed row's target;
   * called before observe. It is the latest word only on the changed rows' targets: of its other
   * targets, not every receipt is seen, and their rows did not change.
   */
  observeAgain(r: ReceiptFacts, newTargets: boolean): void {
    this.take(r, newTargets, (t) => this.changed?.targets.has(t) === true);
  }

  private take(r: ReceiptFacts, newTargets: boolean, latestOn: (target: string) => boolean): void {
    if (newTargets) this.index(r.targets);
    const list = this.byAction.get(r.action) ?? [];
    for (const c of list) if (c.scope === 'each') this.run(c, r);
    const tracksState = list.length === 0 ? r.postFp !== null : list.some((c) => c.scope === 'latest');
    if (!tracksState) return;
    const named = new Set<string>();
    for (const c of list) if (c.scope === 'latest') for (const t of targetsOf(c, r)) named.add(t);
    if (named.size === 0 && r.targets[0] !== undefined) named.add(r.targets[0]);
    // A target a check holds this receipt to is named by it too (case:create names its first admin).
    for (const t of named) {
      if (latestOn(t)) this.latest.set(t, r);
      this.named.add(t);
    }
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
    if (this.dropped.length > 0 && !this.firstBreak) {
      // A missing table of the file's own schema is not "nothing to check": its rows are gone.
      this.firstBreak = { seq: length + 1, reason: `the case file's schema has the table(s) ${this.dropped.join(', ')}, and the file does not: dropped outside the workbench, with every row in them` };
    }
    if (complete) {
      for (const [target, r] of this.latest) {
        // Each check runs for the targets it records the state of, and only those.
        const latestChecks = (this.byAction.get(r.action) ?? []).filter((c) => c.scope === 'latest' && targetsOf(c, r).includes(target));
        if (latestChecks.length === 0) this.unchecked += 1;
        for (const c of latestChecks) this.run(c, r, target);
      }
      const whole = this.coverage === 'whole-chain';
      const orphan = whole ? this.unreceipted(null) : this.changed ? this.unreceipted(this.changed.rowids) : null;
      if (orphan && !this.firstBreak) {
        this.firstBreak = { seq: length + 1, reason: `${orphan} exists but no receipt names it: it was changed without a receipt, or receipts were removed from the end of the chain` };
      }
      for (const c of whole ? this.caseChecks : this.caseChecks.filter((c) => this.reachedBy(c))) {
        if (this.firstBreak) break;
        const rowsOnly = !whole && this.changed && c.checkRows && !c.dependsOn.actions.some((a) => this.actionsSeen.has(a));
        const problem = this.attempt(() => (rowsOnly ? c.checkRows!(this.db, this.changed!.rowids) : c.check(this.db)));
        if (problem === undefined) this.unchecked += 1;
        else if (problem === null) this.checked += 1;
        else this.firstBreak = { seq: length + 1, reason: `${c.name}: ${problem}: it was changed without a receipt, or receipts were removed from the end of the chain` };
      }
    }
    return this.firstBreak;
  }

  /** Whether what changed can move a whole-case check's answer (its dependsOn). */
  private reachedBy(c: CaseStateCheck): boolean {
    const changed = this.changed;
    if (!changed) return false;
    return c.dependsOn.tables.some((t) => changed.tables.has(t)) || c.dependsOn.actions.some((a) => this.actionsSeen.has(a));
  }

  /** The first row of a receipted table (of those `rowids` lists by table, or all) that no receipt names, if any. */
  private unreceipted(rowids: ReadonlyMap<string, readonly number[]> | null): string | null {
    const probes: [table: string, sql: string, prefix: string][] = [
      ['claim', 'SELECT claim_id AS id FROM claim', 'claim:'],
      ['evidence_revision', 'SELECT revision_id AS id FROM evidence_revision', 'revision:'],
      ['decision', 'SELECT decision_id AS id FROM decision', 'decision:'],
      ['review_vote', 'SELECT vote_id AS id FROM review_vote', 'vote:'],
      ['actor', 'SELECT actor_id AS id FROM actor', 'actor:'],
      // A remediation is opened by a convergence job, whose receipt names the job.
      ['remediation', 'SELECT job_id AS id FROM remediation', 'job:'],
    ];
    // Rows by rowid, when only some changed: the probes then read those rows and no others.
    const among = (table: string): [string, unknown[]] | null => {
      if (!rowids) return ['', []];
      const ids = rowids.get(table);
      return ids && ids.length > 0 ? [' WHERE rowid IN (SELECT value FROM json_each(?))', [JSON.stringify(ids)]] : null;
    };
    for (const [table, sql, prefix] of probes) {
      const rows = among(table);
      if (!this.presentTables.has(table) || !rows) continue;
      for (const { id } of this.db.prepare(sql + rows[0]).all(...rows[1]) as { id: string | number }[]) {
        if (!this.named.has(`${prefix}${id}`)) return `${prefix}${id}`;
      }
    }
    const bindings = among('claim_binding');
    if (this.presentTables.has('claim_binding') && bindings) {
      for (const b of this.db.prepare(`SELECT claim_id, revision_id, generation FROM claim_binding${bindings[0]}`).all(...bindings[1]) as { claim_id: string; revision_id: string; generation: number }[]) {
        if (!this.namedPairs.get(`claim:${b.claim_id}`)?.has(`revision:${b.revision_id}`)) return `the binding of revision:${b.revision_id} to claim:${b.claim_id} (generation ${b.generation})`;
      }
    }
    return null;
  }

  /**
   * A check's answer; undefined when it cannot run on an older schema (a table it reads came later).
   * Any other failure to recompute is a problem: the verifier never guesses.
   */
  private attempt(check: () => string | null): string | null | undefined {
    try {
      return check();
    } catch (err) {
      const message = (err as Error).message;
      if (this.olderSchema && message.startsWith('no such table')) return undefined;
      return `could not be recomputed (${message})`;
    }
  }

  private run(c: StateCheck, r: ReceiptFacts, target: string = r.targets[0] ?? ''): void {
    const problem = this.attempt(() => c.check(this.db, r, target));
    if (problem === undefined) {
      this.unchecked += 1;
      return;
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

/** The targets whose state a 'latest' check holds a receipt to: its own choice, else the first. */
const targetsOf = (c: StateCheck, r: ReceiptFacts): string[] => c.latestTargets?.(r) ?? (r.targets[0] !== undefined ? [r.targets[0]] : []);

/** null when `state` fingerprints to what the receipt recorded as its post state. */
export function postDiffers(r: ReceiptFacts, state: unknown, what: string): string | null {
  return stateFingerprint(state) === r.postFp ? null : `${what} differs from the state this receipt recorded`;
}

/** null when a row this receipt wrote carries the receipt's time (checked where the case says row times are receipt times). */
export function timeDiffers(r: ReceiptFacts, rowTime: string | null | undefined, what: string): string | null {
  if (!r.exactTimes || rowTime === r.at) return null;
  return `${what} carries the time ${String(rowTime)}, not ${r.at}, the time of the receipt that wrote it`;
}
