import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { dispatch } from './dispatch';
import { handlers } from './handlers';
import { Session } from './session';

/**
 * The demo seed is a script of ordinary channel calls, each made as a named reviewer. Building the
 * demo runs them through dispatch, so the demo case is exactly what a user's actions would write,
 * with every receipt, and a seed that breaks the contract fails loudly.
 */
const DemoSeed = z.object({
  case: z.object({
    name: z.string(),
    description: z.string(),
    admin: z.object({ actorId: z.string(), displayName: z.string() }),
  }),
  steps: z.array(
    z.object({
      as: z.string(),
      channel: z.string(),
      request: z.record(z.string(), z.unknown()),
      note: z.string().optional(),
    }),
  ),
});
export type DemoSeed = z.infer<typeof DemoSeed>;

export const DEMO_FILE_NAME = 'demo-account-takeover.case.sqlite';

export function readDemoSeed(seedPath: string): DemoSeed {
  return DemoSeed.parse(JSON.parse(readFileSync(seedPath, 'utf8')));
}

/** Builds the demo case at `target` (atomically: a half-built file never appears there). */
export async function buildDemoCase(seedPath: string, target: string, userDataDir: string): Promise<void> {
  const seed = readDemoSeed(seedPath);
  mkdirSync(dirname(target), { recursive: true });
  const building = `${target}.building`;
  for (const f of [building, `${building}-wal`, `${building}-shm`]) rmSync(f, { force: true });
  // The build directory is thrown away; the demo reviewers' signing keys must outlive it, in the
  // user's own key folder, or the demo case could be read but never worked on.
  const session = new Session({ userDataDir: join(userDataDir, '.demo-build'), keysDir: join(userDataDir, 'keys'), log: () => {} });
  try {
    const created = await dispatch(handlers, session, 'case:create', { path: building, ...seed.case });
    if (!created.ok) throw new Error(`demo seed: case:create failed: ${created.error.message}`);
    for (const [i, step] of seed.steps.entries()) {
      if (session.actor().actorId !== step.as) {
        const sel = await dispatch(handlers, session, 'actor:select', { actorId: step.as });
        if (!sel.ok) throw new Error(`demo seed step ${i}: ${sel.error.message}`);
      }
      const result = await dispatch(handlers, session, step.channel, step.request);
      if (!result.ok) throw new Error(`demo seed step ${i} (${step.channel}): ${result.error.message}`);
    }
    session.db().pragma('wal_checkpoint(TRUNCATE)');
    session.close();
    renameSync(building, target);
  } finally {
    session.close();
    rmSync(join(userDataDir, '.demo-build'), { recursive: true, force: true });
    for (const f of [building, `${building}-wal`, `${building}-shm`]) rmSync(f, { force: true });
  }
}

/** First run: puts the demo case into the user's case folder; later runs leave it alone. */
export async function ensureDemoCase(seedPath: string, userDataDir: string): Promise<string> {
  const target = join(userDataDir, 'cases', DEMO_FILE_NAME);
  if (!existsSync(target)) await buildDemoCase(seedPath, target, userDataDir);
  return target;
}
