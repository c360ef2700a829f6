import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Channel, RequestOf, ResponseOf } from '../../shared/ipc/contract';
import { tableDigest } from '../core/store/digest';
import { dispatch } from '../core/dispatch';
import { handlers } from '../core/handlers';
import { startHost, type RunningHost } from './server';
import { keyIdOf } from '../core/audit/keys';
import { openSealedKey, sealPrivateKey, WrongPassphrase } from '../core/audit/sealedKey';
import { createReviewCase, type ReviewCase } from '../testing/reviewCase';
import { TEST_KEY_COST, TEST_PASSPHRASE, testSession } from '../testing/testCase';
import type { Session } from '../core/session';

/**
 * Issue 9.4: acting as a reviewer needs their secret. Before, `actor:select` switched to anyone
 * (admin included), private keys sat in plain PEM, and in browser mode every tab shared the one
 * acting reviewer of the process, so a tab could act under the name chosen in another.
 */
let rc: ReviewCase;
beforeEach(async () => {
  rc = await createReviewCase();
  await rc.evidence('ev-1');
  await rc.claim('cl-1');
  await rc.bind('cl-1', 'ev-1@1');
});
afterEach(() => rc.cleanup());

const caseId = () => rc.session.db().prepare("SELECT value FROM case_meta WHERE key = 'case_id'").pluck().get() as string;
const keyFiles = () => readdirSync(join(rc.session.keysDir, caseId()));
const lastReceipt = () => rc.session.db().prepare('SELECT actor, action, signer FROM audit_receipt ORDER BY seq DESC LIMIT 1').get() as { actor: string; action: string; signer: string };

/** Another window of the same process, on the same open case. */
function window(session: Session, id: string) {
  const seat = session.seat(id);
  const raw = (channel: string, request: unknown) => dispatch(handlers, seat, channel, request);
  const call = async <C extends Channel>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> => {
    const env = await raw(channel, request);
    if (!env.ok) throw new Error(`${channel}: ${env.error.code} ${env.error.message}`);
    return env.value as ResponseOf<C>;
  };
  return { seat, raw, call };
}

describe('acting as a reviewer means unlocking their key', () => {
  it('a window acts for no one until unlocked: reads and writes answer LOCKED, case:info shows no actor', async () => {
    const w = window(rc.session.session, 'fresh-window');
    const info = await w.call('case:info', {});
    expect(info).toMatchObject({ actor: null, claimCount: null, evidenceCount: null });
    for (const [channel, request] of [
      ['claim:list', {}],
      ['evidence:get', { revisionId: 'ev-1@1' }],
      ['claim:create', { statement: 's', tenant: 'acme', classification: 'internal' }],
    ] as const) {
      expect(await w.raw(channel, request)).toMatchObject({ ok: false, error: { code: 'LOCKED' } });
    }
    // The profiles are listed so the lock screen can offer them; nothing else is.
    expect((await w.call('actor:list', {})).map((a) => a.actorId)).toContain('bob');
  });

  it('a wrong passphrase unlocks nothing and writes nothing; actor:select no longer exists', async () => {
    const w = window(rc.session.session, 'w1');
    const before = tableDigest(rc.casePath);
    expect(await w.raw('actor:unlock', { actorId: 'admin', passphrase: 'not the passphrase' })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', message: 'actor:unlock refused: wrong passphrase for reviewer admin' },
    });
    expect(await w.raw('claim:list', {})).toMatchObject({ ok: false, error: { code: 'LOCKED' } });
    expect(await w.raw('actor:select', { actorId: 'admin' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(tableDigest(rc.casePath)).toBe(before);
  });

  it("four eyes is two secrets: one reviewer's passphrase opens no one else's key", async () => {
    rc.as('bob');
    const bobsSecret = 'bob only knows this';
    await rc.call('actor:passphrase', { current: TEST_PASSPHRASE, next: bobsSecret });
    const w = window(rc.session.session, 'second-window');
    for (const other of ['carol', 'dave', 'admin']) {
      expect(await w.raw('actor:unlock', { actorId: other, passphrase: bobsSecret })).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN', message: `actor:unlock refused: wrong passphrase for reviewer ${other}` },
      });
    }
    await w.call('actor:unlock', { actorId: 'bob', passphrase: bobsSecret });
  });

  it('each window has its own reviewer: acting in one records that one, whatever another chose', async () => {
    const a = window(rc.session.session, 'window-a');
    const b = window(rc.session.session, 'window-b');
    await a.call('actor:unlock', { actorId: 'alice', passphrase: TEST_PASSPHRASE });
    await b.call('actor:unlock', { actorId: 'bob', passphrase: TEST_PASSPHRASE });
    await a.call('claim:create', { claimId: 'cl-a', statement: 'made in window a', tenant: 'acme', classification: 'internal' });
    expect(lastReceipt()).toMatchObject({ actor: 'alice', action: 'claim:create' });
    await b.call('claim:create', { claimId: 'cl-b', statement: 'made in window b', tenant: 'acme', classification: 'internal' });
    expect(lastReceipt()).toMatchObject({ actor: 'bob', action: 'claim:create' });
    expect((await a.call('case:info', {})).actor?.actorId).toBe('alice');
  });

  it('locks again after the idle timeout, saying why, and on actor:lock', async () => {
    let nowMs = 1_000_000;
    const session = testSession({ userDataDir: join(rc.dir, 'user'), idleLockMs: 15 * 60_000, clockMs: () => nowMs });
    session.open(rc.casePath);
    const w = window(session, 'idle');
    await w.call('actor:unlock', { actorId: 'bob', passphrase: TEST_PASSPHRASE });
    nowMs += 14 * 60_000;
    await w.call('claim:list', {});
    nowMs += 14 * 60_000; // 14 minutes after the last use: still open
    await w.call('claim:list', {});
    nowMs += 15 * 60_000 + 1;
    const locked = await w.raw('claim:create', { statement: 'after lunch', tenant: 'acme', classification: 'internal' });
    expect(locked).toMatchObject({ ok: false, error: { code: 'LOCKED' } });
    if (!locked.ok) expect(locked.error.message).toContain('this window locked after 15 minutes without use');
    expect((await w.call('case:info', {})).actor).toBeNull();
    await w.call('actor:unlock', { actorId: 'bob', passphrase: TEST_PASSPHRASE });
    await w.call('actor:lock', {});
    expect(await w.raw('claim:list', {})).toMatchObject({ ok: false, error: { code: 'LOCKED' } });
    session.close();
  });

  it('a key replaced while unlocked (actor:rekey) locks the window instead of signing with a retired key', async () => {
    const w = window(rc.session.session, 'bob-window');
    await w.call('actor:unlock', { actorId: 'bob', passphrase: TEST_PASSPHRASE });
    rc.as('admin');
    await rc.call('actor:rekey', { actorId: 'bob', reason: 'laptop lost', passphrase: 'bobs new passphrase' });
    const env = await w.raw('claim:create', { statement: 'with the old key', tenant: 'acme', classification: 'internal' });
    expect(env).toMatchObject({ ok: false, error: { code: 'LOCKED' } });
    if (!env.ok) expect(env.error.message).toContain("bob's signing key was replaced since it was unlocked here");
    expect(await w.raw('actor:unlock', { actorId: 'bob', passphrase: TEST_PASSPHRASE })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    await w.call('actor:unlock', { actorId: 'bob', passphrase: 'bobs new passphrase' });
    await w.call('claim:create', { statement: 'with the new key', tenant: 'acme', classification: 'internal' });
    expect(lastReceipt().actor).toBe('bob');
  });
});

describe('keys at rest', () => {
  it('are sealed: the file alone, without the passphrase, signs nothing; a changed passphrase replaces the old', async () => {
    const file = join(rc.session.keysDir, caseId(), keyFiles().find((f) => f.startsWith('carol.'))!);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(/PRIVATE KEY|MC4CAQAwBQYDK2Vw/); // neither PEM nor the base64 of a raw Ed25519 PKCS#8
    expect(() => openSealedKey(text, 'guess')).toThrow(WrongPassphrase);
    // A sealed file cannot be relabelled as another reviewer's key: the label is authenticated.
    const relabelled = text.replace('"actorId": "carol"', '"actorId": "dave"');
    expect(() => openSealedKey(relabelled, TEST_PASSPHRASE)).toThrow(WrongPassphrase);

    rc.as('carol');
    await rc.call('actor:passphrase', { current: TEST_PASSPHRASE, next: 'carols own passphrase' });
    expect(await rc.raw('actor:passphrase', { current: 'wrong', next: 'whatever it is' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    rc.as('admin');
    const w = window(rc.session.session, 'carol-again');
    expect(await w.raw('actor:unlock', { actorId: 'carol', passphrase: TEST_PASSPHRASE })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    await w.call('actor:unlock', { actorId: 'carol', passphrase: 'carols own passphrase' });
  });

  it('passphrases are held to a minimum and never enter the case file', async () => {
    rc.as('admin');
    const short = await rc.raw('actor:create', { actorId: 'gus', displayName: 'Gus', role: 'reviewer', tenants: ['acme'], maxClassification: 'internal', passphrase: 'short' });
    expect(short).toMatchObject({ ok: false, error: { code: 'VALIDATION', issues: [{ path: ['passphrase'], message: 'a passphrase has at least 8 characters' }] } });
    await rc.call('actor:create', { actorId: 'gus', displayName: 'Gus', role: 'reviewer', tenants: ['acme'], maxClassification: 'internal', passphrase: 'gus passphrase 42' });
    const dump = JSON.stringify(rc.session.db().prepare('SELECT * FROM audit_receipt').all()) + JSON.stringify(rc.session.db().prepare('SELECT * FROM actor').all());
    expect(dump).not.toContain('gus passphrase 42');
    expect(dump).not.toContain(TEST_PASSPHRASE);
  });

  it('a plain key written before passphrases is sealed with the passphrase of its first unlock', async () => {
    const dir = join(rc.session.keysDir, caseId());
    const daveFile = keyFiles().find((f) => f.startsWith('dave.'))!;
    const key = openSealedKey(readFileSync(join(dir, daveFile), 'utf8'), TEST_PASSPHRASE);
    rmSync(join(dir, daveFile));
    writeFileSync(join(dir, 'dave.pem'), key.export({ type: 'pkcs8', format: 'pem' }) as string, { mode: 0o600 });
    const w = window(rc.session.session, 'dave');
    await w.call('actor:unlock', { actorId: 'dave', passphrase: 'daves chosen passphrase' });
    expect(keyFiles().filter((f) => f.startsWith('dave.'))).toEqual([daveFile]);
    await w.call('actor:lock', {});
    expect(await w.raw('actor:unlock', { actorId: 'dave', passphrase: 'any other passphrase' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('a sealed file for another key is not accepted as the registered one', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const foreignId = keyIdOf((publicKey.export({ type: 'spki', format: 'der' }) as Buffer).toString('base64'));
    const bobsFile = join(rc.session.keysDir, caseId(), keyFiles().find((f) => f.startsWith('bob.'))!);
    const registered = JSON.parse(readFileSync(bobsFile, 'utf8')).keyId as string;
    // A key sealed under bob's registered key id but holding another key: the AAD matches, the key does not.
    writeFileSync(bobsFile, sealPrivateKey(privateKey, { actorId: 'bob', keyId: registered }, TEST_PASSPHRASE, TEST_KEY_COST));
    expect(foreignId).not.toBe(registered);
    expect(() => rc.as('bob')).toThrow(/does not hold the key this case registers for bob/);
  });
});

describe('browser tabs', () => {
  let host: RunningHost;
  afterEach(async () => host?.close());

  it("two tabs of the loopback host act as their own reviewers (before: the last choice in any tab)", async () => {
    host = await startHost({ session: rc.session.session, handlers });
    const post = async (seat: string, channel: string, body: unknown) => {
      const res = await fetch(`http://127.0.0.1:${host.port}/api/${channel}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-workbench-token': host.token, 'x-workbench-seat': seat },
        body: JSON.stringify(body),
      });
      return (await res.json()) as { ok: boolean; value?: unknown; error?: { code: string; message: string } };
    };
    const tabX = 'tab-x-0123456789abcdef';
    const tabY = 'tab-y-0123456789abcdef';
    expect(await post(tabX, 'actor:unlock', { actorId: 'carol', passphrase: TEST_PASSPHRASE })).toMatchObject({ ok: true });
    expect(await post(tabY, 'actor:unlock', { actorId: 'dave', passphrase: TEST_PASSPHRASE })).toMatchObject({ ok: true });
    expect(await post(tabX, 'claim:create', { claimId: 'cl-x', statement: 'from tab x', tenant: 'acme', classification: 'internal' })).toMatchObject({ ok: true });
    expect(lastReceipt()).toMatchObject({ actor: 'carol', action: 'claim:create' });
    // A tab that never unlocked acts for no one, and a malformed seat id is refused outright.
    expect(await post('tab-z-0123456789abcdef', 'claim:list', {})).toMatchObject({ ok: false, error: { code: 'LOCKED' } });
    expect(await post('x', 'claim:list', {})).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
  });
});
