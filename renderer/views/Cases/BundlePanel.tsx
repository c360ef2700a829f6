import { useState, type ReactNode } from 'react';
import { EnumSelect } from '../../components/EnumSelect';
import type { ResponseOf } from '../../../shared/ipc/contract';
import { call, transport } from '../../bridge';
import { ErrorNotice } from '../../components/ErrorNotice';
import { actionErrorOf } from '../../state/actionError';
import { useWorkbench } from '../../state/store';
import type { ActionError } from '../../state/types';

// PDF files are printed by the desktop app (Electron's printToPDF); a browser prints through its dialog instead.
const REPORT_FORMATS = transport === 'electron' ? (['html', 'markdown', 'pdf'] as const) : (['html', 'markdown'] as const);
const REPORT_LABEL = { html: 'HTML (printable)', markdown: 'Markdown', pdf: 'PDF' } as const;

/**
 * The report in this window's print dialog: its HTML in a hidden frame that runs no script
 * (sandboxed; same origin only so this window may call print on it), removed after printing.
 */
async function printReport(): Promise<void> {
  const { html } = await call('report:render', {});
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-same-origin allow-modals');
  frame.setAttribute('data-testid', 'report-print-frame');
  frame.style.position = 'fixed';
  frame.style.width = '0';
  frame.style.height = '0';
  frame.style.border = '0';
  await new Promise<void>((done) => {
    frame.onload = () => done();
    frame.srcdoc = html;
    document.body.appendChild(frame);
  });
  frame.contentWindow?.print();
  // Kept until the next print: some browsers print asynchronously from the frame.
  document.querySelectorAll('[data-testid="report-print-frame"]').forEach((f) => f !== frame && f.remove());
}

/** A file path and the action that takes it; extra controls (a format) go between them. */
function PathAction({ testId, placeholder, caption, busy, onRun, children }: { testId: string; placeholder: string; caption: string; busy: boolean; onRun: (path: string) => Promise<void>; children?: ReactNode }) {
  const [path, setPath] = useState('');
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        void onRun(path);
      }}
    >
      <input data-testid={`${testId}-path`} className="grow mono" placeholder={placeholder} value={path} onChange={(e) => setPath(e.target.value)} />
      {children}
      <button type="submit" data-testid={`${testId}-submit`} disabled={busy || path.length === 0}>
        {busy ? 'Working…' : caption}
      </button>
    </form>
  );
}

/** Evidence bundles in and out of the open case (README: "Evidence bundles"). */
export function BundlePanel() {
  const startImport = useWorkbench((s) => s.startImport);
  const [format, setFormat] = useState<'ndjson' | 'json' | 'stix'>('ndjson');
  const [busy, setBusy] = useState(false);
  const [exported, setExported] = useState<(ResponseOf<'bundle:export'> & { unit: string }) | null>(null);
  const [reportFormat, setReportFormat] = useState<'html' | 'markdown' | 'pdf'>('html');
  const [written, setWritten] = useState<ResponseOf<'report:write'> | null>(null);
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
  // An import runs as a job with the window's progress dialog (the same as a dropped file).
  const importFile = (path: string) => startImport(path);
  const exportBundle = (path: string) =>
    run(async () => {
      setExported(null);
      if (format === 'stix') {
        const out = await call('stix:export', { path });
        setExported({ path: out.path, records: out.objects, bytes: out.bytes, sha256: out.sha256, unit: 'STIX objects' });
      } else setExported({ ...(await call('bundle:export', { path, format })), unit: 'records' });
    });
  const writeReport = (path: string) =>
    run(async () => {
      setWritten(null);
      setWritten(await call('report:write', { path, format: reportFormat }));
    });
  const handOff = (path: string) =>
    run(async () => {
      setHandedOff(null);
      setHandedOff(await call('case:handoffExport', { path }));
    });
  return (
    <section className="panel" data-testid="bundle-panel">
      <h2>Evidence bundles and reports</h2>
      <p className="muted">
        Import evidence bundles (NDJSON or JSON) from tools, agents and colleagues, STIX 2.1 or 2.0 bundles from threat-intel feeds, or W3C PROV-JSON (or drop the file anywhere on the window): every record is
        validated first, screened on the way in, and the whole file is written in one transaction or not at all, with progress and Cancel. Export
        writes what you can see.
      </p>
      <PathAction testId="bundle-import" placeholder="/evidence/incident-2232.ndjson" caption="Import file" busy={busy} onRun={importFile} />
      <PathAction testId="bundle-export" placeholder="/evidence/handoff.ndjson" caption="Export bundle" busy={busy} onRun={exportBundle}>
        <EnumSelect values={['ndjson', 'json', 'stix'] as const} value={format} onChange={setFormat} testId="bundle-export-format" ariaLabel="Export format" label={(f) => (f === 'stix' ? 'STIX 2.1' : `bundle, ${f.toUpperCase()}`)} />
      </PathAction>
      <PathAction testId="report" placeholder="/reports/ir-2231.html" caption="Write case report" busy={busy} onRun={writeReport}>
        <EnumSelect values={REPORT_FORMATS} value={reportFormat} onChange={setReportFormat} testId="report-format" ariaLabel="Report format" label={(f) => REPORT_LABEL[f]} />
      </PathAction>
      <div className="row">
        <button type="button" className="secondary" data-testid="report-print" disabled={busy} onClick={() => void run(printReport)}>
          Print case report…
        </button>
        <span className="muted small">Opens the print dialog with the report; choose "Save as PDF" there for a PDF.</span>
      </div>
      <PathAction testId="handoff" placeholder="/media/usb/ir-2231.erwb" caption="Hand off the whole case (signed)" busy={busy} onRun={handOff} />
      {error && <ErrorNotice error={error} testId="bundle-error" />}
      {exported && (
        <p data-testid="bundle-export-report">
          Wrote {exported.records.toLocaleString('en')} {exported.unit} ({exported.bytes.toLocaleString('en')} bytes) to <span className="mono">{exported.path}</span>;
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
