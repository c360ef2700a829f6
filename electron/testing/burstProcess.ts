import { dispatch } from '../core/dispatch';
import { handlers } from '../core/handlers';
import { ingestRequest } from './fixtures/evidence';
import { TEST_PASSPHRASE, testSession } from './testCase';

/**
 * Test helper (not a test): writes to a case file until killed, printing `ack <what>` after each
 * write has committed (the answer came back ok), for the fault suite's SIGKILL scenarios.
 *
 *   tsx electron/testing/burstProcess.ts <case-file> <user-data> ingest|review <prefix> [<revisionId to bind>]
 *
 * ingest: evidence:ingest as admin, one item after another (an import's write pattern).
 * review: as alice, claim:create then claim:bind of the given revision, again and again.
 */
async function main(): Promise<void> {
  const [casePath, userData, mode, prefix, bindTo] = process.argv.slice(2);
  const seat = testSession({ userDataDir: userData! }).seat('burst');
  seat.open(casePath!);
  seat.unlock(mode === 'ingest' ? 'admin' : 'alice', TEST_PASSPHRASE);
  const say = (line: string) => process.stdout.write(`${line}\n`);
  for (let i = 0; ; i++) {
    if (mode === 'ingest') {
      const id = `${prefix}-${i}`;
      const env = await dispatch(handlers, seat, 'evidence:ingest', ingestRequest(id));
      say(env.ok ? `ack revision ${id}@1` : `error ${env.error.code} ${env.error.message}`);
    } else {
      const claimId = `${prefix}-${i}`;
      const made = await dispatch(handlers, seat, 'claim:create', { claimId, statement: `burst claim ${i}`, tenant: 'acme', classification: 'internal' });
      say(made.ok ? `ack claim ${claimId}` : `error ${made.error.code} ${made.error.message}`);
      const bound = await dispatch(handlers, seat, 'claim:bind', { claimId, revisionId: bindTo!, relation: 'FULL_SUPPORT', role: 'REQUIRED', rationale: 'burst' });
      say(bound.ok ? `ack binding ${claimId} ${bindTo}` : `error ${bound.error.code} ${bound.error.message}`);
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`burst: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
