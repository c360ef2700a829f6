import { contextBridge, ipcRenderer } from 'electron';
import { CHANNELS, isChannel } from '../../shared/ipc/contract';

/**
 * window.workbench exposes exactly the contract's channels: `invoke(channel, request)` refuses any
 * other name before it reaches ipcRenderer, and raw ipcRenderer is never exposed.
 */
contextBridge.exposeInMainWorld('workbench', {
  transport: 'electron',
  channels: [...CHANNELS],
  invoke: (channel: string, request: unknown) => {
    if (!isChannel(channel)) return Promise.resolve({ ok: false, error: { code: 'NOT_FOUND', message: `unknown channel ${channel}` } });
    return ipcRenderer.invoke(channel, request);
  },
});
