import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useWorkbench } from '../state/store';

/**
 * File > Import… / Export… inside the window (the browser has no native menu; in Electron the
 * native File menu sends the same commands, see App). Import picks a file and runs it as a job;
 * Export and reports live in the Cases view's bundle panel, which this opens.
 */
export function FileMenu({ enabled }: { enabled: boolean }) {
  const { startImport, setView } = useWorkbench(useShallow((s) => ({ startImport: s.startImport, setView: s.setView })));
  const [open, setOpen] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) first.current?.focus();
  }, [open]);
  return (
    <div className="file-menu" onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
      <button type="button" className="nav-item" aria-haspopup="menu" aria-expanded={open} data-testid="file-menu" disabled={!enabled} onClick={() => setOpen(!open)}>
        File ▾
      </button>
      {open && (
        <div className="file-menu-items" role="menu" data-testid="file-menu-items">
          <button
            ref={first}
            type="button"
            role="menuitem"
            data-testid="file-menu-import"
            onClick={() => {
              setOpen(false);
              picker.current?.click();
            }}
          >
            Import file… (bundle, STIX, PROV-JSON)
          </button>
          <button
            type="button"
            role="menuitem"
            data-testid="file-menu-export"
            onClick={() => {
              setOpen(false);
              setView('cases');
              requestAnimationFrame(() => document.querySelector('[data-testid="bundle-panel"]')?.scrollIntoView({ block: 'start' }));
            }}
          >
            Export, reports and hand-off…
          </button>
        </div>
      )}
      <input
        ref={picker}
        type="file"
        hidden
        data-testid="file-menu-picker"
        accept=".ndjson,.json,.jsonl"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void startImport(file);
        }}
      />
    </div>
  );
}
