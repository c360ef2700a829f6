import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import type { Channel, RequestOf, ResponseOf } from '../../shared/ipc/contract';
import { dispatch } from '../core/dispatch';
import { handlers } from '../core/handlers';
import type { Seat } from '../core/session';
import { TEST_KEY_COST, TEST_PASSPHRASE, testSession } from './testCase';

/**
 * Test helper (not a test): another machine holding a replica of a team case. It has its own
 * workbench data, with the reviewers' sealed key files carried over from `keysFrom` (as each
 * reviewer carries their own key to the laptop they work on), and opens its case file in a
 * session for a stretch of work, closed again before the file is synced.
 */
export interface ReplicaMachine {
  path: string;
  userDataDir: string;
  /** Works on the case file as `actorId` (test passphrase unless given); the session is closed when `work` is done. */
  work<T>(actorId: string, work: (m: MachineSession) => Promise<T>, passphrase?: string): Promise<T>;
  /** What `team sync` needs to sign as `actorId` here. */
  identity(actorId: string): { userDataDir: string; actorId: string; passphrase: string; keyCost: typeof TEST_KEY_COST };
}

export interface MachineSession {
  seat: Seat;
  call<C extends Channel>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>>;
  as(actorId: string): void;
}

export function replicaMachine(parentDir: string, path: string, keysFrom: string): ReplicaMachine {
  const userDataDir = mkdtempSync(join(parentDir, 'machine-'));
  cpSync(join(keysFrom, 'keys'), join(userDataDir, 'keys'), { recursive: true });
  return {
    path,
    userDataDir,
    identity: (actorId) => ({ userDataDir, actorId, passphrase: TEST_PASSPHRASE, keyCost: TEST_KEY_COST }),
    async work(actorId, work, passphrase = TEST_PASSPHRASE) {
      const session = testSession({ userDataDir });
      session.open(path);
      const seat = session.seat('replica');
      const as = (id: string) => void seat.unlock(id, TEST_PASSPHRASE);
      seat.unlock(actorId, passphrase);
      try {
        return await work({
          seat,
          as,
          call: async (channel, request) => {
            const envelope = await dispatch(handlers, seat, channel, request);
            if (!envelope.ok) throw new Error(`${envelope.error.code}: ${envelope.error.message}`);
            return envelope.value as never;
          },
        });
      } finally {
        session.close();
      }
    },
  };
}

/**
 * The case as rows: every table but the replica's own bookkeeping, SQLite's full-text internals and
 * the change log readers keep (claim_change: this file's own history of writes), with the revision
 * counts as counts (a bucket a revision left stays behind as 0 where it was written, and is never
 * made where the final rows were applied).
 */
export function caseRows(path: string): Record<string, string> {
  const db = new Database(path, { readonly: true });
  try {
    const tables = (
      db
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%fts%' AND name NOT LIKE 'replica_%' AND name <> 'claim_change' ORDER BY name`)
        .all() as { name: string }[]
    ).map((r) => r.name);
    return Object.fromEntries(
      tables.map((t) => {
        const where = t === 'revision_count' ? ' WHERE n > 0' : '';
        const rows = db.prepare(`SELECT * FROM "${t}"${where}`).all().map((r) => JSON.stringify(r)).sort();
        return [t, createHash('sha256').update(rows.join('\n')).digest('hex')];
      }),
    );
  } finally {
    db.close();
  }
}

