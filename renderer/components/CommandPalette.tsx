import { useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { SearchHit } from '../../shared/ipc/channels/search';
import { useWorkbench } from '../state/store';
import { matchCommands, type Command } from './commands';
import { InertLabel } from './InertLabel';
import { useCaseSearch } from './useCaseSearch';
import { VIEW_ITEMS } from './NavBar';

type Item = { kind: 'command'; command: Command } | { kind: 'hit'; hit: SearchHit };

/**
 * Ctrl/Cmd+K (or "/" outside a text field): one box for commands ("go to disputes", "check the
 * audit chain", "import a file…") and for claims and evidence anywhere in the case (search:query,
 * full text, within your clearance). Arrow keys choose, Enter runs, Escape closes.
 */
export function CommandPalette({ enabled }: { enabled: boolean }) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      const typing = e.target instanceof HTMLElement && (e.target.closest('input, textarea, select, [contenteditable="true"]') !== null);
      if ((e.key === 'k' || e.key === 'K') && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        setOpen((o) => !o);
      } else if (e.key === '/' && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
  if (!enabled || !open) return null;
  return <Palette onClose={() => setOpen(false)} />;
}

function Palette({ onClose }: { onClose: () => void }) {
  const actions = useWorkbench(
    useShallow((s) => ({ setView: s.setView, focusGraph: s.focusGraph, selectGraphNode: s.selectGraphNode, selectRevision: s.selectRevision, verifyFully: s.verifyFully, lock: s.lock })),
  );
  const [q, setQ] = useState('');
  const [active, setActive] = useState(0);
  const { hits, error } = useCaseSearch(q, 8, 150);
  const input = useRef<HTMLInputElement>(null);
  const back = useRef<Element | null>(document.activeElement);

  useEffect(() => {
    input.current?.focus();
    const returnTo = back.current;
    // Closing gives focus back to where it was.
    return () => (returnTo instanceof HTMLElement ? returnTo.focus() : undefined);
  }, []);

  const commands = useMemo<Command[]>(
    () => [
      ...VIEW_ITEMS.map((v) => ({ id: `view:${v.view}`, label: `Go to ${v.label}`, run: () => actions.setView(v.view) })),
      { id: 'graph:disputes', label: 'Open the graph on the disputes', keywords: 'mixed disputed', run: () => (actions.setView('graph'), void actions.focusGraph({ kind: 'disputes' })) },
      { id: 'graph:case', label: 'Open the graph on the whole case', run: () => (actions.setView('graph'), void actions.focusGraph({ kind: 'case' })) },
      { id: 'audit:verify', label: 'Check the whole audit chain', keywords: 'verify signatures receipts', run: () => (actions.setView('audit'), void actions.verifyFully()) },
      {
        id: 'file:import',
        label: 'Import a file…',
        keywords: 'bundle stix prov json ndjson',
        run: () => document.querySelector<HTMLInputElement>('[data-testid="file-menu-picker"]')?.click(),
      },
      { id: 'file:export', label: 'Export, reports and hand-off…', keywords: 'bundle stix prov report pdf', run: () => actions.setView('cases') },
      { id: 'window:lock', label: 'Lock this window', keywords: 'reviewer switch', run: () => void actions.lock() },
    ],
    [actions],
  );

  // A new query starts the choice at its first item.
  useEffect(() => setActive(0), [q]);

  const items: Item[] = [...matchCommands(q, commands).map((command) => ({ kind: 'command' as const, command })), ...(hits?.items ?? []).map((hit) => ({ kind: 'hit' as const, hit }))];
  const run = (item: Item | undefined) => {
    if (!item) return;
    onClose();
    if (item.kind === 'command') return item.command.run();
    const { hit } = item;
    if (hit.kind === 'claim') {
      actions.setView('graph');
      void actions.focusGraph({ kind: 'claim', id: hit.id });
      actions.selectGraphNode({ kind: 'claim', id: hit.id });
    } else {
      actions.setView('evidence');
      actions.selectRevision(hit.id);
    }
  };

  return (
    <div className="palette-backdrop" onMouseDown={onClose}>
      <div className="palette" role="dialog" aria-modal="true" aria-label="Commands and search" data-testid="palette" onMouseDown={(e) => e.stopPropagation()}>
        <input
          ref={input}
          type="search"
          data-testid="palette-input"
          aria-label="Type a command, or words of a claim or evidence item"
          aria-controls="palette-items"
          aria-activedescendant={items[active] ? `palette-item-${active}` : undefined}
          placeholder="Type a command, or search claims and evidence…"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setActive((a) => Math.min(items.length - 1, a + 1));
            else if (e.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1));
            else if (e.key === 'Enter') run(items[active]);
            else if (e.key === 'Escape') onClose();
            else return;
            e.preventDefault();
          }}
        />
        <ul className="plain palette-items" id="palette-items" role="listbox" data-testid="palette-items">
          {items.map((item, i) => (
            <li
              key={item.kind === 'command' ? item.command.id : `${item.hit.kind}:${item.hit.id}`}
              id={`palette-item-${i}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : undefined}
              data-testid={item.kind === 'command' ? `palette-command-${item.command.id}` : `palette-hit-${item.hit.id}`}
              onMouseEnter={() => setActive(i)}
              onClick={() => run(item)}
            >
              {item.kind === 'command' ? (
                item.command.label
              ) : (
                <>
                  <span className="tag">{item.hit.kind}</span> <code className="small">{item.hit.id}</code> <InertLabel text={item.hit.title} />
                </>
              )}
            </li>
          ))}
          {error && <li className="error small">Search failed: {error}</li>}
          {q.trim().length >= 2 && hits && hits.items.length === 0 && <li className="muted small">No claim or evidence visible to you matches.</li>}
          {hits && hits.total > hits.items.length && <li className="muted small">{hits.total - hits.items.length} more matches: type more words to narrow.</li>}
        </ul>
        <p className="muted small palette-help">↑↓ choose · Enter run · Esc close · Ctrl+K or / opens this anywhere</p>
      </div>
    </div>
  );
}
