import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Keyring, type KeyRegistration, type KeySource, type SigningKey } from './audit/keys';
import type { ScryptCost } from './audit/sealedKey';
import { systemClock, type Actor, type ServiceContext } from './context';
import { forbidden, WorkbenchError } from './errors';
import { getActor } from './store/actorRows';
import { readCaseMeta } from './services/caseMeta';
import { createCaseFile, openCaseFile, removeUnfinishedCase, type CaseDb } from './store/caseFile';
import type { PdfPrinter } from './interchange/report';

interface OpenCase {
  path: string;
  db: CaseDb;
  keyring: Keyring;
  /** A full verification succeeded since this opening; later ones in the app may be routine. */
  verifiedInFull: boolean;
}

export interface RecentCase {
  path: string;
  name: string;
  openedAt: string;
}

export interface SessionOptions {
  userDataDir: string;
  now?: () => string;
  log?: (line: string) => void;
  /** Where reviewers' sealed signing keys live; defaults to <userDataDir>/keys. */
  keysDir?: string;
  /** What sealing a new key costs (tests lower it); opening a key uses the cost written in its file. */
  keyCost?: ScryptCost;
  /** A seat with no request for this long locks its reviewer's key (default 15 minutes). */
  idleLockMs?: number;
  /** Wall-clock milliseconds for the idle lock; tests move it. */
  clockMs?: () => number;
  /** Prints HTML to PDF (the desktop app's printToPDF); without it report:write refuses pdf. */
  printPdf?: PdfPrinter;
}

const MAX_RECENT = 10;
const DEFAULT_IDLE_LOCK_MS = 15 * 60 * 1000;
/** Loopback tabs each bring a seat; forget the least recently used beyond this many. */
const MAX_SEATS = 64;

/**
 * One user's process: the open case file, this machine's reviewer keys and the recent list.
 * Every transport shares it; who is acting belongs to a Seat (one window, one browser tab, one
 * CLI run), never to the process (issue 9.4).
 */
export class Session {
  readonly userDataDir: string;
  readonly now: () => string;
  readonly log: (line: string) => void;
  readonly keysDir: string;
  readonly idleLockMs: number;
  readonly clockMs: () => number;
  readonly printPdf: PdfPrinter | null;
  private readonly keyCost: ScryptCost | undefined;
  private current: OpenCase | null = null;
  private readonly seats = new Map<string, Seat>();
  /** Set while an import holds the open case's write transaction across turns of the event loop. */
  private heldBy: (() => string) | null = null;

  constructor(options: SessionOptions) {
    this.userDataDir = options.userDataDir;
    this.now = options.now ?? systemClock;
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.keysDir = options.keysDir ?? join(this.userDataDir, 'keys');
    this.keyCost = options.keyCost;
    this.idleLockMs = options.idleLockMs ?? DEFAULT_IDLE_LOCK_MS;
    this.clockMs = options.clockMs ?? Date.now;
    this.printPdf = options.printPdf ?? null;
    mkdirSync(this.userDataDir, { recursive: true });
  }

  /** The seat of one window, tab or CLI run, created on first use. */
  seat(id = 'default'): Seat {
    let seat = this.seats.get(id);
    if (seat) {
      // Map order is the eviction order: most recently used last.
      this.seats.delete(id);
    } else {
      seat = new Seat(this, id);
      if (this.seats.size >= MAX_SEATS) this.seats.delete(this.seats.keys().next().value!);
    }
    this.seats.set(id, seat);
    return seat;
  }

  /**
   * A context for the revocation worker: it signs as the reviewer most recently active in any
   * seat of this case. When nobody is unlocked it waits (LOCKED), so every receipt it writes is
   * signed by someone who is present.
   */
  workerContext(): ServiceContext {
    const active = [...this.seats.values()].reverse().find((s) => s.unlockedActor() !== null);
    if (!active) throw new WorkbenchError('LOCKED', 'the revocation worker waits for a reviewer to unlock this case to sign its receipts');
    return active.context();
  }

  get casePath(): string | null {
    return this.current?.path ?? null;
  }

  /** The open case (the object identifies this opening: a seat unlocked for it holds it). */
  openCase(): OpenCase {
    if (!this.current) throw new WorkbenchError('NO_CASE', 'no case is open; open or create a case first');
    this.refuseWhileHeld();
    return this.current;
  }

  /**
   * Gives the open case to one long write (an import) that keeps its transaction open while it
   * yields to the event loop: until `release`, every other use of the case (reads included, which
   * would see the uncommitted half, and writes, which would land inside it) and opening another
   * case answer BUSY with `what()` (say, the import's progress). Returns the case's connection.
   */
  hold(what: () => string): { db: CaseDb; release: () => void } {
    const open = this.openCase();
    this.heldBy = what;
    let released = false;
    return {
      db: open.db,
      release: () => {
        if (released) return;
        released = true;
        this.heldBy = null;
      },
    };
  }

  private refuseWhileHeld(): void {
    if (this.heldBy) throw new WorkbenchError('BUSY', `${this.heldBy()}; the case answers again when it finishes or is cancelled`);
  }

  db(): CaseDb {
    return this.openCase().db;
  }

  /** This machine's keys for one case; case:create uses it before the case is attached. */
  keyringFor(caseId: string): Keyring {
    return new Keyring(this.keysDir, caseId, this.keyCost);
  }

  open(path: string): void {
    this.refuseWhileHeld();
    const full = resolve(path);
    this.attach(full, openCaseFile(full));
  }

  create(path: string, setup: (db: CaseDb) => void): void {
    this.refuseWhileHeld();
    const full = path === ':memory:' ? path : resolve(path);
    const db = createCaseFile(full);
    try {
      setup(db);
    } catch (err) {
      // A case that could not be set up is not left behind half made.
      db.close();
      if (full !== ':memory:') removeUnfinishedCase(full);
      throw err;
    }
    this.attach(full, db);
  }

  close(): void {
    this.current?.db.close();
    this.current = null;
  }

  private attach(path: string, db: CaseDb): void {
    this.close();
    const meta = readCaseMeta(db);
    this.current = { path, db, keyring: this.keyringFor(meta.caseId), verifiedInFull: false };
    if (path !== ':memory:') this.remember(path, meta.name);
  }

  private recentFile(): string {
    return join(this.userDataDir, 'recent-cases.json');
  }

  /** The recent list; entries of a damaged or hand-edited file that are not recent cases are skipped. */
  recent(): RecentCase[] {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.recentFile(), 'utf8'));
    } catch {
      return [];
    }
    if (!Array.isArray(parsed)) return [];
    const isRecent = (r: unknown): r is RecentCase =>
      typeof r === 'object' && r !== null && ['path', 'name', 'openedAt'].every((k) => typeof (r as Record<string, unknown>)[k] === 'string');
    return parsed.filter(isRecent).map(({ path, name, openedAt }) => ({ path, name, openedAt })).slice(0, MAX_RECENT);
  }

  private remember(path: string, name: string): void {
    const list = [{ path, name, openedAt: this.now() }, ...this.recent().filter((r) => r.path !== path)];
    // A temp name of this process's own: two workbench processes opening cases at once must not rename each other's file away.
    const tmp = `${this.recentFile()}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(list.slice(0, MAX_RECENT), null, 2));
    renameSync(tmp, this.recentFile());
  }
}

interface Unlocked {
  /** The opening of the case this key was unlocked for; another opening locks the seat. */
  openCase: OpenCase;
  actorId: string;
  key: SigningKey;
  lastUsedMs: number;
}

/**
 * Who acts in one window, browser tab or CLI run: the reviewer whose key was unlocked here with
 * their passphrase. The unlocked key lives only in this object, in the main process; it is
 * dropped after the session's idle timeout, when the case changes, or on lock. Handlers get a
 * Seat, so every read is filtered for, and every receipt signed by, this seat's reviewer.
 */
export class Seat implements KeySource {
  private unlocked: Unlocked | null = null;
  /** Why the seat locked itself, said once to the next caller. */
  private lockedBecause: string | null = null;

  constructor(
    readonly session: Session,
    readonly id: string,
  ) {}

  get casePath(): string | null {
    return this.session.casePath;
  }
  get keysDir(): string {
    return this.session.keysDir;
  }
  get now(): () => string {
    return this.session.now;
  }
  log(line: string): void {
    this.session.log(line);
  }
  db(): CaseDb {
    return this.session.db();
  }
  recent(): RecentCase[] {
    return this.session.recent();
  }
  open(path: string): void {
    this.session.open(path);
  }
  create(path: string, setup: (db: CaseDb) => void): void {
    this.session.create(path, setup);
  }
  close(): void {
    this.session.close();
  }
  keyringFor(caseId: string): Keyring {
    return this.session.keyringFor(caseId);
  }

  /** The unlocked reviewer, or null; does not count as use (the idle clock is not reset). */
  unlockedActor(): Actor | null {
    const u = this.current(false);
    return u ? (getActor(u.openCase.db, u.actorId) ?? null) : null;
  }

  /** The acting reviewer; LOCKED when no one is unlocked here (or the lock timed out). */
  actor(): Actor {
    const u = this.current(true);
    if (!u) {
      this.session.openCase();
      const why = this.lockedBecause ?? 'no reviewer is unlocked in this window';
      throw new WorkbenchError('LOCKED', `${why}; choose who you are and enter your passphrase (actor:unlock)`);
    }
    const actor = getActor(u.openCase.db, u.actorId);
    if (!actor) throw forbidden(`acting reviewer ${u.actorId} is not in this case`);
    return actor;
  }

  /**
   * What a service call runs with. Its clock is read once: every row a call writes carries the
   * time of the receipt that records it, so verify can hold row times to receipts (issue 9.1).
   */
  context(): ServiceContext {
    const at = this.now();
    return { db: this.db(), actor: this.actor(), now: () => at, keyring: this };
  }

  /** Unlocks `actorId`'s key with their passphrase; from now on this seat acts as them. */
  unlock(actorId: string, passphrase: string): Actor {
    const open = this.session.openCase();
    const actor = getActor(open.db, actorId);
    if (!actor) throw new WorkbenchError('NOT_FOUND', `actor:unlock: no reviewer profile ${actorId} in this case`);
    this.unlocked = null;
    const key = open.keyring.unlock(open.db, actorId, passphrase, 'actor:unlock');
    this.hold(open, actorId, key);
    return actor;
  }

  /** Acts as a reviewer whose key this seat just issued (the case creator), without unlocking it again. */
  hold(openCase: OpenCase, actorId: string, key: SigningKey): void {
    this.unlocked = { openCase, actorId, key, lastUsedMs: this.session.clockMs() };
    this.lockedBecause = null;
  }

  lock(): void {
    this.unlocked = null;
    this.lockedBecause = null;
  }

  /** Reseals the unlocked reviewer's key under a new passphrase on this machine. */
  changePassphrase(current: string, next: string): string {
    const actor = this.actor();
    const open = this.session.openCase();
    open.keyring.reseal(open.db, actor.actorId, current, next);
    return actor.actorId;
  }

  activeKey(db: CaseDb, actorId: string, action: string): SigningKey {
    const u = this.current(true);
    if (!u || u.actorId !== actorId) {
      throw forbidden(`${action} refused: only the reviewer unlocked in this window can sign, and that is not ${actorId}`);
    }
    const active = db.prepare('SELECT key_id FROM actor_key WHERE actor_id = ? AND retired_at IS NULL').pluck().get(actorId) as string | undefined;
    if (active !== u.key.keyId) {
      this.unlocked = null;
      throw new WorkbenchError('LOCKED', `${action} refused: ${actorId}'s signing key was replaced since it was unlocked here; unlock again with the new key's passphrase`);
    }
    return u.key;
  }

  issue(db: CaseDb, actorId: string, at: string, passphrase: string): KeyRegistration {
    return this.session.openCase().keyring.issue(db, actorId, at, passphrase).registration;
  }

  private current(touch: boolean): Unlocked | null {
    const u = this.unlocked;
    if (!u) return null;
    const nowMs = this.session.clockMs();
    if (this.casePath === null || this.session.openCase() !== u.openCase) {
      this.unlocked = null;
      return null;
    }
    if (nowMs - u.lastUsedMs > this.session.idleLockMs) {
      this.unlocked = null;
      this.lockedBecause = `this window locked after ${Math.round(this.session.idleLockMs / 60_000)} minutes without use`;
      return null;
    }
    if (touch) u.lastUsedMs = nowMs;
    return u;
  }
}
