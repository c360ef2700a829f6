import type { HandlersFor } from '../dispatch';
import { verifyOpenCase } from './caseVerification';
import { exportBundle } from '../interchange/bundleExport';
import { applyBundle } from '../interchange/bundleImport';
import { readBundle } from '../interchange/bundleRead';
import { exportHandoff, importHandoff } from '../interchange/handoff';
import { startFileImport } from '../interchange/importers';
import { cancelImport, importProgress } from '../interchange/importJobs';
import { exportProvJson, importProvJson } from '../interchange/provJson';
import { renderReport, writeReport } from '../interchange/report';

export const interchangeHandlers = {
  // Read and validate the whole file first (streamed, nothing written), then apply it in one transaction.
  'bundle:import': async (s, req) => {
    const bundle = await readBundle(req.path, req.maxBytes === undefined ? {} : { maxBytes: req.maxBytes });
    return applyBundle(s.context(), bundle);
  },
  'import:start': (s, req) => startFileImport(s, req),
  'import:progress': (s, req) => importProgress(s, req.jobId),
  'import:cancel': (s, req) => cancelImport(s, req.jobId),
  'bundle:export': (s, req) => exportBundle(s.context(), req.path, req.format),
  // A report shows the completion gate, with the audit chain verified as case:gate verifies it.
  'report:write': async (s, req) => {
    const ctx = s.context();
    return writeReport(ctx, await verifyOpenCase(s, { full: false }), req.path, req.format, s.session.printPdf);
  },
  'report:render': async (s) => {
    const ctx = s.context();
    return renderReport(ctx, await verifyOpenCase(s, { full: false }));
  },
  'prov:export': (s, req) => exportProvJson(s.context(), req.path),
  'prov:import': (s, req) => importProvJson(s.context(), req),
  'case:handoffExport': (s, req) => exportHandoff(s.context(), req.path),
  // Needs no open case and no reviewer: what it trusts is the archive's own verified chain.
  'case:handoffImport': (_s, req) => importHandoff(req.archive, req.path),
} satisfies HandlersFor<'bundle:import' | 'import:start' | 'import:progress' | 'import:cancel' | 'bundle:export' | 'report:write' | 'report:render' | 'prov:export' | 'prov:import' | 'case:handoffExport' | 'case:handoffImport'>;
