import { app, session, type BrowserWindow, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../../shared/security/csp';
import { isRendererUrl, type RendererLocation } from './rendererLocation';

/** Only the main frame of our own window, showing our own renderer, may call the workbench. */
export function isTrustedSender(event: IpcMainInvokeEvent, window: BrowserWindow | null, renderer: RendererLocation): boolean {
  const frame = event.senderFrame;
  if (!frame || !window || event.sender !== window.webContents) return false;
  if (frame.parent !== null) return false;
  return isRendererUrl(frame.url, renderer);
}

export function hardenContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/** Deny-all permissions and a strict CSP on every response, set once for the default session. */
export function hardenSession(): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
  });
  app.on('web-contents-created', (_event, contents) => hardenContents(contents));
}
