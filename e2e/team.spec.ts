import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { readCaseMeta } from '../electron/core/services/caseMeta';
import { openCaseFile, writeTransaction } from '../electron/core/store/caseFile';
import { noteServer } from '../electron/core/store/replicaRows';
import { publishCase, pushCase } from '../electron/core/team/publish';
import { cloneCase } from '../electron/core/team/replica';
import { initTeamStore } from '../electron/core/team/teamStore';
import { serverLocation } from '../electron/core/team/teamView';
import { startPgCluster, type PgCluster } from '../electron/testing/pgCluster';
import { replicaMachine } from '../electron/testing/replicaMachine';
import { DEMO_PASSPHRASES } from './pages/WorkbenchPage';
import { expect, test } from './fixtures';

let cluster: PgCluster;
test.beforeAll(async () => {
  cluster = await startPgCluster();
});
test.afterAll(() => cluster?.stop());

test('the Cases view shows the case on its team server, who else works on it, syncs, and redoes a conflict', async ({ app, page, workbench }) => {
  test.setTimeout(120_000);
  /** Opens the window again (a reload keeps its reviewer), on the Cases view, reading the team status afresh. */
  const reopen = async () => {
    await page.reload();
    await page.getByTestId('status-actor').filter({ hasText: 'Acting as Lena' }).waitFor();
    await app.nav('cases');
  };
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  const dir = mkdtempSync(join(tmpdir(), 'erwb-e2e-team-'));
  try {
    await initTeamStore(admin);
    // The demo case goes on the server, as `npm run team -- publish` puts it there.
    const db = openCaseFile(workbench.casePath);
    const { caseId } = readCaseMeta(db);
    try {
      await publishCase(db, admin);
      writeTransaction(db, () => noteServer(db, serverLocation(cluster.url)));
    } finally {
      db.close();
    }

    // The window was open before the case went on the server; opened again, it shows it there.
    await reopen();
    const panel = page.getByTestId('team-panel');
    await expect(panel.getByTestId('team-connection')).toHaveText('Connected');
    await expect(panel.getByTestId('team-standing')).toContainText('in step');
    await expect(panel.getByTestId('team-server')).toContainText('as erwb_lena_k_');

    // Omar, on his own laptop, clones the case and pushes a claim.
    const omarPath = join(dir, 'omar.case.sqlite');
    await cloneCase(admin, caseId, omarPath);
    const laptop = replicaMachine(dir, omarPath, workbench.userDataDir);
    await laptop.work('omar.h', async (m) => {
      await m.call('claim:create', { claimId: 'cl-from-omar', statement: 'Seen from Omar’s laptop', scope: [], tenant: 'acme', classification: 'internal' });
      await pushCase(m.seat.db(), admin);
    }, DEMO_PASSPHRASES['omar.h']);

    await reopen();
    await expect(panel.getByTestId('team-standing')).toContainText('1 receipt behind the server');
    await expect(panel.getByTestId('team-other').filter({ hasText: 'omar.h' })).toBeVisible();
    await panel.getByTestId('team-sync').click();
    await expect(panel.getByTestId('team-outcome')).toContainText('pulled 1, pushed 0');
    await expect(panel.getByTestId('team-standing')).toContainText('in step');

    // A conflict waiting for Lena (as a sync records one): redone from the panel, it is gone.
    const local = openCaseFile(workbench.casePath);
    try {
      const request = JSON.stringify({ claimId: 'cl-redone', statement: 'Taken again from the conflict list', scope: [], tenant: 'acme', classification: 'internal' });
      writeTransaction(local, () =>
        local
          .prepare(`INSERT INTO replica_conflict (actor, channel, request, reason, made_at, found_at) VALUES ('lena.k', 'claim:create', ?, ?, '2026-12-05T08:00:00.000Z', '2026-12-05T09:00:00.000Z')`)
          .run(request, "no longer valid on the server's newer head: CONFLICT: the claim moved on"),
      );
    } finally {
      local.close();
    }
    await reopen();
    const conflict = panel.getByTestId('team-conflict');
    await expect(conflict).toHaveCount(1);
    await expect(conflict).toContainText('claim:create');
    await panel.screenshot({ path: 'test-results/screens/team-panel.png' });
    await conflict.getByTestId('team-conflict-redo').click();
    await expect(panel.getByTestId('team-outcome')).toContainText('Redone: claim:create');
    await expect(panel.getByTestId('team-conflict')).toHaveCount(0);
    expect((await app.ok('claim:get', { claimId: 'cl-redone' })).statement).toBe('Taken again from the conflict list');
    await expect(panel.getByTestId('team-standing')).toContainText('1 receipt ahead of the server');

    // A revocation leaves convergence jobs open: Lena's window takes the case's converger lease,
    // runs them here and pushes each receipt (her pending claim goes first).
    await app.actAs('priya.s');
    await app.ok('evidence:transition', { revisionId: 'ev-auth-001@1', to: 'REVOKED', reason: 'export came from the staging tenant' });
    await app.actAs('lena.k');
    await reopen();
    await expect(panel.getByTestId('team-open-jobs')).toContainText('open in this file');
    await panel.screenshot({ path: 'test-results/screens/team-panel-converge.png' });
    await panel.getByTestId('team-converge').click();
    await expect(panel.getByTestId('team-outcome')).toContainText(/Converged \d+ revocation jobs?; 0 still open/);
    await expect(panel.getByTestId('team-open-jobs')).toHaveText('none open');
    await expect(panel.getByTestId('team-standing')).toContainText('in step');
    const converged = await admin.query(`SELECT count(*)::int AS n FROM erwb.team_receipt WHERE case_id = $1 AND action = 'revocation:converge'`, [caseId]);
    expect(converged.rows[0].n).toBeGreaterThan(0);
  } finally {
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
});
