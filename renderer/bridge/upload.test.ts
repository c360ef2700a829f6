import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_MAX_BUNDLE_BYTES } from '../../shared/interchange/bundle';
import { uploadCutOff, uploadRefusal } from './upload';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('uploads from a browser', () => {
  it('refuse a file over the import limit before sending it, naming the file, its size and the limit', () => {
    expect(uploadRefusal({ name: 'feed.json', size: DEFAULT_MAX_BUNDLE_BYTES })).toBeNull();
    expect(uploadRefusal({ name: 'feed.json', size: DEFAULT_MAX_BUNDLE_BYTES + 1 })).toBe(
      'upload: feed.json is 1,073,741,825 bytes, larger than the import limit of 1,073,741,824 bytes; nothing was sent',
    );
    expect(uploadRefusal({ name: 'small.ndjson', size: 11 }, 10)).toMatch(/^upload: small\.ndjson is 11 bytes, larger than the import limit of 10 bytes/);
    expect(uploadRefusal({ name: 'small.ndjson', size: 10 }, 10)).toBeNull();
  });

  it('say which file a cut-off upload was sending and what the browser reported', () => {
    expect(uploadCutOff('feed.json', new TypeError('Failed to fetch'))).toBe(
      'upload: the connection to the workbench host ended before it answered, while feed.json was being sent (Failed to fetch); nothing was imported',
    );
  });

  it('importSourceOf sends no byte of a file over the limit, and names the file when the upload is cut off', async () => {
    // The bridge as a browser tab loads it: a launch token in the address, no Electron preload.
    const stored = new Map<string, string>();
    vi.stubGlobal('window', { location: { hash: '#token=t0k3n', pathname: '/', search: '' } });
    vi.stubGlobal('sessionStorage', { getItem: (k: string) => stored.get(k) ?? null, setItem: (k: string, v: string) => void stored.set(k, v) });
    vi.stubGlobal('history', { replaceState: () => {} });
    const sent: { url: unknown; headers: unknown }[] = [];
    vi.stubGlobal('fetch', async (url: unknown, init: { headers: unknown }) => {
      sent.push({ url, headers: init.headers });
      throw new TypeError('Failed to fetch');
    });
    const { importSourceOf } = await import('./index');
    const big = { name: 'feed.json', size: DEFAULT_MAX_BUNDLE_BYTES + 1 } as File;
    await expect(importSourceOf(big)).rejects.toMatchObject({ code: 'VALIDATION', message: uploadRefusal(big) });
    expect(sent).toEqual([]);
    await expect(importSourceOf({ name: 'events.ndjson', size: 10 } as File)).rejects.toMatchObject({
      code: 'INTERNAL',
      message: uploadCutOff('events.ndjson', new TypeError('Failed to fetch')),
    });
    expect(sent).toEqual([{ url: '/upload', headers: expect.objectContaining({ 'x-workbench-token': 't0k3n' }) }]);
  });
});
