import { closeSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { conflict, invalid } from '../errors';

/**
 * Every file the interchange channels write is new: created exclusively (an existing file is never
 * overwritten), readable by its owner only. Refusals say what to do, prefixed with the channel.
 */
export function openNewFile(path: string, channel: string): number {
  try {
    return openSync(path, 'wx', 0o600);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'EEXIST') throw conflict(`${channel}: ${path} already exists; choose another file name`);
    if (code === 'ENOENT') throw invalid(`${channel}: the folder of ${path} does not exist`);
    if (code === 'EACCES' || code === 'EROFS' || code === 'EISDIR') throw invalid(`${channel}: ${path} cannot be written here (${code})`);
    throw err;
  }
}

/** Writes `parts` into a new file; a failure part-way removes what was written. */
export function writeNewFile(path: string, channel: string, write: (put: (bytes: Buffer) => void) => void): void {
  const fd = openNewFile(path, channel);
  try {
    write((bytes) => {
      writeSync(fd, bytes);
    });
    closeSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(path);
    throw err;
  }
}
