import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReviewCase, type ReviewCase } from '../testing/reviewCase';
import { TEST_PASSPHRASE } from '../testing/testCase';

/**
 * Issue 9.4 from the command line: `cli call --as` needs the reviewer's passphrase too. Apart from
 * identity.test.ts because it starts the CLI as another process (so outside the mutation suite).
 */
let rc: ReviewCase;
beforeEach(async () => {
  rc = await createReviewCase();
});
afterEach(() => rc.cleanup());

describe('the command line', () => {
  it('refuses to act without the passphrase and says where it can come from', () => {
    const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
    const env: NodeJS.ProcessEnv = { ...process.env, ERWB_USER_DATA: join(rc.dir, 'user') };
    delete env.ERWB_PASSPHRASE;
    rc.session.close();
    const run = (extra: NodeJS.ProcessEnv) =>
      spawnSync(tsx, ['electron/host/cli.ts', 'call', rc.casePath, 'claim:list', '{}', '--as', 'bob'], { env: { ...env, ...extra }, encoding: 'utf8' });
    const none = run({});
    expect(none.status).not.toBe(0);
    expect(none.stderr).toContain('acting as bob needs their passphrase: set ERWB_PASSPHRASE, pass --passphrase-fd <n> or --passphrase-file <path>');
    const wrong = run({ ERWB_PASSPHRASE: 'wrong passphrase' });
    expect(wrong.status).toBe(1);
    expect(JSON.parse(wrong.stdout)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', message: 'actor:unlock refused: wrong passphrase for reviewer bob' } });
    const right = run({ ERWB_PASSPHRASE: TEST_PASSPHRASE });
    expect(right.status).toBe(0);
  });
});
