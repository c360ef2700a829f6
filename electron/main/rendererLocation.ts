import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Where the window's renderer comes from: electron-vite's dev server in development, the packaged
 * index.html next to the main bundle otherwise. The window loads it and the IPC sender check trusts
 * it, so both read this one value.
 */
export type RendererLocation = { kind: 'devServer'; url: string } | { kind: 'file'; path: string };

/** `mainDir` is the folder of the built main process (out/main); the renderer is built to out/renderer. */
export function rendererLocation(devServerUrl: string | undefined, mainDir: string): RendererLocation {
  return devServerUrl ? { kind: 'devServer', url: devServerUrl } : { kind: 'file', path: join(mainDir, '../renderer/index.html') };
}

const parse = (url: string): URL | null => {
  try {
    return new URL(url);
  } catch {
    return null;
  }
};

/**
 * Is this frame URL our renderer? Compares the parsed URL, never a prefix or a substring: the dev
 * server's exact origin (scheme, host and port), or a local file URL whose normalised path is the
 * packaged index.html. Query and fragment do not choose the document, so they are ignored.
 */
export function isRendererUrl(frameUrl: string, expected: RendererLocation): boolean {
  const url = parse(frameUrl);
  if (!url) return false;
  if (expected.kind === 'devServer') {
    const dev = parse(expected.url);
    if (!dev || (dev.protocol !== 'http:' && dev.protocol !== 'https:')) return false;
    return url.origin === dev.origin;
  }
  // A host in a file URL names another machine (a UNC share on Windows), never our own build.
  return url.protocol === 'file:' && url.host === '' && url.pathname === pathToFileURL(expected.path).pathname;
}
