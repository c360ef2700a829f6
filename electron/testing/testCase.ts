import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dispatch } from '../core/dispatch';
import { handlers } from '../core/handlers';
import { Session } from '../core/session';
import type { Channel, RequestOf, ResponseOf } from '../../shared/ipc/contract';

/** A session on a fresh temp case file with the real migrations, for service and handler tests. */
export interface TestCase {
  session: Session;
  dir: string;
  casePath: string;
  call: <C extends Channel>(channel: C, request: RequestOf<C>) => Promise<ResponseOf<C>>;
  raw: (channel: string, request: unknown) => ReturnType<typeof dispatch>;
  as: (actorId: string) => void;
  cleanup: () => void;
}

export async function createTestCase(options: { now?: () => string } = {}): Promise<TestCase> {
  const dir = mkdtempSync(join(tmpdir(), 'erwb-test-'));
  const casePath = join(dir, 'test.case.sqlite');
  const session = new Session({ userDataDir: join(dir, 'user'), log: () => {}, ...(options.now ? { now: options.now } : {}) });
  const raw = (channel: string, request: unknown) => dispatch(handlers, session, channel, request);
  const call = async <C extends Channel>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> => {
    const envelope = await raw(channel, request);
    if (!envelope.ok) throw Object.assign(new Error(`${envelope.error.code}: ${envelope.error.message}`), { envelope });
    return envelope.value as ResponseOf<C>;
  };
  await call('case:create', { path: casePath, name: 'Test case', admin: { actorId: 'admin', displayName: 'Admin' } });
  return {
    session,
    dir,
    casePath,
    call,
    raw,
    as: (actorId) => void session.selectActor(actorId),
    cleanup: () => {
      session.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
