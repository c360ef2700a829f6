import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ensureDemoCase } from '../demo';
import { dispatch } from '../dispatch';
import { handlers } from '../handlers';
import { Session } from '../session';

const dir = mkdtempSync(join(tmpdir(), 'erwb-demo-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('the demo case verifies and its reviewers can keep working on it (their keys survive the build)', async () => {
  const path = await ensureDemoCase(resolve(import.meta.dirname, '../../../resources/demo-case.json'), dir);
  const session = new Session({ userDataDir: dir, log: () => {} }).seat();
  session.open(path);
  // The README names the demo reviewers' passphrases; the demo is worked on by unlocking one.
  expect(await dispatch(handlers, session, 'actor:unlock', { actorId: 'lena.k', passphrase: 'demo-lena-2231' })).toMatchObject({ ok: true });
  try {
    const verified = await dispatch(handlers, session, 'audit:verify', {});
    expect(verified).toMatchObject({ ok: true, value: { ok: true, firstBroken: null } });
    const created = await dispatch(handlers, session, 'claim:create', { statement: 'a new claim on the demo case', tenant: 'acme', classification: 'internal' });
    expect(created.ok ? 'ok' : created.error.message).toBe('ok');
  } finally {
    session.close();
  }
});
