import { marksOf } from '../audit/verifyMarks';
import type { HandlersFor } from '../dispatch';
import { dropConflict } from '../team/conflicts';
import { convergeOpenCase, syncOpenCase, teamStatus } from '../team/teamView';

export const teamHandlers = {
  'team:status': (s) => teamStatus(s.context()),
  'team:sync': (s) => syncOpenCase(s.context(), marksOf(s.session.userDataDir)),
  'team:converge': (s) => convergeOpenCase(s.context(), marksOf(s.session.userDataDir)),
  'team:dropConflict': (s, req) => {
    const ctx = s.context();
    dropConflict(ctx.db, req.conflictId, ctx.actor.actorId);
    return { dropped: true as const };
  },
} satisfies HandlersFor<'team:status' | 'team:sync' | 'team:converge' | 'team:dropConflict'>;
