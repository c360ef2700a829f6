import { useShallow } from 'zustand/react/shallow';
import { transport } from '../bridge';
import { selectStatusBar } from '../state/selectors';
import { useWorkbench } from '../state/store';

export function StatusBar() {
  const { caseInfo, chain, caseError, gate } = useWorkbench(useShallow(selectStatusBar));
  return (
    <footer className="status" data-testid="status-bar">
      <span data-testid="status-case">{caseInfo ? `Case: ${caseInfo.name}` : caseError ? `No case: ${caseError}` : 'Loading…'}</span>
      {caseInfo && (
        <span data-testid="status-actor">
          {caseInfo.actor ? `Acting as ${caseInfo.actor.displayName} (${caseInfo.actor.role})` : 'Locked: no reviewer unlocked in this window'}
        </span>
      )}
      {chain && (
        <span data-testid="status-chain" className={chain.ok ? 'ok' : 'bad'}>
          Audit chain {chain.ok ? `verified (${chain.length})` : `BROKEN at seq ${chain.firstBroken?.seq}`}
        </span>
      )}
      {gate && (
        <span data-testid="status-gate" className={gate.final ? 'ok' : undefined}>
          {gate.final ? 'FINAL' : `DRAFT: ${gate.total.toLocaleString('en')} blocker${gate.total === 1 ? '' : 's'}`}
        </span>
      )}
      <span data-testid="status-transport" className="transport">
        {transport === 'electron' ? 'Desktop (Electron IPC)' : 'Browser mode (loopback 127.0.0.1)'}
      </span>
    </footer>
  );
}
