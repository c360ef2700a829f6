import type { Envelope } from '../../shared/ipc/envelope';
import { WorkbenchCallError } from '../../shared/ipc/envelope';
import type { Channel, RequestOf, ResponseOf } from '../../shared/ipc/contract';

/** What the Electron preload exposes; absent in browser mode. */
interface PreloadBridge {
  transport: 'electron';
  invoke: (channel: string, request: unknown) => Promise<Envelope<unknown>>;
}

declare global {
  interface Window {
    workbench?: PreloadBridge;
  }
}

export type Transport = 'electron' | 'loopback';

const TOKEN_KEY = 'erwb-launch-token';

/** The launch token arrives in the URL fragment once; keep it for this tab and drop it from the URL. */
function launchToken(): string {
  const match = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  if (match?.[1]) {
    sessionStorage.setItem(TOKEN_KEY, match[1]);
    history.replaceState(null, '', window.location.pathname + window.location.search);
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

async function invokeLoopback(channel: string, request: unknown): Promise<Envelope<unknown>> {
  const res = await fetch(`/api/${encodeURIComponent(channel)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-workbench-token': launchToken() },
    body: JSON.stringify(request ?? {}),
  });
  const text = await res.text();
  try {
    return JSON.parse(text) as Envelope<unknown>;
  } catch {
    return { ok: false, error: { code: 'INTERNAL', message: `${channel}: the host answered ${res.status} without an envelope` } };
  }
}

export const transport: Transport = window.workbench ? 'electron' : 'loopback';

/** Sends a request as-is and returns the envelope (used to show raw errors, and by tests). */
export function invokeRaw(channel: string, request: unknown): Promise<Envelope<unknown>> {
  return window.workbench ? window.workbench.invoke(channel, request) : invokeLoopback(channel, request);
}

/** Typed call: resolves to the value or throws WorkbenchCallError with the code and zod paths. */
export async function call<C extends Channel>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
  const envelope = await invokeRaw(channel, request);
  if (!envelope.ok) throw new WorkbenchCallError(channel, envelope.error);
  return envelope.value as ResponseOf<C>;
}

if (typeof window !== 'undefined') launchToken();

declare global {
  interface Window {
    /** Diagnostics: the raw bridge, so a support session (and the e2e suite) can send any request. */
    workbenchBridge?: { transport: Transport; invokeRaw: typeof invokeRaw };
  }
}
if (typeof window !== 'undefined') {
  Object.defineProperty(window, 'workbenchBridge', { value: Object.freeze({ transport, invokeRaw }), enumerable: false });
}
