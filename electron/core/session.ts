import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Keyring } from './audit/keys';
import { systemClock, type Actor, type ServiceContext } from './context';
import { WorkbenchError } from './errors';
import { getActor, listActors } from './store/actorRows';
import { readCaseMeta } from './services/caseMeta';
import { createCaseFile, openCaseFile, type CaseDb } from './store/caseFile';

interface OpenCase {
  path: string;
  db: CaseDb;
  actorId: string;
  keyring: Keyring;
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
  /** Picks the acting reviewer when a case opens; defaults to the case's first admin. */
  preferredActor?: string;
  /** Where reviewers' private signing keys live; defaults to <userDataDir>/keys. */
  keysDir?: string;
}

const MAX_RECENT = 10;

/**
 * One user's working state in one process: the open case file and the acting reviewer. Every
 * transport shares it, so the desktop window, the loopback host and the CLI behave the same.
 */
export class Session {
  readonly userDataDir: string;
  readonly now: () => string;
  readonly log: (line: string) => void;
  readonly keysDir: string;
  private current: OpenCase | null = null;
  private preferredActor: string | undefined;

  constructor(options: SessionOptions) {
    this.userDataDir = options.userDataDir;
    this.now = options.now ?? systemClock;
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.preferredActor = options.preferredActor;
    this.keysDir = options.keysDir ?? join(this.userDataDir, 'keys');
    mkdirSync(this.userDataDir, { recursive: true });
  }

  get casePath(): string | null {
    return this.current?.path ?? null;
  }

  /** The open case's database; NO_CASE when none is open. */
  db(): CaseDb {
    if (!this.current) throw new WorkbenchError('NO_CASE', 'no case is open; open or create a case first');
    return this.current.db;
  }

  actor(): Actor {
    const db = this.db();
    const actor = getActor(db, this.current!.actorId);
    if (!actor) throw new WorkbenchError('FORBIDDEN', `acting reviewer ${this.current!.actorId} is not in this case`);
    return actor;
  }

  context(): ServiceContext {
    return { db: this.db(), actor: this.actor(), now: this.now, keyring: this.current!.keyring };
  }

  /** This machine's keys for one case; case:create uses it before the case is attached. */
  keyringFor(caseId: string): Keyring {
    return new Keyring(this.keysDir, caseId);
  }

  selectActor(actorId: string): Actor {
    const actor = getActor(this.db(), actorId);
    if (!actor) throw new WorkbenchError('NOT_FOUND', `actor:select: no reviewer profile ${actorId} in this case`);
    this.current!.actorId = actorId;
    this.preferredActor = actorId;
    return actor;
  }

  open(path: string): void {
    const full = resolve(path);
    const db = openCaseFile(full);
    this.attach(full, db);
  }

  create(path: string, setup: (db: CaseDb) => void): void {
    const full = path === ':memory:' ? path : resolve(path);
    const db = createCaseFile(full);
    try {
      setup(db);
    } catch (err) {
      db.close();
      throw err;
    }
    this.attach(full, db);
  }

  close(): void {
    this.current?.db.close();
    this.current = null;
  }

  private attach(path: string, db: CaseDb): void {
    const actors = listActors(db);
    const chosen =
      actors.find((a) => a.actorId === this.preferredActor) ??
      actors.find((a) => a.role === 'admin') ??
      actors[0];
    if (!chosen) {
      db.close();
      throw new WorkbenchError('VALIDATION', `case:open: ${path} has no reviewer profiles; it cannot be worked on`);
    }
    this.close();
    const meta = readCaseMeta(db);
    this.current = { path, db, actorId: chosen.actorId, keyring: this.keyringFor(meta.caseId) };
    if (path !== ':memory:') this.remember(path, meta.name);
  }

  private recentFile(): string {
    return join(this.userDataDir, 'recent-cases.json');
  }

  recent(): RecentCase[] {
    try {
      const parsed = JSON.parse(readFileSync(this.recentFile(), 'utf8')) as unknown;
      return Array.isArray(parsed) ? (parsed as RecentCase[]).slice(0, MAX_RECENT) : [];
    } catch {
      return [];
    }
  }

  private remember(path: string, name: string): void {
    const list = [{ path, name, openedAt: this.now() }, ...this.recent().filter((r) => r.path !== path)];
    const tmp = `${this.recentFile()}.tmp`;
    writeFileSync(tmp, JSON.stringify(list.slice(0, MAX_RECENT), null, 2));
    renameSync(tmp, this.recentFile());
  }
}
