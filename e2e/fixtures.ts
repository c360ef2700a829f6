import { test as base, expect } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureDemoCase } from '../electron/core/demo';
import { handlers } from '../electron/core/handlers';
import { Session } from '../electron/core/session';
import { startHost, type RunningHost } from '../electron/host/server';
import { WorkbenchPage } from './pages/WorkbenchPage';

const ROOT = resolve(import.meta.dirname, '..');

export interface WorkbenchFixture {
  host: RunningHost;
  casePath: string;
  userDataDir: string;
}

/**
 * A fresh copy of the demo case and a loopback host over the real handler table for each test,
 * so tests never see each other's writes.
 */
export const test = base.extend<{ workbench: WorkbenchFixture; app: WorkbenchPage }>({
  workbench: async ({}, use) => {
    const userDataDir = mkdtempSync(join(tmpdir(), 'erwb-e2e-'));
    const casePath = await ensureDemoCase(join(ROOT, 'resources', 'demo-case.json'), userDataDir);
    const session = new Session({ userDataDir, log: () => {} });
    session.open(casePath);
    const host = await startHost({ session, handlers, rendererDir: join(ROOT, 'out', 'renderer') });
    await use({ host, casePath, userDataDir });
    await host.close();
    session.close();
    rmSync(userDataDir, { recursive: true, force: true });
  },
  app: async ({ page, workbench }, use) => {
    const app = new WorkbenchPage(page, workbench.host.url);
    await app.open();
    await use(app);
  },
});

export { expect };
