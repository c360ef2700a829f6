import type { CaseInfo } from '../../../shared/ipc/channels/case';
import type { HandlersFor } from '../dispatch';
import { aclFilter } from '../store/acl';
import { createActor } from '../services/actors';
import { listActors } from '../store/actorRows';
import { initCase, readCaseMeta } from '../services/caseMeta';
import type { Session } from '../session';
import { schemaVersion } from '../store/caseFile';

function caseInfo(session: Session): CaseInfo {
  const ctx = session.context();
  const meta = readCaseMeta(ctx.db);
  const ev = aclFilter(ctx.actor, 'r');
  const cl = aclFilter(ctx.actor, 'c');
  const count = (sql: string, params: string[]) => (ctx.db.prepare(sql).get(...params) as { n: number }).n;
  return {
    path: session.casePath ?? '',
    caseId: meta.caseId,
    name: meta.name,
    description: meta.description,
    schemaVersion: schemaVersion(ctx.db),
    claimCount: count(`SELECT COUNT(*) AS n FROM claim c WHERE ${cl.sql}`, cl.params),
    evidenceCount: count(`SELECT COUNT(*) AS n FROM evidence_revision r WHERE ${ev.sql}`, ev.params),
    actor: ctx.actor,
  };
}

export const caseHandlers = {
  'case:info': (s) => caseInfo(s),
  'case:open': (s, req) => {
    s.open(req.path);
    return caseInfo(s);
  },
  'case:create': (s, req) => {
    const admin = { ...req.admin, role: 'admin' as const, tenants: ['*'], maxClassification: 'restricted' as const };
    s.create(req.path, (db) =>
      initCase(db, { name: req.name, description: req.description, admin, at: s.now(), keyringFor: (id) => s.keyringFor(id) }),
    );
    s.selectActor(admin.actorId);
    return caseInfo(s);
  },
  'case:recent': (s) => ({ cases: s.recent() }),
  'actor:list': (s) => listActors(s.db()),
  'actor:select': (s, req) => s.selectActor(req.actorId),
  'actor:create': (s, req) => createActor(s.context(), req),
} satisfies HandlersFor<'case:info' | 'case:open' | 'case:create' | 'case:recent' | 'actor:list' | 'actor:select' | 'actor:create'>;
