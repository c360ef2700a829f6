import { z } from 'zod';
import { Classification } from '../../domain/enums';
import { ErrorCode } from '../envelope';
import { FilePath, ImportReport, ProvImportReport } from './interchange';
import { StixImportReport } from './stix';

/**
 * Imports as jobs (issue 10.7): any import format, from a path or a file the browser uploaded,
 * started, followed and cancelled; the work runs on the host (electron/core/interchange/importJobs.ts).
 */
export const IMPORT_FORMATS = ['bundle', 'stix', 'prov'] as const;
export const ImportFormat = z.enum(IMPORT_FORMATS);
export type ImportFormat = z.infer<typeof ImportFormat>;

/** A file the loopback host received from the browser (POST /upload), named by the id it answered. */
export const UploadId = z.string().max(27).regex(/^up-[A-Za-z0-9_-]{24}$/, 'expected the id POST /upload answered');

/** Where an import job stands; `percent` counts reading the file as its first tenth. */
export const ImportProgress = z.object({
  jobId: z.string(),
  format: ImportFormat,
  path: z.string(),
  phase: z.enum(['reading', 'applying', 'done', 'failed', 'cancelled']),
  /** Records applied so far, of `total` (known once the file is read and validated). */
  done: z.number().int(),
  total: z.number().int().nullable(),
  bytesRead: z.number().int(),
  bytesTotal: z.number().int().nullable(),
  recordsPerSecond: z.number().nullable(),
  percent: z.number().int().min(0).max(100),
  elapsedMs: z.number().int(),
  report: z.union([StixImportReport, ImportReport, ProvImportReport]).nullable(),
  error: z.object({ code: ErrorCode, message: z.string() }).nullable(),
});
export type ImportProgress = z.infer<typeof ImportProgress>;

export const importJobChannels = {
  /**
   * Starts importing a file (a path on this machine, or a file the browser uploaded) and answers
   * at once; `import:progress` follows it, `import:cancel` stops it with nothing written. The
   * format is read from the file unless given. While it applies, the case answers BUSY.
   */
  'import:start': {
    request: z
      .object({
        source: z.union([
          z.object({ path: FilePath }).strict(),
          /** `name` is the file's name on the user's side, shown in progress and errors (the inbox path means nothing to them). */
          z.object({ upload: UploadId, name: z.string().min(1).max(255).regex(/^[^\u0000-\u001f\u007f/]*$/, 'a file name without control characters or /').optional() }).strict(),
        ]),
        format: z.enum(['auto', ...IMPORT_FORMATS]).default('auto'),
        /** Refuse files larger than this many bytes (default 1 GiB). */
        maxBytes: z.number().int().min(1).max(1024 ** 4).optional(),
        /**
         * STIX and PROV-JSON: the tenant objects or declared nodes are filed under (default: your only
         * tenant or the case's home tenant), and the classification of what carries no marking (default internal).
         */
        tenant: z.string().min(1).max(512).optional(),
        classification: Classification.optional(),
      })
      .strict(),
    response: ImportProgress,
  },
  'import:progress': { request: z.object({ jobId: z.string().min(1).max(64) }).strict(), response: ImportProgress },
  'import:cancel': { request: z.object({ jobId: z.string().min(1).max(64) }).strict(), response: ImportProgress },
} as const;
