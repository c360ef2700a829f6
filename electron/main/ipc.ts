import { ipcMain, type BrowserWindow } from 'electron';
import { CHANNELS } from '../../shared/ipc/contract';
import { dispatch } from '../core/dispatch';
import { handlers } from '../core/handlers';
import type { Session } from '../core/session';
import type { RendererLocation } from './rendererLocation';
import { isTrustedSender } from './security';

/** Wires exactly the contract's channels into ipcMain, each through the shared dispatch. */
export function registerIpc(session: Session, getWindow: () => BrowserWindow | null, renderer: RendererLocation): void {
  for (const channel of CHANNELS) {
    ipcMain.handle(channel, async (event, request: unknown) => {
      if (!isTrustedSender(event, getWindow(), renderer)) {
        return { ok: false, error: { code: 'FORBIDDEN', message: `${channel}: call from an untrusted frame refused` } };
      }
      // The acting reviewer belongs to this window: its own seat, unlocked in it (issue 9.4).
      return dispatch(handlers, session.seat(`window:${event.sender.id}`), channel, request);
    });
  }
}
