import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../shared/ipc/contract';
import { dispatch, nestedDeeperThan } from './dispatch';
import { handlers } from './handlers';
import { Session } from './session';
import { tableDigest } from './store/digest';
import { createTestCase, type TestCase } from '../testing/testCase';

let tc: TestCase;
beforeEach(async () => {
  tc = await createTestCase();
});
afterEach(() => tc.cleanup());

describe('dispatch', () => {
  it('has exactly one handler per contract channel', () => {
    expect(Object.keys(handlers).sort()).toEqual([...CHANNELS].sort());
  });

  it('answers VALIDATION with every zod issue path and writes nothing', async () => {
    const before = tableDigest(tc.casePath);
    const answer = await tc.raw('claim:create', { statement: '', tenant: 7, classification: 'secret', extra: true });
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.code).toBe('VALIDATION');
    const paths = answer.error.issues?.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['statement', 'tenant', 'classification']));
    expect(answer.error.message).toMatch(/^claim:create: invalid request: /);
    expect(tableDigest(tc.casePath)).toBe(before);
  });

  it('refuses a request nested deeper than any request of the contract instead of overflowing the stack', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const answer = await tc.raw('decision:verify', { decisionId: { length: deep }, fingerprint: 'a'.repeat(64) });
    expect(answer).toMatchObject({ ok: false, error: { code: 'VALIDATION', message: 'decision:verify: invalid request: nested more than 64 levels deep' } });
    let shallow: unknown = 'x';
    for (let i = 0; i < 60; i++) shallow = [shallow];
    expect((await tc.raw('decision:verify', { decisionId: shallow, fingerprint: 'a'.repeat(64) })) as { error: { message: string } }).toMatchObject({ error: { code: 'VALIDATION' } });
    expect(nestedDeeperThan(shallow, 64)).toBe(false);
  });

  it('names an unknown channel without running anything', async () => {
    const answer = await tc.raw('evidence:drop_table', {});
    expect(answer).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('answers NO_CASE before a case is open', async () => {
    const session = new Session({ userDataDir: `${tc.dir}/other`, log: () => {} }).seat();
    const answer = await dispatch(handlers, session, 'claim:list', {});
    expect(answer).toMatchObject({ ok: false, error: { code: 'NO_CASE' } });
  });

  it('turns unexpected exceptions into INTERNAL without leaking the stack', async () => {
    const logged: string[] = [];
    const session = new Session({ userDataDir: `${tc.dir}/x`, log: (l) => logged.push(l) }).seat();
    const broken = { ...handlers, 'case:recent': () => { throw new Error('secret internals /etc/shadow'); } };
    const answer = await dispatch(broken, session, 'case:recent', {});
    expect(answer).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(answer)).not.toContain('shadow');
    expect(logged.join('\n')).toContain('secret internals');
  });

  it('refuses a handler answer outside the contract as INTERNAL', async () => {
    const session = new Session({ userDataDir: `${tc.dir}/y`, log: () => {} }).seat();
    const broken = { ...handlers, 'case:recent': () => ({ cases: 'nope' }) as never };
    expect(await dispatch(broken, session, 'case:recent', {})).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
  });

  it('remembers opened cases as recent', async () => {
    const recent = await tc.call('case:recent', {});
    expect(recent.cases[0]).toMatchObject({ path: tc.casePath, name: 'Test case' });
  });
});
