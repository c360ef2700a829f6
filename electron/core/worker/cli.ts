import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultUserDataDir } from '../paths';
import { readPassphrase } from '../passphraseInput';
import { Session } from '../session';
import { claimJobToSign, openJobCount, processJob, type WorkerOptions } from './outbox';

/**
 * The revocation worker as its own process: converges every open outbox job of one case file and
 * exits. Used to converge a case without opening the workbench, and by the crash test, which
 * kills it with SIGKILL at random points. It prints one line per event on stdout:
 *   claimed <jobId> | done <jobId> <converged> | waiting <openJobs> | converged
 *
 *   tsx electron/core/worker/cli.ts <case-file> --as <actor> [--user-data <dir>]
 *     [--passphrase-fd <n> | --passphrase-file <path>] [--lease-ms <ms>] [--fan-out <n>]
 *     [--pause-after-claim-ms <ms>]
 *
 * Its receipts are signed by the reviewer named with --as, whose passphrase is read as the
 * workbench CLI reads it (see passphraseInput.ts).
 *
 * --pause-after-claim-ms holds the lease without working, so a test can kill the worker at the
 * one point where only lease expiry can rescue the job.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'user-data': { type: 'string' },
      as: { type: 'string' },
      'passphrase-fd': { type: 'string' },
      'passphrase-file': { type: 'string' },
      'lease-ms': { type: 'string' },
      'fan-out': { type: 'string' },
      'pause-after-claim-ms': { type: 'string' },
    },
  });
  const [casePath] = positionals;
  if (!casePath || !values.as) {
    process.stderr.write('usage: tsx electron/core/worker/cli.ts <case-file> --as <actor> [--user-data <dir>] [--passphrase-fd <n>] [--lease-ms <ms>] [--fan-out <n>]\n');
    process.exit(2);
  }
  const session = new Session({ userDataDir: values['user-data'] ?? defaultUserDataDir(), log: (l) => process.stderr.write(`${l}\n`) });
  session.open(resolve(casePath));
  const seat = session.seat('worker');
  seat.unlock(values.as, await readPassphrase(values.as, { fd: values['passphrase-fd'], file: values['passphrase-file'] }));
  const opts: WorkerOptions = {
    owner: `cli:${process.pid}:${randomUUID().slice(0, 8)}`,
    ...(values['lease-ms'] ? { leaseMs: Number(values['lease-ms']) } : {}),
    ...(values['fan-out'] ? { fanOut: Number(values['fan-out']) } : {}),
  };
  const pause = Number(values['pause-after-claim-ms'] ?? 0);
  const say = (line: string) => process.stdout.write(`${line}\n`);
  try {
    for (;;) {
      const ctx = seat.context();
      const job = claimJobToSign(ctx, opts);
      if (!job) {
        const open = openJobCount(ctx.db);
        if (open === 0) break;
        // Open jobs under another worker's lease (perhaps a dead one's): wait for it to expire.
        say(`waiting ${open}`);
        await sleep(100);
        continue;
      }
      say(`claimed ${job.job_id}`);
      if (pause > 0) await sleep(pause);
      const outcome = processJob(ctx, job, opts);
      say(outcome.lost ? `lost ${job.job_id}` : `done ${job.job_id} ${outcome.converged}`);
    }
    say('converged');
  } finally {
    session.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`revocation worker: ${(err as Error).message}\n`);
  process.exit(1);
});
