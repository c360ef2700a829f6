import { resolve } from 'node:path';
import { dispatch } from '../core/dispatch';
import { drillSummaryLine } from '../core/drill/drill';
import { handlers } from '../core/handlers';
import { defaultUserDataDir } from '../core/paths';
import { readPassphrase, type PassphraseSource } from '../core/passphraseInput';
import { Session, type Seat } from '../core/session';
import type { ImportProgress } from '../../shared/ipc/channels/importJobs';
import { CHANNELS } from '../../shared/ipc/contract';
import type { Envelope } from '../../shared/ipc/envelope';
import { runVerifyCommand, VERIFY_USAGE } from './verifyCommand';

const USAGE = `usage:
  npm run cli -- call <case-file> <channel> [<json-request>] --as <actor-id>
        [--passphrase-fd <n> | --passphrase-file <path>]
  npm run cli -- import <case-file> <bundle.ndjson|bundle.json|stix.json|prov.json> --as <actor-id> [--max-bytes <n>]
        [--format auto|bundle|stix|prov] [--tenant <t>] [--classification <c>]
  npm run cli -- export <case-file> <new-file> --as <actor-id> [--format ndjson|json|stix]
  npm run cli -- report <case-file> <new-file> --as <actor-id> [--format html|markdown]
  npm run cli -- ${VERIFY_USAGE}
  npm run cli -- drill <case-file> --as <actor-id> [--targets <n>] [--claims <id,id,...>]
  npm run cli -- channels

Every channel of the workbench is callable; the answer is the JSON envelope
{ "ok": true, "value": ... } or { "ok": false, "error": { "code", "message", "issues" } }.
Every call acts as one reviewer, who must unlock their key: the passphrase is read from the
file descriptor or file given, else from ERWB_PASSPHRASE, else asked for on the terminal.
Without --as only channels that need no reviewer answer (case:info, actor:list).
Exit code 0 on ok, 1 on an error envelope, 2 on bad usage. import prints its progress on stderr
(records, records/s, percent); Ctrl-C cancels it, and nothing is written. drill runs the
propagation drill (drill:run) on a temporary copy of the case, never the case itself, prints
its report and a one-line verdict on stderr, and exits 1 when the verdict fails.`;

function takeFlag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const value = args[i + 1];
  args.splice(i, 2);
  return value;
}

async function withCase(
  path: string,
  actor: string | undefined,
  secret: PassphraseSource,
  run: (s: Seat) => Promise<unknown>,
): Promise<number> {
  const session = new Session({ userDataDir: defaultUserDataDir(), log: (l) => process.stderr.write(`${l}\n`) });
  const seat = session.seat('cli');
  const opened = await dispatch(handlers, seat, 'case:open', { path });
  if (!opened.ok) {
    process.stdout.write(`${JSON.stringify(opened, null, 2)}\n`);
    return 1;
  }
  try {
    if (actor) {
      const passphrase = await readPassphrase(actor, secret);
      const sel = await dispatch(handlers, seat, 'actor:unlock', { actorId: actor, passphrase });
      if (!sel.ok) {
        process.stdout.write(`${JSON.stringify(sel, null, 2)}\n`);
        return 1;
      }
    }
    const envelope = (await run(seat)) as { ok: boolean };
    process.stdout.write(`${JSON.stringify(envelope, null, 2)}\n`);
    return envelope.ok ? 0 : 1;
  } finally {
    session.close();
  }
}

/**
 * import: the same job the window runs (import:start), followed on stderr; its answer is the
 * import's report, or the reason nothing was imported. Ctrl-C cancels the job (rolled back).
 */
async function importWithProgress(seat: Seat, request: unknown): Promise<Envelope<unknown>> {
  const started = await dispatch(handlers, seat, 'import:start', request);
  if (!started.ok) return started;
  const { jobId } = started.value as ImportProgress;
  const cancel = () => void dispatch(handlers, seat, 'import:cancel', { jobId });
  process.once('SIGINT', cancel);
  try {
    for (;;) {
      await new Promise((r) => setTimeout(r, 500));
      const polled = await dispatch(handlers, seat, 'import:progress', { jobId });
      if (!polled.ok) return polled;
      const p = polled.value as ImportProgress;
      if (p.phase === 'done') return { ok: true, value: p.report };
      if (p.phase === 'failed' || p.phase === 'cancelled') return { ok: false, error: p.error! };
      const figures = p.total === null ? `${p.bytesRead.toLocaleString('en')} bytes read` : `${p.done.toLocaleString('en')} of ${p.total.toLocaleString('en')} records`;
      process.stderr.write(`import: ${p.phase} ${figures}${p.recordsPerSecond === null ? '' : `, ${p.recordsPerSecond.toLocaleString('en')} records/s`}, ${p.percent}%\n`);
    }
  } finally {
    process.off('SIGINT', cancel);
  }
}

export async function cli(argv: string[]): Promise<number> {
  const args = [...argv];
  const actor = takeFlag(args, '--as');
  const secret = { fd: takeFlag(args, '--passphrase-fd'), file: takeFlag(args, '--passphrase-file') };
  const [command, ...rest] = args;
  switch (command) {
    case 'channels':
      process.stdout.write(`${CHANNELS.join('\n')}\n`);
      return 0;
    case 'call': {
      const [path, channel, json] = rest;
      if (!path || !channel) break;
      let request: unknown = {};
      if (json !== undefined) {
        try {
          request = JSON.parse(json);
        } catch (err) {
          process.stderr.write(`cli call: the request is not JSON (${(err as Error).message})\n`);
          return 2;
        }
      }
      return withCase(path, actor, secret, (s) => dispatch(handlers, s, channel, request));
    }
    case 'import':
    case 'export':
    case 'report': {
      // Sugar for bundle:import, bundle:export and report:write with paths taken relative to where you are.
      const maxBytes = takeFlag(rest, '--max-bytes');
      const format = takeFlag(rest, '--format');
      const tenant = takeFlag(rest, '--tenant');
      const classification = takeFlag(rest, '--classification');
      const [path, file] = rest;
      if (!path || !file || rest.length > 2) break;
      if (command === 'import') {
        const request = {
          source: { path: resolve(file) },
          ...(format !== undefined ? { format } : {}),
          ...(maxBytes !== undefined ? { maxBytes: Number(maxBytes) } : {}),
          ...(tenant !== undefined ? { tenant } : {}),
          ...(classification !== undefined ? { classification } : {}),
        };
        return withCase(path, actor, secret, (s) => importWithProgress(s, request));
      }
      if (command === 'export' && format === 'stix') return withCase(path, actor, secret, (s) => dispatch(handlers, s, 'stix:export', { path: resolve(file) }));
      const request = { path: resolve(file), ...(format !== undefined ? { format } : {}) };
      return withCase(path, actor, secret, (s) => dispatch(handlers, s, command === 'report' ? 'report:write' : 'bundle:export', request));
    }
    case 'drill': {
      const targets = takeFlag(rest, '--targets');
      const claims = takeFlag(rest, '--claims');
      const [path] = rest;
      if (!path || rest.length > 1) break;
      const request = { ...(targets !== undefined ? { targets: Number(targets) } : {}), ...(claims !== undefined ? { claimIds: claims.split(',') } : {}) };
      let failed = false;
      const code = await withCase(path, actor, secret, async (s) => {
        const answer = await dispatch(handlers, s, 'drill:run', request);
        if (answer.ok) {
          const report = answer.value as Parameters<typeof drillSummaryLine>[0];
          failed = !report.verdict.passed;
          process.stderr.write(`${drillSummaryLine(report)}\n`);
        }
        return answer;
      });
      // A drill that ran but failed its verdict is a failure to a script, not a success.
      return code === 0 && failed ? 1 : code;
    }
    case 'verify':
      // Read-only and without a session: verifying must work on a machine with no keys and
      // must never migrate or otherwise touch the file it judges.
      return runVerifyCommand(rest, {
        stdout: (t) => process.stdout.write(t),
        stderr: (t) => process.stderr.write(t),
      });
    default:
      break;
  }
  process.stderr.write(`${USAGE}\n`);
  return 2;
}

cli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`cli: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
