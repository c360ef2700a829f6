import { dialog, Menu, shell, type BrowserWindow } from 'electron';
import type { Session } from '../core/session';
import { dispatch } from '../core/dispatch';
import { handlers } from '../core/handlers';
import { userInfo } from 'node:os';

const CASE_FILTERS = [{ name: 'Evidence case', extensions: ['sqlite', 'case'] }];

export function buildMenu(session: Session, getWindow: () => BrowserWindow | null): Menu {
  const reload = () => getWindow()?.webContents.reload();
  const report = (message: string) => void dialog.showMessageBox({ type: 'error', message });
  return Menu.buildFromTemplate([
    {
      label: 'File',
      submenu: [
        {
          label: 'New Case…',
          accelerator: 'CmdOrCtrl+N',
          click: async () => {
            const pick = await dialog.showSaveDialog({ filters: CASE_FILTERS, defaultPath: 'new-case.case.sqlite' });
            if (pick.canceled || !pick.filePath) return;
            const me = userInfo().username.replace(/[^A-Za-z0-9._-]/g, '') || 'admin';
            const r = await dispatch(handlers, session, 'case:create', {
              path: pick.filePath,
              name: pick.filePath.split(/[\\/]/).pop() ?? 'New case',
              admin: { actorId: me, displayName: me },
            });
            if (!r.ok) report(r.error.message);
            reload();
          },
        },
        {
          label: 'Open Case…',
          accelerator: 'CmdOrCtrl+O',
          click: async () => {
            const pick = await dialog.showOpenDialog({ filters: CASE_FILTERS, properties: ['openFile'] });
            const path = pick.filePaths[0];
            if (pick.canceled || !path) return;
            const r = await dispatch(handlers, session, 'case:open', { path });
            if (!r.ok) report(r.error.message);
            reload();
          },
        },
        { type: 'separator' },
        { role: 'quit' },
      ],
    },
    { label: 'View', submenu: [{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' }] },
    {
      label: 'Help',
      submenu: [
        {
          label: 'About the Evidence Review Workbench',
          click: () =>
            void dialog.showMessageBox({
              message: 'Evidence Review Workbench',
              detail: 'Offline triage of disputed evidence with an enforced lifecycle and a receipted audit chain.',
            }),
        },
        { label: 'Open Case Folder', click: () => void shell.openPath(session.userDataDir) },
      ],
    },
  ]);
}
