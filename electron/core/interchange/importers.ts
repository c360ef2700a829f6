import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { BUNDLE_FORMAT, DEFAULT_MAX_BUNDLE_BYTES } from '../../../shared/interchange/bundle';
import type { ImportFormat } from '../../../shared/ipc/channels/importJobs';
import type { ImportReport, ProvImportReport } from '../../../shared/ipc/channels/interchange';
import { DEFAULT_MAX_STIX_BYTES, type StixImportReport } from '../../../shared/ipc/channels/stix';
import type { ParsedRequestOf } from '../../../shared/ipc/contract';
import { invalid } from '../errors';
import { readCaseMeta } from '../services/caseMeta';
import type { Seat } from '../session';
import { bundleSteps } from './bundleImport';
import { readBundle, type ReadBundle } from './bundleRead';
import { inboxPath, removeUpload } from './inbox';
import { sizeOfImportFile } from './importFile';
import { startImport, type Importer } from './importJobs';
import { importProvJson } from './provJson';
import { stixOptions, stixSteps } from './stix/stixImport';
import { readStixFile, type StixDocument } from './stix/stixRead';

type StartRequest = ParsedRequestOf<'import:start'>;

/**
 * import:start: which file, which format (read from the file unless given), and the importer
 * that format has. A file the browser uploaded is removed once its import has ended.
 */
export function startFileImport(seat: Seat, req: StartRequest) {
  const upload = 'upload' in req.source ? req.source : null;
  const path = upload ? inboxPath(seat.session.userDataDir, upload.upload) : (req.source as { path: string }).path;
  const maxBytes = req.maxBytes ?? DEFAULT_MAX_BUNDLE_BYTES;
  const cleanup = upload ? () => removeUpload(path) : undefined;
  const shown = upload ? `${upload.name ?? 'the dropped file'} (uploaded)` : path;
  const label = { path: shown, ...(cleanup ? { cleanup } : {}) };
  try {
    const format = req.format === 'auto' ? sniffFormat(path, shown) : req.format;
    if (format === 'bundle') return startImport(seat, bundleImporter(path, maxBytes), label);
    if (format === 'stix') return startImport(seat, stixImporter(seat, path, { ...req, maxBytes: Math.min(maxBytes, DEFAULT_MAX_STIX_BYTES) }), label);
    return startImport(seat, provImporter(seat, path, { ...req, maxBytes }), label);
  } catch (err) {
    cleanup?.();
    throw err;
  }
}

function bundleImporter(path: string, maxBytes: number): Importer<ReadBundle, ImportReport> {
  return {
    format: 'bundle',
    read: (control) => readBundle(path, { maxBytes, control }),
    total: (bundle) => bundle.records.length,
    apply: bundleSteps,
  };
}

/** A STIX bundle is one JSON document: read and checked whole, then translated and applied record by record (stixImport.ts). */
function stixImporter(seat: Seat, path: string, req: { tenant?: string | undefined; classification?: StartRequest['classification']; maxBytes: number }): Importer<StixDocument, StixImportReport> {
  // Where the objects are filed is settled before the job starts, so a missing tenant is refused at once.
  const options = stixOptions(seat.context(), req);
  return {
    format: 'stix',
    read: async (control) => {
      const doc = readStixFile(path, req.maxBytes);
      control.onBytes(doc.bytes, doc.bytes);
      return doc;
    },
    total: (doc) => doc.objects.length,
    apply: (ctx, doc) => stixSteps(ctx, doc, options),
  };
}

/** PROV-JSON documents are small graphs: read and applied in one step, inside the job's transaction. */
function provImporter(seat: Seat, path: string, req: { tenant?: string | undefined; classification?: StartRequest['classification']; maxBytes: number }): Importer<string, ProvImportReport> {
  const tenant = req.tenant ?? defaultTenant(seat);
  return {
    format: 'prov',
    read: async (control) => {
      control.onBytes(statSync(path).size, statSync(path).size);
      return path;
    },
    total: () => 1,
    apply: function* (ctx, file) {
      const report = importProvJson(ctx, { path: file, tenant, classification: req.classification ?? 'internal', maxBytes: req.maxBytes });
      yield;
      return report;
    },
  };
}

/** Where declared PROV nodes go when the request does not say: the case's first home tenant, else the reviewer's. */
function defaultTenant(seat: Seat): string {
  const named = (ts: readonly string[]) => ts.find((t) => t !== '*');
  const tenant = named(readCaseMeta(seat.db()).homeScope.tenants) ?? named(seat.actor().tenants);
  if (!tenant) throw invalid('import:start: tenant: say which tenant the PROV document’s nodes belong to (this case names none)', [{ path: ['tenant'], message: 'required for PROV-JSON here' }]);
  return tenant;
}

/**
 * What a file is, from its first 64 KiB: an evidence bundle (NDJSON header line or document with
 * our format name), a STIX 2.x bundle (`"type": "bundle"` with `objects`), or W3C PROV-JSON (an
 * object with PROV sections). Anything else is refused.
 */
export function sniffFormat(path: string, shown = path): ImportFormat {
  sizeOfImportFile(path, Number.MAX_SAFE_INTEGER, (field, expected) => {
    throw invalid(`import:start: ${shown}: ${field}: ${expected}; nothing was imported`, [{ path: field === 'path' ? ['source', 'path'] : [field], message: expected }]);
  });
  const fd = openSync(path, 'r');
  const head = Buffer.alloc(64 * 1024);
  let n: number;
  try {
    n = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  const text = head.subarray(0, n).toString('utf8');
  if (new RegExp(`"format"\\s*:\\s*"${BUNDLE_FORMAT}"`).test(text)) return 'bundle';
  if (/"type"\s*:\s*"bundle"/.test(text) && /"objects"\s*:/.test(text)) return 'stix';
  if (/"(prefix|entity|activity|agent|wasDerivedFrom|wasGeneratedBy|used|wasAttributedTo)"\s*:\s*\{/.test(text) && text.trimStart().startsWith('{')) return 'prov';
  throw invalid(`import:start: ${shown} is neither an evidence bundle (format "${BUNDLE_FORMAT}") nor a STIX bundle nor a W3C PROV-JSON document; say the format if it is one of them; nothing was imported`, [{ path: ['format'], message: 'could not tell the format from the file' }]);
}
