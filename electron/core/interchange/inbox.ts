import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { invalid, notFound } from '../errors';

/**
 * Files a browser hands to the loopback host (a dropped or picked file has no path the host could
 * read): POST /upload streams one into `<userData>/inbox/<id>`, created exclusively and readable
 * by this user only, and answers its id; `import:start { source: { upload } }` imports it and then
 * removes it. The id is the file's whole name, so no request can name another path.
 */
const ID = /^up-[A-Za-z0-9_-]{24}$/;

export function inboxPath(userDataDir: string, uploadId: string): string {
  if (!ID.test(uploadId)) throw invalid(`import:start: ${JSON.stringify(uploadId).slice(0, 40)} is not an upload id`);
  const path = join(userDataDir, 'inbox', uploadId);
  if (!existsSync(path)) throw notFound(`import:start: no uploaded file ${uploadId} (it is removed once imported)`);
  return path;
}

/** An upload nobody imported (the tab closed in between) is removed after this long. */
const FORGOTTEN_MS = 24 * 60 * 60 * 1000;

/** Streams `body` into a new inbox file; more than `maxBytes` removes it and refuses. */
export async function receiveUpload(userDataDir: string, body: Readable, maxBytes: number): Promise<{ uploadId: string; bytes: number }> {
  const dir = join(userDataDir, 'inbox');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  sweepForgotten(dir);
  const uploadId = `up-${randomBytes(18).toString('base64url')}`;
  const path = join(dir, uploadId);
  let bytes = 0;
  let tooLarge = false;
  body.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > maxBytes && !tooLarge) {
      tooLarge = true;
      body.destroy(new Error('too large'));
    }
  });
  const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
  try {
    await pipeline(body, out);
  } catch (err) {
    // The file may still be opening when the pipeline fails: remove it once the stream is closed.
    if (!out.closed) await new Promise<void>((done) => out.once('close', () => done()));
    rmSync(path, { force: true });
    if (tooLarge) throw invalid(`upload: the file is larger than the limit of ${maxBytes.toLocaleString('en')} bytes`);
    throw invalid(`upload: the file did not arrive whole (${(err as Error).message})`);
  }
  if (bytes === 0) {
    rmSync(path, { force: true });
    throw invalid('upload: the file is empty');
  }
  return { uploadId, bytes };
}

function sweepForgotten(dir: string): void {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    if (!ID.test(name)) continue;
    const path = join(dir, name);
    try {
      if (now - statSync(path).mtimeMs > FORGOTTEN_MS) rmSync(path, { force: true });
    } catch {
      // Imported and removed meanwhile.
    }
  }
}

export function removeUpload(path: string): void {
  rmSync(path, { force: true });
}
