import { useEffect, useState } from 'react';
import { useWorkbench } from '../state/store';

const carriesFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');

/**
 * Drag-and-drop onto the window: a file dropped anywhere is imported into the open case (format
 * read from the file), with the import dialog's progress. Only one file at a time: an import is
 * one transaction, and two files would be two.
 */
export function FileDrop({ enabled }: { enabled: boolean }) {
  const startImport = useWorkbench((s) => s.startImport);
  const [over, setOver] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let depth = 0;
    const enter = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth++;
      setOver(true);
    };
    // A drop target inside the window (the evidence form's content box) takes its own drops:
    // it prevents the default first, and the window then neither highlights nor imports.
    const overWindow = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      setOver(!e.defaultPrevented);
      if (e.defaultPrevented) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const leave = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const drop = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth = 0;
      setOver(false);
      if (e.defaultPrevented) return;
      e.preventDefault();
      const files = Array.from(e.dataTransfer?.files ?? []);
      if (files.length !== 1) {
        setRefused(`Drop one file at a time (${files.length} were dropped): each import is one transaction.`);
        return;
      }
      setRefused(null);
      void startImport(files[0]!);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', overWindow);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', overWindow);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [enabled, startImport]);
  return (
    <>
      {over && (
        <div className="drop-overlay" data-testid="drop-overlay">
          <p>Drop an evidence bundle (NDJSON or JSON), a STIX 2.1 bundle or a PROV-JSON document to import it into this case</p>
        </div>
      )}
      {refused && (
        <p className="error drop-refused" role="alert" data-testid="drop-refused" onClick={() => setRefused(null)}>
          {refused}
        </p>
      )}
    </>
  );
}
