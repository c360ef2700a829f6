import { randomUUID } from 'node:crypto';
import { pinnedKeySource, type Keyring, type SigningKey } from '../audit/keys';
import type { Actor } from '../context';
import { writeTransaction, type CaseDb } from '../store/caseFile';
import { appendReceipt } from '../audit/receipts';
import { insertActor } from '../store/actorRows';
import { HomeScope, WHOLE_CASE_SCOPE } from '../../../shared/domain/schemas';

export interface CaseMeta {
  caseId: string;
  name: string;
  description: string;
  createdAt: string;
  /** Absent in the receipt of a case created before home scopes: then the whole case. */
  homeScope: HomeScope;
}

export function readCaseMeta(db: CaseDb): CaseMeta {
  const rows = db.prepare('SELECT key, value FROM case_meta').all() as { key: string; value: string }[];
  const meta = Object.fromEntries(rows.map((r) => [r.key, r.value]));
  return {
    caseId: meta.case_id ?? '',
    name: meta.name ?? '(unnamed case)',
    description: meta.description ?? '',
    createdAt: meta.created_at ?? '',
    homeScope: meta.home_scope === undefined ? WHOLE_CASE_SCOPE : HomeScope.parse(JSON.parse(meta.home_scope)),
  };
}

/**
 * Writes a new case's identity and its first admin in one transaction. The admin's key is issued
 * here and signs this first receipt itself: it is the root the rest of the chain's keys hang from.
 */
export function initCase(
  db: CaseDb,
  init: { name: string; description: string; homeScope: HomeScope; admin: Actor; passphrase: string; at: string; keyringFor: (caseId: string) => Keyring },
): CaseMeta & { adminKey: SigningKey } {
  const meta: CaseMeta = { caseId: randomUUID(), name: init.name, description: init.description, createdAt: init.at, homeScope: init.homeScope };
  let adminKey: SigningKey | undefined;
  writeTransaction(db, () => {
    const put = db.prepare('INSERT INTO case_meta (key, value) VALUES (?, ?)');
    put.run('case_id', meta.caseId);
    put.run('name', meta.name);
    put.run('description', meta.description);
    put.run('created_at', meta.createdAt);
    put.run('home_scope', JSON.stringify(meta.homeScope));
    insertActor(db, init.admin, init.at);
    const keyring = init.keyringFor(meta.caseId);
    const issued = keyring.issue(db, init.admin.actorId, init.at, init.passphrase);
    const registersKey = issued.registration;
    adminKey = issued.signingKey;
    appendReceipt(
      { db, actor: init.admin, now: () => init.at, keyring: pinnedKeySource({ issue: (...args) => keyring.issue(...args).registration }, issued.signingKey) },
      { action: 'case:create', targets: [`case:${meta.caseId}`], body: { ...meta, admin: init.admin, registersKey, rowTimes: 'receipt' }, post: meta },
    );
  });
  return { ...meta, adminKey: adminKey! };
}
