import type { CaseInfo } from '../../../shared/ipc/channels/case';
import { WHOLE_CASE_SCOPE } from '../../../shared/domain/schemas';
import type { HandlersFor } from '../dispatch';
import { aclFilter } from '../store/acl';
import { createActor } from '../services/actors';
import { listActors } from '../store/actorRows';
import { initCase, readCaseMeta } from '../services/caseMeta';
import type { Seat } from '../session';
import { recallViewPrefs, rememberViewPrefs } from '../viewPrefs';
import { schemaVersion } from '../store/caseFile';

/** What the window shows of the open case; counts and actor only once someone is unlocked here. */
function caseInfo(seat: Seat): CaseInfo {
  const db = seat.db();
  const meta = readCaseMeta(db);
  const actor = seat.unlockedActor();
  const count = (sql: string, params: string[]) => (db.prepare(sql).get(...params) as { n: number }).n;
  const ev = actor && aclFilter(actor, 'r');
  const cl = actor && aclFilter(actor, 'c');
  return {
    path: seat.casePath ?? '',
    caseId: meta.caseId,
    name: meta.name,
    description: meta.description,
    homeScope: meta.homeScope,
    schemaVersion: schemaVersion(db),
    claimCount: cl ? count(`SELECT COUNT(*) AS n FROM claim c WHERE ${cl.sql}`, cl.params) : null,
    evidenceCount: ev ? count(`SELECT COUNT(*) AS n FROM evidence_revision r WHERE ${ev.sql}`, ev.params) : null,
    actor,
    idleLockMinutes: seat.session.idleLockMs / 60_000,
  };
}

export const caseHandlers = {
  'case:info': (s) => caseInfo(s),
  'case:open': (s, req) => {
    s.open(req.path);
    return caseInfo(s);
  },
  'case:create': (s, req) => {
    const { passphrase, ...profile } = req.admin;
    const admin = { ...profile, role: 'admin' as const, tenants: ['*'], maxClassification: 'restricted' as const };
    let created: ReturnType<typeof initCase> | undefined;
    s.create(req.path, (db) => {
      created = initCase(db, { name: req.name, description: req.description, homeScope: req.homeScope ?? WHOLE_CASE_SCOPE, admin, passphrase, at: s.now(), keyringFor: (id) => s.keyringFor(id) });
    });
    // The creator's key was just sealed with their passphrase: this window acts as them.
    s.hold(s.session.openCase(), admin.actorId, created!.adminKey);
    return caseInfo(s);
  },
  'case:recent': (s) => ({ cases: s.recent() }),
  'view:recall': (s, req) => ({ value: recallViewPrefs(s.session.userDataDir, readCaseMeta(s.context().db).caseId, req.view) }),
  'view:remember': (s, req) => {
    rememberViewPrefs(s.session.userDataDir, readCaseMeta(s.context().db).caseId, req.view, req.value, s.now());
    return { remembered: true as const };
  },
  'actor:list': (s) => listActors(s.db()),
  'actor:unlock': (s, req) => s.unlock(req.actorId, req.passphrase),
  'actor:lock': (s) => {
    s.lock();
    return { locked: true as const };
  },
  'actor:passphrase': (s, req) => ({ actorId: s.changePassphrase(req.current, req.next) }),
  'actor:create': (s, { passphrase, ...actor }) => createActor(s.context(), actor, passphrase),
} satisfies HandlersFor<
  'case:info' | 'case:open' | 'case:create' | 'case:recent' | 'view:recall' | 'view:remember' | 'actor:list' | 'actor:unlock' | 'actor:lock' | 'actor:passphrase' | 'actor:create'
>;
