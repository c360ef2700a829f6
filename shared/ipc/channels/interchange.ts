import { z } from 'zod';
import { Classification, LifecycleState } from '../../domain/enums';

/** A file on the machine the case is open on: absolute, printable, no control characters. */
export const FilePath = z
  .string()
  .min(1)
  .max(4096)
  .regex(/^\/[^\u0000-\u001f\u007f]*$/, 'expected an absolute path without control characters');

const Counts = z.object({ sources: z.number().int(), evidence: z.number().int(), claims: z.number().int(), bindings: z.number().int(), prov: z.number().int() });

export const ImportReport = z.object({
  bundleSha256: z.string(),
  records: z.number().int(),
  created: Counts,
  /** Already in the case with the same content: re-importing a bundle changes nothing. */
  unchanged: Counts,
  /** Revisions ingest screening quarantined (injection, tampering). */
  quarantined: z.array(z.string()),
  /** States the bundle reported that the lifecycle or your role did not allow; the revision kept its state. */
  lifecycleNotApplied: z.array(z.object({ at: z.string(), revisionId: z.string(), reported: LifecycleState, kept: LifecycleState, reason: z.string() })),
  /** Bundle names this case stores under another id (qualified with their scope, see README). */
  renamed: z.array(z.object({ kind: z.enum(['source', 'evidence', 'claim']), name: z.string(), id: z.string() })),
});
export type ImportReport = z.infer<typeof ImportReport>;

export const ProvImportReport = z.object({
  nodesAdded: z.number().int(),
  edgesAdded: z.number().int(),
  /** Nodes, edges and lifecycle moves already in the case. */
  unchanged: z.number().int(),
  /** Stored revisions a prov:Revision derivation superseded, and those wasInvalidatedBy revoked. */
  superseded: z.array(z.string()),
  revoked: z.array(z.string()),
  notApplied: z.array(z.object({ revisionId: z.string(), to: LifecycleState, reason: z.string() })),
  /** What PROV said that the case does not model, counted by kind. */
  skipped: z.record(z.string(), z.number().int()),
});
export type ProvImportReport = z.infer<typeof ProvImportReport>;

const HandoffManifest = z.object({
  caseId: z.string(),
  caseName: z.string(),
  head: z.string(),
  receipts: z.number().int(),
  exportedBy: z.object({ actorId: z.string(), keyId: z.string() }),
  exportedAt: z.string(),
  file: z.object({ bytes: z.number().int(), sha256: z.string() }),
});

/** Evidence bundles in and out (issue 10.2; format in shared/interchange/bundle.ts). */
export const interchangeChannels = {
  'bundle:import': {
    request: z
      .object({
        path: FilePath,
        /** Refuse bundles larger than this many bytes (default 1 GiB). */
        maxBytes: z.number().int().min(1).max(1024 ** 4).optional(),
      })
      .strict(),
    response: ImportReport,
  },
  /** A case report (HTML, self-contained and inert, or Markdown) of what you can see. */
  'report:write': {
    /** pdf: printed by the desktop app (Electron's printToPDF); in browser mode use report:render and the browser's print. */
    request: z.object({ path: FilePath, format: z.enum(['html', 'markdown', 'pdf']).default('html') }).strict(),
    response: z.object({ path: z.string(), bytes: z.number().int(), sha256: z.string() }),
  },
  /** The HTML report as text, written nowhere: what the window shows in its print dialog. */
  'report:render': {
    request: z.object({}).strict(),
    response: z.object({ html: z.string(), sha256: z.string() }),
  },
  /** A case's provenance graph as W3C PROV-JSON (what you can see of it). */
  'prov:export': {
    request: z.object({ path: FilePath }).strict(),
    response: z.object({ path: z.string(), bytes: z.number().int(), sha256: z.string(), entities: z.number().int(), relations: z.number().int() }),
  },
  /** A W3C PROV-JSON document into the case's provenance graph; declared nodes go into the given compartment. */
  'prov:import': {
    request: z
      .object({
        path: FilePath,
        tenant: z.string().min(1).max(512),
        classification: Classification,
        maxBytes: z.number().int().min(1).max(1024 ** 3).default(64 * 1024 ** 2),
      })
      .strict(),
    response: ProvImportReport,
  },
  /** The whole case as one archive signed by you: receipts and public keys, never a private key. */
  'case:handoffExport': {
    request: z.object({ path: FilePath }).strict(),
    response: z.object({ path: z.string(), bytes: z.number().int(), manifest: HandoffManifest }),
  },
  /** Verifies a hand-off archive (hash, whole chain, signature) and only then places its case at `path`. */
  'case:handoffImport': {
    request: z.object({ archive: FilePath, path: FilePath }).strict(),
    response: z.object({ path: z.string(), manifest: HandoffManifest, verified: z.string() }),
  },
  'bundle:export': {
    request: z.object({ path: FilePath, format: z.enum(['ndjson', 'json']).default('ndjson') }).strict(),
    response: z.object({ path: z.string(), records: z.number().int(), bytes: z.number().int(), sha256: z.string() }),
  },
} as const;
