import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureDemoCase } from '../core/demo';
import { handlers } from '../core/handlers';
import { defaultUserDataDir } from '../core/paths';
import { Session } from '../core/session';
import { startHost } from './server';
import { startWorkerLoop } from '../core/worker/loop';

/**
 * Browser mode: the workbench's UI and handlers on 127.0.0.1, for machines where the Electron
 * binary is not installed (air-gapped laptops, CI) and for the e2e suite.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      case: { type: 'string' },
      'user-data': { type: 'string' },
      port: { type: 'string' },
      reason: { type: 'string' },
    },
  });
  const root = resolve(import.meta.dirname, '..', '..');
  const userDataDir = values['user-data'] ?? defaultUserDataDir();
  const session = new Session({ userDataDir });
  const casePath = values.case ?? (await ensureDemoCase(join(root, 'resources', 'demo-case.json'), userDataDir));
  session.open(casePath);
  const rendererDir = join(root, 'out', 'renderer');
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new Error(`no renderer build at ${rendererDir}; run "npm run build" first`);
  }
  const host = await startHost({ session, handlers, rendererDir, port: values.port ? Number(values.port) : 0 });
  // Revocation convergence runs in the background of this process (see worker/loop.ts for why).
  const worker = startWorkerLoop(session);
  const why = values.reason ? `${values.reason}; ` : '';
  process.stdout.write(
    `Evidence Review Workbench: ${why}serving the workbench in browser mode on 127.0.0.1 only.\n` +
      `Open ${host.url}\n` +
      `Case: ${casePath}\n`,
  );
  const stop = () => {
    worker.stop();
    session.close();
    void host.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`workbench: ${(err as Error).message}\n`);
  process.exit(1);
});
