import { app, BrowserWindow, Menu } from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDemoCase } from '../core/demo';
import { Session } from '../core/session';
import { useNativeBinding } from '../core/store/caseFile';
import { registerIpc } from './ipc';
import { startWorkerLoop } from '../core/worker/loop';
import { buildMenu } from './menu';
import { printPdf } from './printPdf';
import { rendererLocation, type RendererLocation } from './rendererLocation';
import { hardenSession } from './security';

// Electron needs better-sqlite3 built for its own ABI; scripts/start.mjs keeps that build apart
// from Node's so `npm test` and the desktop app never fight over one binary.
const electronBinding = process.env.ERWB_ELECTRON_SQLITE_BINDING;
if (electronBinding && existsSync(electronBinding)) useNativeBinding(electronBinding);

let mainWindow: BrowserWindow | null = null;

function createWindow(renderer: RendererLocation): BrowserWindow {
  const win = new BrowserWindow({
    width: 1440,
    height: 900,
    title: 'Evidence Review Workbench',
    show: false,
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win.show());
  if (renderer.kind === 'devServer') void win.loadURL(renderer.url);
  else void win.loadFile(renderer.path);
  return win;
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow?.isMinimized()) mainWindow.restore();
    mainWindow?.focus();
  });
  void app.whenReady().then(async () => {
    hardenSession();
    const userDataDir = process.env.ERWB_USER_DATA ?? app.getPath('userData');
    const session = new Session({ userDataDir, printPdf });
    const seed = join(app.getAppPath(), 'resources', 'demo-case.json');
    const casePath = process.env.ERWB_CASE ?? (await ensureDemoCase(seed, userDataDir));
    session.open(casePath);
    const renderer = rendererLocation(process.env.ELECTRON_RENDERER_URL, import.meta.dirname);
    registerIpc(session, () => mainWindow, renderer);
    // Revocation convergence in the background of the main process (see core/worker/loop.ts).
    const worker = startWorkerLoop(session);
    Menu.setApplicationMenu(buildMenu(session, () => mainWindow));
    mainWindow = createWindow(renderer);
    app.on('window-all-closed', () => {
      worker.stop();
      session.close();
      app.quit();
    });
  });
}
