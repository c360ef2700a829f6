import { dispatch } from '../core/dispatch';
import { handlers } from '../core/handlers';
import { TEST_PASSPHRASE, testSession } from './testCase';

/**
 * Test helper (not a test): another process writing one case file, as a second window, the CLI or
 * another workbench would. Makes `count` claims as `actor` as fast as it can and prints one line
 * per answer: `ok <claimId>` or `error <code> <message>`; then `done`.
 *
 *   tsx electron/testing/writerProcess.ts <case-file> <user-data> <actor> <prefix> <count>
 */
async function main(): Promise<void> {
  const [casePath, userData, actor, prefix, count] = process.argv.slice(2);
  const seat = testSession({ userDataDir: userData! }).seat('writer');
  seat.open(casePath!);
  seat.unlock(actor!, TEST_PASSPHRASE);
  for (let i = 0; i < Number(count); i++) {
    const claimId = `${prefix}-${i}`;
    const env = await dispatch(handlers, seat, 'claim:create', { claimId, statement: `written by ${prefix} (${i})`, tenant: 'acme', classification: 'internal' });
    process.stdout.write(env.ok ? `ok ${claimId}\n` : `error ${env.error.code} ${env.error.message}\n`);
  }
  seat.close();
  process.stdout.write('done\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`writer: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
