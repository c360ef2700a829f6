import type { HandlerTable } from './dispatch';
import { auditHandlers } from './handlers/audit';
import { caseHandlers } from './handlers/case';
import { claimHandlers } from './handlers/claims';
import { evidenceHandlers } from './handlers/evidence';

/**
 * The one implementation of every channel; Electron IPC, the loopback host and the CLI share it.
 * Typed as the full table, so a channel added to the contract without a handler fails to compile.
 */
export const handlers: HandlerTable = {
  ...caseHandlers,
  ...evidenceHandlers,
  ...claimHandlers,
  ...auditHandlers,
};
