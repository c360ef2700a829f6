import { randomUUID } from 'node:crypto';
import { readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { ClientBase } from 'pg';
import type { ScryptCost } from '../audit/sealedKey';
import { marksOf } from '../audit/verifyMarks';
import { dispatch } from '../dispatch';
import { conflict } from '../errors';
import { handlers } from '../handlers';
import { readCaseMeta } from '../services/caseMeta';
import { Session } from '../session';
import { openCaseFile, writeTransaction, type CaseDb } from '../store/caseFile';
import { serverSeq } from '../store/replicaRows';
import type { ConflictRow } from './conflicts';
import { pushCase } from './publish';
import { cloneCase, DivergedReplica, pullCase } from './replica';
import { HeadMoved } from './teamStore';

/**
 * Syncing a replica whose reviewers worked offline while others pushed (issue 15): the actions
 * taken here since the server last agreed with this file are provisional. When the server moved
 * on, the file is rebuilt from the server's head (a verified clone) and each provisional action is
 * taken again there, in order, through the same channel and with the same request, as its
 * reviewer: so every check it passed the first time (the fingerprint compare-and-swap of a vote,
 * a claim's projection version, four eyes, the lifecycle) is made again against the new state. An
 * action still valid is re-appended on the new head, signed anew; one that is not becomes a
 * conflict shown to its author to redo or drop. None is merged silently, none is lost.
 */
export interface SyncIdentity {
  /** This machine's workbench data (the reviewers' sealed keys). */
  userDataDir: string;
  /** The reviewer running the sync: their provisional actions are taken again, signed by them. */
  actorId: string;
  passphrase: string;
  keyCost?: ScryptCost;
  now?: () => string;
}


export interface SyncResult {
  pulled: number;
  pushed: number;
  /** Provisional actions taken again on the server's head (reconciled), by channel. */
  replayed: string[];
  /** Conflicts this sync found (earlier ones stay listed in the case file). */
  conflicts: Omit<ConflictRow, 'conflict_id'>[];
  head: number;
}

interface PendingRow {
  first_seq: number;
  last_seq: number;
  actor: string;
  channel: string;
  request: string | null;
}

const ATTEMPTS = 3;

/** Pulls, reconciles provisional actions when the server moved past them, then pushes. */
export async function syncCase(path: string, client: ClientBase, who: SyncIdentity, onStep: (step: string) => void = () => {}): Promise<SyncResult> {
  const replayed: string[] = [];
  const conflicts: SyncResult['conflicts'] = [];
  let pulled = 0;
  for (let attempt = 1; ; attempt++) {
    const db = openCaseFile(path);
    try {
      const fastForward = await pullCase(db, client, { marks: marksOf(who.userDataDir) }).catch((err: unknown) => {
        if (err instanceof DivergedReplica) return null;
        throw err;
      });
      if (fastForward) {
        pulled += fastForward.pulled;
        onStep(`pushing from seq ${fastForward.head}`);
        const pushed = await pushCase(db, client);
        return { pulled, pushed: pushed.pushed, replayed, conflicts, head: pushed.head.seq };
      }
    } catch (err) {
      // Another reviewer pushed between our pull and our push: go round again.
      if (attempt < ATTEMPTS && err instanceof HeadMoved) continue;
      throw err;
    } finally {
      db.close();
    }
    const rebuilt = await rebuildOnServerHead(path, client, who, onStep);
    pulled += rebuilt.pulled;
    replayed.push(...rebuilt.replayed);
    conflicts.push(...rebuilt.conflicts);
    if (attempt >= ATTEMPTS) throw conflict(`team sync: the server kept moving while this file was reconciled (${ATTEMPTS} tries); sync again`);
  }
}

/**
 * Rebuilds the case file at `path` from the server's head, taking its provisional actions again
 * there, and puts the result in its place in one rename. Until that rename the file is untouched,
 * so a sync cut at any point leaves either the old file or the new one, whole.
 */
async function rebuildOnServerHead(path: string, client: ClientBase, who: SyncIdentity, onStep: (step: string) => void): Promise<{ pulled: number; replayed: string[]; conflicts: SyncResult['conflicts'] }> {
  const db = openCaseFile(path);
  let caseId: string;
  let pending: PendingRow[];
  let unrecorded: { seq: number; actor: string; action: string; at: string }[];
  let earlier: ConflictRow[];
  let madeAt: Map<number, string>;
  let known: number;
  try {
    caseId = readCaseMeta(db).caseId;
    known = serverSeq(db);
    pending = db.prepare('SELECT * FROM replica_pending WHERE first_seq > ? ORDER BY first_seq').all(known) as PendingRow[];
    const provisional = db.prepare('SELECT seq, actor, action, at FROM audit_receipt WHERE seq > ? ORDER BY seq').all(known) as { seq: number; actor: string; action: string; at: string }[];
    madeAt = new Map(provisional.map((r) => [r.seq, r.at]));
    // Convergence receipts (the worker's, not a reviewer's action) are not taken again: the rebuilt
    // file has the same open jobs, and its converger converges them there.
    unrecorded = provisional.filter((r) => r.action !== 'revocation:converge' && !pending.some((p) => r.seq >= p.first_seq && r.seq <= p.last_seq));
    earlier = db.prepare('SELECT * FROM replica_conflict ORDER BY conflict_id').all() as ConflictRow[];
  } finally {
    db.close();
  }

  // A sync killed before its rename leaves its rebuilt file behind: never used, removed here.
  for (const f of readdirSync(dirname(path))) if (f.startsWith(`${basename(path)}.sync-`)) rmSync(join(dirname(path), f), { force: true });
  const temp = `${path}.sync-${randomUUID().slice(0, 8)}`;
  const discard = () => {
    for (const f of [temp, `${temp}-wal`, `${temp}-shm`]) rmSync(f, { force: true });
  };
  onStep(`rebuilding from the server's head: ${pending.length} provisional actions to take again`);
  const clone = await cloneCase(client, caseId, temp, { marks: marksOf(who.userDataDir) });
  const session = new Session({ userDataDir: who.userDataDir, log: () => {}, ...(who.keyCost ? { keyCost: who.keyCost } : {}), ...(who.now ? { now: who.now } : {}) });
  const replayed: string[] = [];
  const found: SyncResult['conflicts'] = [];
  try {
    session.open(temp);
    const seat = session.seat('sync');
    seat.unlock(who.actorId, who.passphrase);
    const foundAt = seat.now();
    const report = (p: { actor: string; channel: string; request: string | null; made_at: string }, reason: string) => found.push({ ...p, reason, found_at: foundAt });
    for (const p of pending) {
      const made = { actor: p.actor, channel: p.channel, request: p.request, made_at: madeAt.get(p.first_seq) ?? foundAt };
      if (p.request === null) {
        report(made, 'it carried a passphrase, so it is not taken again unattended; redo it');
      } else if (p.actor !== who.actorId) {
        report(made, `made by ${p.actor}, who was not the reviewer syncing; ${p.actor} redoes it (or drops it)`);
      } else {
        const answer = await dispatch(handlers, seat, p.channel, JSON.parse(p.request));
        onStep(`took ${p.channel} again: ${answer.ok ? 'applied' : 'a conflict'}`);
        if (answer.ok) replayed.push(p.channel);
        else report(made, `no longer valid on the server's newer head: ${answer.error.code}: ${answer.error.message}`);
      }
    }
    for (const r of unrecorded) {
      report({ actor: r.actor, channel: r.action, request: null, made_at: r.at }, 'made here, but the workbench stopped before it recorded the request; redo it');
    }
    const rebuilt = seat.db();
    writeTransaction(rebuilt, () => keepConflicts(rebuilt, [...earlier, ...found]));
    session.close();
  } catch (err) {
    session.close();
    discard();
    throw err;
  }
  // The old file goes with its journal; the rebuilt one (closed, so checkpointed) takes its place.
  for (const f of [`${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
  onStep('replacing the case file with the rebuilt one');
  renameSync(temp, path);
  discard();
  // What came from the server is what it holds beyond the point this file last agreed with it.
  return { pulled: clone.head - known, replayed, conflicts: found };
}

function keepConflicts(db: CaseDb, rows: readonly Omit<ConflictRow, 'conflict_id'>[]): void {
  const insert = db.prepare('INSERT INTO replica_conflict (actor, channel, request, reason, made_at, found_at) VALUES (?, ?, ?, ?, ?, ?)');
  for (const r of rows) insert.run(r.actor, r.channel, r.request, r.reason, r.made_at, r.found_at);
}
