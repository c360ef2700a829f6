import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { CHANNELS, isChannel, MENU_COMMAND_CHANNEL, type MenuCommand, type PreloadApi } from '../../shared/ipc/contract';

/**
 * window.workbench exposes exactly the contract's channels: `invoke(channel, request)` refuses any
 * other name before it reaches ipcRenderer, and raw ipcRenderer is never exposed. The types are a
 * promise to the renderer only; the page can send anything, so the name is checked here and the
 * request by the handler's schema in the main process.
 */
const api: PreloadApi = {
  transport: 'electron',
  channels: [...CHANNELS],
  invoke: (channel, request) => {
    if (!isChannel(channel)) return Promise.resolve({ ok: false, error: { code: 'NOT_FOUND', message: `unknown channel ${String(channel)}` } });
    return ipcRenderer.invoke(channel, request);
  },
  pathForFile: (file) => webUtils.getPathForFile(file),
  onMenuCommand: (listener) => {
    const forward = (_e: IpcRendererEvent, command: MenuCommand) => listener(command);
    ipcRenderer.on(MENU_COMMAND_CHANNEL, forward);
    return () => void ipcRenderer.off(MENU_COMMAND_CHANNEL, forward);
  },
};

contextBridge.exposeInMainWorld('workbench', api);
