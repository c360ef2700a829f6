import { dialog, Menu, shell, type BrowserWindow } from 'electron';
import type { Session } from '../core/session';
import { dispatch } from '../core/dispatch';
import { handlers } from '../core/handlers';
import { MENU_COMMAND_CHANNEL, type MenuCommand } from '../../shared/ipc/contract';

const CASE_FILTERS = [{ name: 'Evidence case', extensions: ['sqlite', 'case'] }];
const IMPORT_FILTERS = [{ name: 'Evidence bundle, STIX bundle or PROV-JSON', extensions: ['ndjson', 'jsonl', 'json'] }];

export function buildMenu(session: Session, getWindow: () => BrowserWindow | null): Menu {
  const reload = () => getWindow()?.webContents.reload();
  const report = (message: string) => void dialog.showMessageBox({ type: 'error', message });
  // The window runs the import itself (progress, cancel, its own reviewer's seat); the menu only picks the file.
  const command = (c: MenuCommand) => getWindow()?.webContents.send(MENU_COMMAND_CHANNEL, c);
  return Menu.buildFromTemplate([
    {
      label: 'File',
      submenu: [
        {
          label: 'Open Case…',
          accelerator: 'CmdOrCtrl+O',
          click: async () => {
            const pick = await dialog.showOpenDialog({ filters: CASE_FILTERS, properties: ['openFile'] });
            const path = pick.filePaths[0];
            if (pick.canceled || !path) return;
            const window = getWindow();
            // A new case is made in the Cases view, where its creator sets their passphrase.
            const r = await dispatch(handlers, session.seat(`window:${window?.webContents.id ?? 0}`), 'case:open', { path });
            if (!r.ok) report(r.error.message);
            reload();
          },
        },
        {
          label: 'Import…',
          accelerator: 'CmdOrCtrl+I',
          click: async () => {
            const pick = await dialog.showOpenDialog({ filters: IMPORT_FILTERS, properties: ['openFile'] });
            const path = pick.filePaths[0];
            if (!pick.canceled && path) command({ kind: 'import', path });
          },
        },
        { label: 'Export, Reports and Hand-off…', accelerator: 'CmdOrCtrl+E', click: () => command({ kind: 'export' }) },
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
