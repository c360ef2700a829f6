import Database from 'better-sqlite3';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tableDigest } from '../core/store/digest';
import { verifyCaseFile } from '../core/audit/verifyFile';
import { createReviewCase, type ReviewCase } from '../testing/reviewCase';
import { TEST_PASSPHRASE } from '../testing/testCase';
import { IN_MUTATION_RUN } from '../testing/mutationRun';

/**
 * Issue 12.2, 12.3, 12.6: odd files and odd paths get a sentence that says what is wrong and what
 * to do (never INTERNAL "see the workbench log"), and nothing is left behind or written into.
 */
let rc: ReviewCase;
beforeEach(async () => {
  rc = await createReviewCase();
});
afterEach(() => rc.cleanup());

const bytes = (path: string) => readFileSync(path).toString('base64');
const beside = (path: string) => readdirSync(join(path, '..')).filter((f) => f.startsWith(path.split('/').pop()!));

describe('opening odd files', () => {
  it('a folder, a pipe and a device are refused with what they are', async () => {
    const folder = join(rc.dir, 'a-folder.case.sqlite');
    mkdirSync(folder);
    expect(await rc.raw('case:open', { path: folder })).toMatchObject({ ok: false, error: { code: 'VALIDATION', message: expect.stringContaining('is a folder, not a case file') } });
    const fifo = join(rc.dir, 'pipe.case.sqlite');
    execFileSync('mkfifo', [fifo]);
    expect(await rc.raw('case:open', { path: fifo })).toMatchObject({ ok: false, error: { code: 'VALIDATION', message: expect.stringContaining('not a regular file') } });
    // cli verify used to hang on a pipe, copying it.
    const started = Date.now();
    expect(await verifyCaseFile(fifo)).toMatchObject({ exitCode: 3, summary: expect.stringContaining('not a regular file') });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await rc.raw('case:open', { path: '/dev/null' })).toMatchObject({ ok: false, error: { code: 'VALIDATION', message: expect.stringContaining('not a regular file') } });
  });

  it('a file whose user_version was lowered is refused, unchanged and with nothing left beside it', async () => {
    rc.session.close();
    const lowered = join(rc.dir, 'lowered.case.sqlite');
    copyFileSync(rc.casePath, lowered);
    const raw = new Database(lowered);
    raw.pragma('user_version = 100');
    raw.close();
    const before = bytes(lowered);
    const env = await rc.raw('case:open', { path: lowered });
    expect(env).toMatchObject({ ok: false, error: { code: 'VALIDATION', message: expect.stringMatching(/says it is at schema 100, but its tables are not .*it was left unchanged/) } });
    expect(bytes(lowered)).toBe(before);
    expect(beside(lowered)).toEqual(['lowered.case.sqlite']);
  });

  it("another application's SQLite file is refused, and no -wal/-shm is left beside it", async () => {
    const other = join(rc.dir, 'browser-history.sqlite');
    const raw = new Database(other);
    raw.pragma('journal_mode = WAL');
    raw.exec("CREATE TABLE visits (url TEXT); INSERT INTO visits VALUES ('https://example.org')");
    raw.close();
    const before = bytes(other);
    expect(await rc.raw('case:open', { path: other })).toMatchObject({ ok: false, error: { code: 'VALIDATION', message: expect.stringContaining('not an evidence-review case file') } });
    expect(bytes(other)).toBe(before);
    expect(beside(other)).toEqual(['browser-history.sqlite']);
  });

  it('a damaged recent-cases.json does not break case:recent', async () => {
    writeFileSync(join(rc.dir, 'user', 'recent-cases.json'), JSON.stringify([{ path: 1 }, 'x', null, { path: rc.casePath, name: 'Test case', openedAt: '2026-12-01T00:00:00Z' }]));
    expect(await rc.call('case:recent', {})).toEqual({ cases: [{ path: rc.casePath, name: 'Test case', openedAt: '2026-12-01T00:00:00Z' }] });
    writeFileSync(join(rc.dir, 'user', 'recent-cases.json'), '{"not": "a list"');
    expect(await rc.call('case:recent', {})).toEqual({ cases: [] });
  });
});

describe('creating a case', () => {
  const create = (path: string) => rc.raw('case:create', { path, name: 'New', admin: { actorId: 'lena', displayName: 'Lena', passphrase: TEST_PASSPHRASE } });

  it("never writes into an existing file: a trailing space, another app's database, /dev/null", async () => {
    const other = join(rc.dir, 'app.sqlite');
    const raw = new Database(other);
    raw.exec('CREATE TABLE prefs (k TEXT, v TEXT)');
    raw.close();
    const before = bytes(other);
    expect(await create(`${other} `)).toMatchObject({ ok: false, error: { code: 'VALIDATION', issues: [{ path: ['path'], message: expect.stringContaining('ends with a space') }] } });
    expect(await create(other)).toMatchObject({ ok: false, error: { code: 'CONFLICT', message: expect.stringContaining('already exists') } });
    expect(bytes(other)).toBe(before);
    expect(existsSync(`${other} `)).toBe(false);
    expect(await create('/dev/null')).toMatchObject({ ok: false, error: { code: 'CONFLICT', message: expect.stringContaining('not a regular file') } });
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('names a missing folder, and leaves nothing when it fails', async () => {
    const missing = join(rc.dir, 'no-such-folder', 'x.case.sqlite');
    expect(await create(missing)).toMatchObject({ ok: false, error: { code: 'VALIDATION', message: expect.stringContaining(`the folder ${join(rc.dir, 'no-such-folder')} does not exist`) } });
    expect(existsSync(join(rc.dir, 'no-such-folder'))).toBe(false);
  });

  it('creates case files readable by their owner only (they hold evidence)', async () => {
    expect(statSync(rc.casePath).mode & 0o777).toBe(0o600);
    const fresh = join(rc.dir, 'fresh.case.sqlite');
    expect(await create(fresh)).toMatchObject({ ok: true });
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
    for (const f of beside(fresh)) expect(statSync(join(rc.dir, f)).mode & 0o077, f).toBe(0);
  });
});

describe('a full disk', () => {
  it('answers STORAGE with what to do, and nothing is written', async () => {
    rc.as('alice');
    const db = rc.session.db();
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);
    // Claims until the file may grow no more: the first refusal must be STORAGE, and write nothing.
    let before = tableDigest(rc.casePath);
    let env = await rc.raw('claim:create', { statement: 'x'.repeat(1900), tenant: 'acme', classification: 'internal' });
    for (let i = 0; env.ok && i < 200; i++) {
      before = tableDigest(rc.casePath);
      env = await rc.raw('claim:create', { statement: `${i} ${'x'.repeat(1900)}`, tenant: 'acme', classification: 'internal' });
    }
    db.pragma('max_page_count = 1073741823');
    expect(env).toMatchObject({ ok: false, error: { code: 'STORAGE', message: expect.stringContaining('the disk holding the case file is full; free some space and try again; nothing was written') } });
    expect(tableDigest(rc.casePath)).toBe(before);
    expect((await rc.call('audit:verify', { full: true })).ok).toBe(true);
  });
});

const asNobody = process.getuid?.() === 0 && spawnSync('runuser', ['--help']).status === 0;
describe.skipIf(!asNobody || IN_MUTATION_RUN)('read-only files and folders (run as an unprivileged user: root may write anything)', () => {
  const openAs = (path: string) => {
    const r = spawnSync('runuser', ['-u', 'nobody', '--', join(process.cwd(), 'node_modules/.bin/tsx'), 'electron/testing/openAsProcess.ts', path, join(rc.dir, 'nobody')], {
      encoding: 'utf8',
      env: { ...process.env, HOME: rc.dir },
    });
    return JSON.parse(r.stdout.trim().split('\n').pop() ?? 'null') as { ok: boolean; error?: { code: string; message: string } };
  };

  it('a read-only case file, and a case file in a read-only folder, are refused with what to do', () => {
    rc.session.close();
    chmodSync(rc.dir, 0o777);
    mkdirSync(join(rc.dir, 'nobody'), { mode: 0o777 });
    chmodSync(join(rc.dir, 'nobody'), 0o777);
    const readOnlyFile = join(rc.dir, 'ro.case.sqlite');
    copyFileSync(rc.casePath, readOnlyFile);
    chmodSync(readOnlyFile, 0o644);
    expect(openAs(readOnlyFile)).toMatchObject({ ok: false, error: { code: 'VALIDATION', message: expect.stringContaining('is read-only; make it writable') } });
    const folder = join(rc.dir, 'ro-folder');
    mkdirSync(folder, { mode: 0o755 });
    chmodSync(folder, 0o755);
    const inReadOnlyFolder = join(folder, 'case.case.sqlite');
    copyFileSync(rc.casePath, inReadOnlyFolder);
    chmodSync(inReadOnlyFolder, 0o666);
    expect(openAs(inReadOnlyFolder)).toMatchObject({ ok: false, error: { code: 'VALIDATION', message: expect.stringContaining('is read-only, and SQLite keeps its journal next to the case file') } });
  }, 60_000);
});
