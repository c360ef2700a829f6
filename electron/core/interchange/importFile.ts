import { statSync } from 'node:fs';

/**
 * The checks every importer makes before it reads a byte of a file: it exists, is a regular file,
 * is not empty and is within the limit. Answers its size; `refuse` words the refusal the importer's way.
 */
export function sizeOfImportFile(path: string, maxBytes: number, refuse: (field: string, expected: string) => never): number {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) refuse('path', 'expected a regular file');
    size = st.size;
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') refuse('path', 'no such file');
    throw err;
  }
  if (size > maxBytes) refuse('size', `the file has ${size.toLocaleString('en')} bytes; the limit is ${maxBytes.toLocaleString('en')}`);
  if (size === 0) refuse('size', 'the file is empty');
  return size;
}
