import type { Envelope } from '../../shared/ipc/envelope';
import { WorkbenchCallError } from '../../shared/ipc/envelope';
import type { Channel, Invoke, PreloadApi, RequestOf, ResponseOf } from '../../shared/ipc/contract';
import { limitInFlight } from './inFlight';
import { uploadCutOff, uploadRefusal } from './upload';

declare global {
  interface Window {
    /** What the Electron preload exposes; absent in browser mode. */
    workbench?: PreloadApi;
  }
}

export type Transport = 'electron' | 'loopback';

/** Fired on window when any call answers LOCKED. */
export const LOCKED_EVENT = 'workbench-locked';

const TOKEN_KEY = 'erwb-launch-token';
const SEAT_KEY = 'erwb-seat';

/** This tab's seat: the reviewer unlocked here acts only here, not in the other tabs (issue 9.4). */
function seatId(): string {
  let id = sessionStorage.getItem(SEAT_KEY);
  if (!id) {
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    id = btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_');
    sessionStorage.setItem(SEAT_KEY, id);
  }
  return id;
}

/** The launch token arrives in the URL fragment once; keep it for this tab and drop it from the URL. */
function launchToken(): string {
  const match = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  if (match?.[1]) {
    sessionStorage.setItem(TOKEN_KEY, match[1]);
    history.replaceState(null, '', window.location.pathname + window.location.search);
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

async function invokeLoopback<C extends Channel>(channel: C, request: RequestOf<C>): Promise<Envelope<ResponseOf<C>>> {
  const res = await fetch(`/api/${encodeURIComponent(channel)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-workbench-token': launchToken(), 'x-workbench-seat': seatId() },
    body: JSON.stringify(request ?? {}),
  });
  const text = await res.text();
  try {
    return JSON.parse(text) as Envelope<ResponseOf<C>>;
  } catch {
    return { ok: false, error: { code: 'INTERNAL', message: `${channel}: the host answered ${res.status} without an envelope` } };
  }
}

export const transport: Transport = window.workbench ? 'electron' : 'loopback';

/** Requests in flight at once from this window; more wait their turn (inFlight.ts). */
export const MAX_IN_FLIGHT = 6;

/** Sends a request and returns the envelope as the handler answered it, refusals included (used by tests and diagnostics). */
export const invokeRaw: Invoke = limitInFlight(MAX_IN_FLIGHT, (channel, request) =>
  window.workbench ? window.workbench.invoke(channel, request) : invokeLoopback(channel, request),
) as Invoke;

/** Typed call: resolves to the value or throws WorkbenchCallError with the code and zod paths. */
export async function call<C extends Channel>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
  const envelope = await invokeRaw(channel, request);
  if (!envelope.ok) {
    // The main process locked this window (idle timeout, a replaced key): the app shows its lock screen.
    if (envelope.error.code === 'LOCKED' && typeof window !== 'undefined') window.dispatchEvent(new Event(LOCKED_EVENT));
    throw new WorkbenchCallError(channel, envelope.error);
  }
  return envelope.value;
}

/**
 * Where an import of a dropped or picked file starts from: in Electron the file's own path; in a
 * browser, which cannot tell a page where a file lives, the file is uploaded to the loopback host
 * first (POST /upload) and imported from its inbox.
 */
export async function importSourceOf(file: File): Promise<{ path: string } | { upload: string; name: string }> {
  if (window.workbench) return { path: window.workbench.pathForFile(file) };
  const refusal = uploadRefusal(file);
  if (refusal) throw new WorkbenchCallError('import:start', { code: 'VALIDATION', message: refusal });
  let res: Response;
  try {
    res = await fetch('/upload', { method: 'POST', headers: { 'x-workbench-token': launchToken(), 'content-type': 'application/octet-stream' }, body: file });
  } catch (err) {
    throw new WorkbenchCallError('import:start', { code: 'INTERNAL', message: uploadCutOff(file.name, err) });
  }
  let envelope: Envelope<{ uploadId: string }>;
  try {
    envelope = (await res.json()) as Envelope<{ uploadId: string }>;
  } catch {
    envelope = { ok: false, error: { code: 'INTERNAL', message: `upload: the host answered ${res.status} without an envelope` } };
  }
  if (!envelope.ok) throw new WorkbenchCallError('import:start', envelope.error);
  return { upload: envelope.value.uploadId, name: file.name.slice(0, 255) };
}

if (typeof window !== 'undefined') launchToken();

declare global {
  interface Window {
    /** Diagnostics: the raw bridge, so a support session (and the e2e suite) can send any request. */
    workbenchBridge?: { transport: Transport; invokeRaw: Invoke };
  }
}
if (typeof window !== 'undefined') {
  Object.defineProperty(window, 'workbenchBridge', { value: Object.freeze({ transport, invokeRaw }), enumerable: false });
}
