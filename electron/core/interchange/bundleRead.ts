import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { z } from 'zod';
import { BundleHeader, BundleRecord, DEFAULT_MAX_BUNDLE_BYTES, RECORD_TYPES } from '../../../shared/interchange/bundle';
import { cancelled, invalid } from '../errors';
import type { ReadControl } from './importJobs';
import { sizeOfImportFile } from './importFile';

/** A validated record and where it stood in the file (1-based line, or record index in JSON form). */
export interface LocatedRecord {
  at: string;
  record: BundleRecord;
}

export interface ReadBundle {
  header: BundleHeader;
  records: LocatedRecord[];
  sha256: string;
  bytes: number;
}

const describe = (error: z.ZodError): { field: string; expected: string } => {
  const issue = error.issues[0]!;
  return { field: issue.path.length > 0 ? issue.path.join('.') : '(record)', expected: issue.message };
};

function refuse(where: string, field: string, expected: string, path: (string | number)[] = []): never {
  throw invalid(`bundle:import: ${where}: ${field}: ${expected}; nothing was imported`, [{ path, message: expected }]);
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    return refuse(where, '(record)', `not valid JSON (${(err as Error).message})`);
  }
}

function validateRecord(value: unknown, where: string): BundleRecord {
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !(RECORD_TYPES as readonly string[]).includes(type)) {
    refuse(where, 'type', `expected one of ${RECORD_TYPES.join(', ')}, got ${JSON.stringify(type)?.slice(0, 40) ?? 'nothing'}`, ['type']);
  }
  const parsed = BundleRecord.safeParse(value);
  if (!parsed.success) {
    const { field, expected } = describe(parsed.error);
    refuse(`${where} (${type})`, field, expected, parsed.error.issues[0]!.path as (string | number)[]);
  }
  return parsed.data;
}

function validateHeader(value: unknown, where: string): BundleHeader {
  const parsed = BundleHeader.safeParse(value);
  if (!parsed.success) {
    const { field, expected } = describe(parsed.error);
    refuse(`${where} (header)`, field, expected);
  }
  return parsed.data;
}

/**
 * Reads and validates a whole bundle before anything is written: NDJSON (a header line, then one
 * record per line) streamed line by line, or one JSON document `{ ...header, records: [...] }`.
 * The first record that does not fit aborts with its line, field and what was expected.
 */
export async function readBundle(path: string, options: { maxBytes?: number; control?: ReadControl } = {}): Promise<ReadBundle> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BUNDLE_BYTES;
  const size = sizeOfImportFile(path, maxBytes, (field, expected) => refuse(path, field, expected));

  const hash = createHash('sha256');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const records: LocatedRecord[] = [];
  let header: BundleHeader | null = null;
  let pending = '';
  let line = 0;
  let documentForm = false;
  let bytes = 0;

  const takeLine = (text: string) => {
    line++;
    if (documentForm) {
      pending += `${text}\n`;
      return;
    }
    if (text.trim() === '') return;
    if (header === null) {
      // The first line is the header, unless the file is one (pretty-printed) JSON document.
      let first: unknown;
      try {
        first = JSON.parse(text);
      } catch {
        first = undefined;
      }
      if (first === undefined || (typeof first === 'object' && first !== null && 'records' in first)) {
        documentForm = true;
        pending = `${text}\n`;
        return;
      }
      header = validateHeader(first, `line ${line}`);
      return;
    }
    records.push({ at: `line ${line}`, record: validateRecord(parseJson(text, `line ${line}`), `line ${line}`) });
  };

  // Split on newline bytes first, then decode each line on its own, so bad UTF-8 is named by its line.
  const decodeLine = (raw: Buffer): string => {
    try {
      const text = decoder.decode(raw);
      return text.endsWith('\r') ? text.slice(0, -1) : text;
    } catch {
      return refuse(`line ${line + 1}`, '(bytes)', 'not UTF-8 text');
    }
  };
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(path)) {
    const buf = chunk as Buffer;
    bytes += buf.length;
    if (bytes > maxBytes) refuse(path, 'size', `the file grew past the limit of ${maxBytes.toLocaleString('en')} bytes while being read`);
    hash.update(buf);
    options.control?.onBytes(bytes, size);
    if (options.control?.signal.aborted) throw cancelled('the import');
    let data = carry.length > 0 ? Buffer.concat([carry, buf]) : buf;
    for (let nl = data.indexOf(0x0a); nl >= 0; nl = data.indexOf(0x0a)) {
      takeLine(decodeLine(data.subarray(0, nl)));
      data = data.subarray(nl + 1);
    }
    carry = Buffer.from(data);
  }
  if (carry.length > 0) takeLine(decodeLine(carry));

  if (documentForm) {
    const doc = parseJson(pending, 'the document') as Record<string, unknown>;
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) refuse('the document', '(document)', 'expected a JSON object');
    const { records: raw, ...rest } = doc;
    header = validateHeader(rest, 'the document');
    if (!Array.isArray(raw)) refuse('the document', 'records', 'expected an array of records');
    raw.forEach((r, i) => records.push({ at: `record ${i + 1}`, record: validateRecord(r, `record ${i + 1}`) }));
  }
  if (header === null) refuse(path, '(header)', 'no header line');
  return { header, records, sha256: hash.digest('hex'), bytes };
}
