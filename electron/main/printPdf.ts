import { BrowserWindow } from 'electron';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The desktop app's PDF printer for case reports (issue 10.5): the report's HTML in a hidden
 * window that runs no script and has no preload, printed with Chromium's printToPDF. The HTML is
 * the inert report the browser would show (report.ts); the window is destroyed after each print.
 */
export async function printPdf(html: string): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'erwb-print-'));
  const file = join(dir, 'report.html');
  writeFileSync(file, html, { mode: 0o600 });
  const win = new BrowserWindow({ show: false, webPreferences: { javascript: false, sandbox: true, contextIsolation: true, nodeIntegration: false, webviewTag: false } });
  try {
    await win.loadFile(file);
    return await win.webContents.printToPDF({ printBackground: true, pageSize: 'A4' });
  } finally {
    win.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}
