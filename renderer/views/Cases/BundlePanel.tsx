import { useState } from 'react';
import type { ImportReport } from '../../../shared/ipc/channels/interchange';
import type { ResponseOf } from '../../../shared/ipc/contract';
import { call } from '../../bridge';
import { ErrorNotice } from '../../components/ErrorNotice';
import { actionErrorOf } from '../../state/actionError';
import { useWorkbench } from '../../state/store';
import type { ActionError } from '../../state/types';

const KINDS = ['evidence', 'claims', 'bindings', 'sources', 'prov'] as const;
const NOUN: Record<(typeof KINDS)[number], [string, string]> = {
  evidence: ['evidence revision', 'evidence revisions'],
  claims: ['claim', 'claims'],
  bindings: ['binding', 'bindings'],
  sources: ['source document', 'source documents'],
  prov: ['provenance record', 'provenance records'],
};

/** What an import did, in the words an analyst checks it by: what came in, what was held back. */
function ImportSummary({ report }: { report: ImportReport }) {
  const counts = (c: ImportReport['created']) =>
    KINDS.filter((k) => c[k] > 0)
      .map((k) => `${c[k].toLocaleString('en')} ${NOUN[k][c[k] === 1 ? 0 : 1]}`)
      .join(', ') || 'nothing';
  return (
    <div data-testid="bundle-import-report">
      <p>
        <b>{report.records.toLocaleString('en')} records.</b> Added: <span data-testid="bundle-import-created">{counts(report.created)}</span>. Already in
        the case, unchanged: <span data-testid="bundle-import-unchanged">{counts(report.unchanged)}</span>.
      </p>
      {report.quarantined.length > 0 && (
        <p data-testid="bundle-import-quarantined">
          Quarantined by screening ({report.quarantined.length}): <span className="mono">{report.quarantined.join(', ')}</span>
        </p>
      )}
      {report.lifecycleNotApplied.length > 0 && (
        <>
          <p>States the bundle reported that were not applied:</p>
          <ul className="plain" data-testid="bundle-import-not-applied">
            {report.lifecycleNotApplied.map((n) => (
              <li key={`${n.at}-${n.revisionId}`}>
                <span className="mono">{n.revisionId}</span> reported {n.reported}, kept {n.kept} <span className="muted">({n.at}: {n.reason})</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {report.renamed.length > 0 && (
        <p data-testid="bundle-import-renamed">
          Stored under their scope: {report.renamed.map((r) => `${r.name} → ${r.id}`).join(', ')}
        </p>
      )}
      <p className="muted mono">bundle SHA-256 {report.bundleSha256}</p>
    </div>
  );
}

/** Evidence bundles in and out of the open case (README: "Evidence bundles"). */
export function BundlePanel() {
  const refreshAll = useWorkbench((s) => s.refreshAll);
  const [importPath, setImportPath] = useState('');
  const [exportPath, setExportPath] = useState('');
  const [format, setFormat] = useState<'ndjson' | 'json'>('ndjson');
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [exported, setExported] = useState<ResponseOf<'bundle:export'> | null>(null);
  const [reportPath, setReportPath] = useState('');
  const [reportFormat, setReportFormat] = useState<'html' | 'markdown'>('html');
  const [written, setWritten] = useState<ResponseOf<'report:write'> | null>(null);
  const [handoffPath, setHandoffPath] = useState('');
  const [handedOff, setHandedOff] = useState<ResponseOf<'case:handoffExport'> | null>(null);
  const [error, setError] = useState<ActionError | null>(null);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(actionErrorOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="panel" data-testid="bundle-panel">
      <h2>Evidence bundles and reports</h2>
      <p className="muted">
        Import NDJSON or JSON bundles from tools, agents and colleagues: every record is validated first, screened on the way in, and the whole bundle
        is written in one transaction or not at all. Export writes what you can see.
      </p>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            setReport(null);
            setReport(await call('bundle:import', { path: importPath }));
            await refreshAll();
          });
        }}
      >
        <input data-testid="bundle-import-path" className="grow mono" placeholder="/evidence/incident-2232.ndjson" value={importPath} onChange={(e) => setImportPath(e.target.value)} />
        <button type="submit" data-testid="bundle-import-submit" disabled={busy || importPath.length === 0}>
          {busy ? 'Working…' : 'Import bundle'}
        </button>
      </form>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            setExported(null);
            setExported(await call('bundle:export', { path: exportPath, format }));
          });
        }}
      >
        <input data-testid="bundle-export-path" className="grow mono" placeholder="/evidence/handoff.ndjson" value={exportPath} onChange={(e) => setExportPath(e.target.value)} />
        <select data-testid="bundle-export-format" value={format} onChange={(e) => setFormat(e.target.value as 'ndjson' | 'json')}>
          <option value="ndjson">NDJSON</option>
          <option value="json">JSON</option>
        </select>
        <button type="submit" data-testid="bundle-export-submit" disabled={busy || exportPath.length === 0}>
          Export bundle
        </button>
      </form>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            setWritten(null);
            setWritten(await call('report:write', { path: reportPath, format: reportFormat }));
          });
        }}
      >
        <input data-testid="report-path" className="grow mono" placeholder="/reports/ir-2231.html" value={reportPath} onChange={(e) => setReportPath(e.target.value)} />
        <select data-testid="report-format" value={reportFormat} onChange={(e) => setReportFormat(e.target.value as 'html' | 'markdown')}>
          <option value="html">HTML (printable)</option>
          <option value="markdown">Markdown</option>
        </select>
        <button type="submit" data-testid="report-submit" disabled={busy || reportPath.length === 0}>
          Write case report
        </button>
      </form>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            setHandedOff(null);
            setHandedOff(await call('case:handoffExport', { path: handoffPath }));
          });
        }}
      >
        <input data-testid="handoff-path" className="grow mono" placeholder="/media/usb/ir-2231.erwb" value={handoffPath} onChange={(e) => setHandoffPath(e.target.value)} />
        <button type="submit" data-testid="handoff-submit" disabled={busy || handoffPath.length === 0}>
          Hand off the whole case (signed)
        </button>
      </form>
      {error && <ErrorNotice error={error} testId="bundle-error" />}
      {report && <ImportSummary report={report} />}
      {exported && (
        <p data-testid="bundle-export-report">
          Wrote {exported.records.toLocaleString('en')} records ({exported.bytes.toLocaleString('en')} bytes) to <span className="mono">{exported.path}</span>;
          SHA-256 <span className="mono">{exported.sha256}</span>
        </p>
      )}
      {handedOff && (
        <p data-testid="handoff-written">
          Archive written to <span className="mono">{handedOff.path}</span> ({handedOff.bytes.toLocaleString('en')} bytes), signed by {handedOff.manifest.exportedBy.actorId} at chain
          head <span className="mono">{handedOff.manifest.head}</span>. It holds receipts and public keys, never a private key.
        </p>
      )}
      {written && (
        <p data-testid="report-written">
          Report written to <span className="mono">{written.path}</span> ({written.bytes.toLocaleString('en')} bytes, SHA-256 <span className="mono">{written.sha256}</span>). Open it
          in a browser to read or print it.
        </p>
      )}
    </section>
  );
}
