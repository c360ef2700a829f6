import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dispatch } from '../core/dispatch';
import { handlers } from '../core/handlers';
import type { ScryptCost } from '../core/audit/sealedKey';
import { Session, type Seat, type SessionOptions } from '../core/session';
import type { Channel, RequestOf, ResponseOf } from '../../shared/ipc/contract';
import type { HomeScope } from '../../shared/domain/schemas';

/**
 * Every reviewer a test creates has this passphrase unless the test is about passphrases; tests
 * seal keys at a low scrypt cost (the cost is written in each key file, so opening still checks
 * the passphrase exactly as in production, only faster).
 */
export const TEST_PASSPHRASE = 'correct horse battery staple';
export const TEST_KEY_COST: ScryptCost = { N: 2 ** 10, r: 8, p: 1 };

/** `actorId`'s signing key in the test's case, unlocked with the test passphrase (for forging tests). */
export const testKeyOf = (seat: Seat, actorId: string) =>
  seat.session.openCase().keyring.unlock(seat.db(), actorId, TEST_PASSPHRASE, 'test');

/** A workbench process for tests: the low key cost, no log. */
export const testSession = (options: SessionOptions): Session => new Session({ log: () => {}, keyCost: TEST_KEY_COST, ...options });

type RefusalOf = Extract<Awaited<ReturnType<typeof dispatch>>, { ok: false }>['error'];

/** A session on a fresh temp case file with the real migrations, for service and handler tests. */
export interface TestCase {
  /** The test's window: its seat acts as the reviewer `as` unlocked. */
  session: Seat;
  dir: string;
  casePath: string;
  call: <C extends Channel>(channel: C, request: RequestOf<C>) => Promise<ResponseOf<C>>;
  raw: (channel: string, request: unknown) => ReturnType<typeof dispatch>;
  /** The error a refused call answers; a call that succeeds fails the test. */
  refusal: (channel: string, request: unknown) => Promise<RefusalOf>;
  as: (actorId: string) => void;
  cleanup: () => void;
}

/**
 * Test cases work in tenant acme up to internal, as most fixtures do: names chosen there by acme
 * reviewers are kept as chosen. Pass `homeScope` to test another (the product's default is the
 * whole case).
 */
export const TEST_HOME_SCOPE: HomeScope = { tenants: ['acme'], maxClassification: 'internal' };

export async function createTestCase(options: { now?: () => string; homeScope?: HomeScope } = {}): Promise<TestCase> {
  const dir = mkdtempSync(join(tmpdir(), 'erwb-test-'));
  const casePath = join(dir, 'test.case.sqlite');
  const session = testSession({ userDataDir: join(dir, 'user'), ...(options.now ? { now: options.now } : {}) }).seat('test');
  const raw = (channel: string, request: unknown) => dispatch(handlers, session, channel, request);
  const call = async <C extends Channel>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> => {
    const envelope = await raw(channel, request);
    if (!envelope.ok) throw Object.assign(new Error(`${envelope.error.code}: ${envelope.error.message}`), { envelope });
    return envelope.value as ResponseOf<C>;
  };
  await call('case:create', { path: casePath, name: 'Test case', admin: { actorId: 'admin', displayName: 'Admin', passphrase: TEST_PASSPHRASE }, homeScope: options.homeScope ?? TEST_HOME_SCOPE });
  const refusal = async (channel: string, request: unknown): Promise<RefusalOf> => {
    const envelope = await raw(channel, request);
    if (envelope.ok) throw new Error(`${channel} unexpectedly succeeded`);
    return envelope.error;
  };
  return {
    session,
    dir,
    casePath,
    call,
    raw,
    refusal,
    as: (actorId) => void session.unlock(actorId, TEST_PASSPHRASE),
    cleanup: () => {
      session.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
