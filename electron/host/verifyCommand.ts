import { parseArgs } from 'node:util';
import { parseHead } from '../core/audit/verify';
import { verifyCaseFile } from '../core/audit/verifyFile';
import { marksOf } from '../core/audit/verifyMarks';
import { defaultUserDataDir } from '../core/paths';

export const VERIFY_USAGE = `verify <case-file> [--routine] [--head erwb-head:<seq>:<hash>] [--signatures every|run-ends]
  Verifies a case file read-only: hash chain, reviewer signatures, state fingerprints; with --head
  also that the chain reaches that head unchanged (a head printed earlier by audit:head).
  Every verification that succeeds records on this machine how far it reached. --routine resumes
  from there (if the receipt there is unchanged): only the receipts since then and their states
  are checked, not rows written before it; without --routine the whole chain and every row are.
  Prints the result as JSON on stdout and one line on stderr. Exit 0 verified, 1 broken, 2 bad
  usage, 3 not verifiable (not a case file, newer schema).`;

/** `cli verify …`: parses its arguments, verifies, prints, and answers the exit code. */
export async function runVerifyCommand(
  args: string[],
  out: { stdout: (s: string) => void; stderr: (s: string) => void; userDataDir?: string },
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { head: { type: 'string' }, signatures: { type: 'string' }, routine: { type: 'boolean' } } });
  } catch (err) {
    out.stderr(`cli verify: ${(err as Error).message}\n${VERIFY_USAGE}\n`);
    return 2;
  }
  const [path, ...extra] = parsed.positionals;
  const { head, signatures, routine } = parsed.values;
  if (!path || extra.length) {
    out.stderr(`${VERIFY_USAGE}\n`);
    return 2;
  }
  if (head !== undefined && !parseHead(head)) {
    out.stderr(`cli verify: --head ${head} is not of the form erwb-head:<seq>:<64 hex digits> (as printed by audit:head)\n`);
    return 2;
  }
  if (signatures !== undefined && signatures !== 'every' && signatures !== 'run-ends') {
    out.stderr(`cli verify: --signatures must be every or run-ends, not ${signatures}\n`);
    return 2;
  }
  const marks = marksOf(out.userDataDir ?? defaultUserDataDir());
  const result = await verifyCaseFile(path, { expectedHead: head, signatures, marks, routine: routine ?? false });
  out.stdout(`${JSON.stringify({ ok: result.exitCode === 0, schemaVersion: result.schemaVersion, notes: result.notes, verification: result.verification }, null, 2)}\n`);
  for (const note of result.notes) out.stderr(`note: ${note}\n`);
  out.stderr(`${result.summary}\n`);
  return result.exitCode;
}
