import { dispatch } from '../core/dispatch';
import { handlers } from '../core/handlers';
import { testSession } from './testCase';

/**
 * Test helper (not a test): opens a case file in a process of its own, which the odd-files test
 * runs as an unprivileged user (root may write read-only files). Prints the case:open envelope.
 *
 *   tsx electron/testing/openAsProcess.ts <case-file> <user-data>
 */
async function main(): Promise<void> {
  const [casePath, userData] = process.argv.slice(2);
  const seat = testSession({ userDataDir: userData! }).seat();
  const env = await dispatch(handlers, seat, 'case:open', { path: casePath! });
  process.stdout.write(`${JSON.stringify(env)}\n`);
  seat.close();
}

main().catch((err: unknown) => {
  process.stderr.write(`open: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
