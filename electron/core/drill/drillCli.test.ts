import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DrillReport } from '../../../shared/ipc/channels/drill';
import { createReviewCase, type ReviewCase } from '../../testing/reviewCase';
import { TEST_PASSPHRASE } from '../../testing/testCase';

/**
 * `npm run cli -- drill <case-file> --as <actor>`: the same drill:run, from the command line, in a
 * process of its own (so outside the mutation suite), on a case file nobody else has open.
 */
let rc: ReviewCase;
beforeAll(async () => {
  rc = await createReviewCase();
  await rc.evidence('ev-a');
  await rc.evidence('ev-b');
  await rc.claim('cl-1');
  await rc.bind('cl-1', 'ev-a@1');
  await rc.claim('cl-2');
  await rc.bind('cl-2', 'ev-b@1');
  rc.session.close();
});
afterAll(() => rc.cleanup());

const cli = (...args: string[]) =>
  spawnSync(join(process.cwd(), 'node_modules', '.bin', 'tsx'), ['electron/host/cli.ts', ...args], {
    env: { ...process.env, ERWB_USER_DATA: join(rc.dir, 'user'), ERWB_PASSPHRASE: TEST_PASSPHRASE },
    encoding: 'utf8',
  });

describe('cli drill', () => {
  it('prints the report and a one-line verdict, and leaves the case file as it was', () => {
    const before = createHash('sha256').update(readFileSync(rc.casePath)).digest('hex');
    const run = cli('drill', rc.casePath, '--as', 'bob', '--targets', '2');
    expect(run.status, run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout) as { ok: true; value: DrillReport };
    expect(answer.ok).toBe(true);
    expect(answer.value.verdict.passed).toBe(true);
    expect(answer.value.errorPropagation.targets).toEqual(['cl-1', 'cl-2']);
    expect(run.stderr).toMatch(/^drill: passed\. ErrorPropagationRate 2\/2 \(adopted 0\); injection quarantined, propagation 0; false consensus 0\/2/m);
    expect(createHash('sha256').update(readFileSync(rc.casePath)).digest('hex')).toBe(before);
  }, 60_000);

  it('says how to call it when the case file is missing', () => {
    const run = cli('drill');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('npm run cli -- drill <case-file> --as <actor-id>');
  }, 60_000);
});
