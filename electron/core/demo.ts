import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { dispatch } from './dispatch';
import { handlers } from './handlers';
import { Session } from './session';
import { removeUnfinishedCase } from './store/caseFile';

/**
 * The demo seed is a script of ordinary channel calls, each made as a named reviewer. Building the
 * demo runs them through dispatch, so the demo case is exactly what a user's actions would write,
 * with every receipt, and a seed that breaks the contract fails loudly.
 */
const DemoSeed = z.object({
  case: z.object({
    name: z.string(),
    description: z.string(),
    admin: z.object({ actorId: z.string(), displayName: z.string(), passphrase: z.string() }),
    homeScope: z.unknown().optional(),
  }),
  steps: z.array(
    z.object({
      /** Names the step so later requests can use its answer: `{ "$from": "label.field" }`. */
      label: z.string().optional(),
      as: z.string(),
      channel: z.string(),
      request: z.record(z.string(), z.unknown()),
      note: z.string().optional(),
    }),
  ),
});
export type DemoSeed = z.infer<typeof DemoSeed>;

export const DEMO_FILE_NAME = 'demo-account-takeover.case.sqlite';

/**
 * Replaces `{ "$from": "label.field" }` with that field of a labelled step's answer, so the seed
 * can approve the decision it proposed (the fingerprint is only known once it exists).
 */
function resolveRefs(value: unknown, answers: Map<string, unknown>, where: string): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, answers, where));
  if (value === null || typeof value !== 'object') return value;
  const ref = (value as { $from?: unknown }).$from;
  if (typeof ref === 'string') {
    const [label, ...path] = ref.split('.');
    let found: unknown = answers.get(label!);
    for (const key of path) found = (found as Record<string, unknown> | undefined)?.[key];
    if (found === undefined) throw new Error(`demo seed ${where}: $from ${ref} names no earlier answer`);
    return found;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, answers, where)]));
}

export function readDemoSeed(seedPath: string): DemoSeed {
  return DemoSeed.parse(JSON.parse(readFileSync(seedPath, 'utf8')));
}

/** Builds the demo case at `target` (atomically: a half-built file never appears there). */
export async function buildDemoCase(seedPath: string, target: string, userDataDir: string): Promise<void> {
  const seed = readDemoSeed(seedPath);
  mkdirSync(dirname(target), { recursive: true });
  const building = `${target}.building`;
  // What an earlier build cut off left behind.
  removeUnfinishedCase(building);
  // The build directory is thrown away; the demo reviewers' signing keys must outlive it, in the
  // user's own key folder, or the demo case could be read but never worked on.
  const session = new Session({ userDataDir: join(userDataDir, '.demo-build'), keysDir: join(userDataDir, 'keys'), log: () => {} });
  // Each demo reviewer acts in their own seat, unlocked once with the passphrase the seed gives
  // them (the README lists them), as each would at their own window.
  const passphrases = new Map([[seed.case.admin.actorId, seed.case.admin.passphrase]]);
  const seatOf = async (actorId: string, where: string) => {
    const seat = session.seat(`demo:${actorId}`);
    if (seat.unlockedActor()) return seat;
    const unlocked = await dispatch(handlers, seat, 'actor:unlock', { actorId, passphrase: passphrases.get(actorId) ?? '' });
    if (!unlocked.ok) throw new Error(`demo seed ${where}: ${unlocked.error.message}`);
    return seat;
  };
  try {
    const created = await dispatch(handlers, session.seat(`demo:${seed.case.admin.actorId}`), 'case:create', { path: building, ...seed.case });
    if (!created.ok) throw new Error(`demo seed: case:create failed: ${created.error.message}`);
    const answers = new Map<string, unknown>();
    for (const [i, step] of seed.steps.entries()) {
      const seat = await seatOf(step.as, `step ${i}`);
      const request = resolveRefs(step.request, answers, `step ${i}`);
      if (step.channel === 'actor:create') {
        const r = request as { actorId: string; passphrase: string };
        passphrases.set(r.actorId, r.passphrase);
      }
      const result = await dispatch(handlers, seat, step.channel, request);
      if (!result.ok) throw new Error(`demo seed step ${i} (${step.channel}): ${result.error.message}`);
      if (step.label) answers.set(step.label, result.value);
    }
    session.db().pragma('wal_checkpoint(TRUNCATE)');
    session.close();
    renameSync(building, target);
  } finally {
    session.close();
    rmSync(join(userDataDir, '.demo-build'), { recursive: true, force: true });
    removeUnfinishedCase(building);
  }
}

/** First run: puts the demo case into the user's case folder; later runs leave it alone. */
export async function ensureDemoCase(seedPath: string, userDataDir: string): Promise<string> {
  const target = join(userDataDir, 'cases', DEMO_FILE_NAME);
  if (!existsSync(target)) await buildDemoCase(seedPath, target, userDataDir);
  return target;
}
