import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '../../../shared/ipc/channels/interchange';
import { validContext } from '../../testing/fixtures/evidence';
import { createTestCase, TEST_PASSPHRASE, type TestCase } from '../../testing/testCase';
import { ensureDemoCase } from '../demo';
import { dispatch } from '../dispatch';
import { handlers } from '../handlers';
import { Session } from '../session';
import { SHARED_DATA } from '../../testing/sharedData';

/** `npm run cli -- import|export`: the bundle channels from a terminal, as the unlocked reviewer. */
const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');
const SEED = resolve(import.meta.dirname, '..', '..', '..', 'resources', 'demo-case.json');
let dir: string;
let target: TestCase;
let out: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'erwb-bundle-cli-'));
  const demo = new Session({ userDataDir: dir, log: () => {} }).seat();
  demo.open(await ensureDemoCase(SEED, dir));
  demo.unlock('lena.k', 'demo-lena-2231');
  out = join(dir, 'demo.ndjson');
  const exported = await dispatch(handlers, demo, 'bundle:export', { path: out });
  expect(exported.ok).toBe(true);
  demo.close();
  target = await createTestCase({ homeScope: { tenants: ['acme'], maxClassification: 'confidential' } });
  await target.call('bundle:import', { path: out });
}, 60_000);
afterAll(() => {
  target.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const records = (path: string) => readFileSync(path, 'utf8').trim().split('\n').slice(1);

describe('cli import / export', () => {
  it('the CLI imports and exports bundles as the unlocked reviewer (npm run cli -- import|export)', () => {
    const secret = join(dir, 'admin.pass');
    writeFileSync(secret, TEST_PASSPHRASE);
    const cli = (...args: string[]) => {
      const r = spawnSync(TSX, ['electron/host/cli.ts', ...args, '--as', 'admin', '--passphrase-file', secret], {
        env: { ...process.env, ERWB_USER_DATA: join(target.dir, 'user') },
        encoding: 'utf8',
      });
      return { code: r.status, err: r.stderr, out: JSON.parse(r.stdout) as { ok: boolean; value?: ImportReport & { records: number }; error?: { message: string } } };
    };
    const again = cli('import', target.casePath, out);
    expect(again.code).toBe(0);
    expect(again.out.value?.created).toEqual({ sources: 0, evidence: 0, claims: 0, bindings: 0, prov: 0 });
    const exported = cli('export', target.casePath, join(dir, 'via-cli.ndjson'));
    expect(exported.code).toBe(0);
    expect(records(join(dir, 'via-cli.ndjson'))).toEqual(records(out));
    const refused = cli('import', target.casePath, join(dir, 'no-such.ndjson'));
    expect(refused.code).toBe(1);
    expect(refused.out.error?.message).toMatch(/no-such\.ndjson: path: no such file; nothing was imported/);

    // A larger file: the CLI follows the job and says how far it is on stderr.
    const big = join(dir, 'big.ndjson');
    const header = readFileSync(out, 'utf8').split('\n')[0]!;
    const lines = Array.from({ length: 4_000 }, (_, i) =>
      JSON.stringify({ type: 'evidence', evidenceId: `ev-cli-${i}`, revision: 1, title: `event ${i}`, kind: 'telemetry', content: `process_start host=HOST-FS01 pid=${i}`, context: validContext({ sourceRef: `edr:cli:${i}` }) }),
    );
    writeFileSync(big, `${[header, ...lines].join('\n')}\n`);
    const followed = cli('import', target.casePath, big);
    expect(followed.code).toBe(0);
    expect(followed.out.value?.created.evidence).toBe(4_000);
    expect(followed.err).toMatch(/import: applying [\d,]+ of 4,000 records, [\d,]+ records\/s, \d+%/);

    // STIX in (told by its content) and out.
    const stix = cli('import', target.casePath, join(SHARED_DATA, 'stix2.1-examples', 'campaign-v-actors.json'));
    expect(stix.code, JSON.stringify(stix.out)).toBe(0);
    expect((stix.out.value as unknown as { stix: { objects: number } }).stix.objects).toBeGreaterThan(0);
    const stixOut = join(dir, 'via-cli.stix.json');
    expect(cli('export', target.casePath, stixOut, '--format', 'stix').code).toBe(0);
    expect(JSON.parse(readFileSync(stixOut, 'utf8'))).toMatchObject({ type: 'bundle' });
  }, 120_000);

});
