import type { HandlerTable } from './dispatch';
import { auditHandlers } from './handlers/audit';
import { caseHandlers } from './handlers/case';
import { claimHandlers } from './handlers/claims';
import { computationHandlers } from './handlers/computations';
import { decisionHandlers } from './handlers/decisions';
import { drillHandlers } from './handlers/drill';
import { teamHandlers } from './handlers/team';
import { evidenceHandlers } from './handlers/evidence';
import { gateHandlers } from './handlers/gate';
import { interchangeHandlers } from './handlers/interchange';
import { stixHandlers } from './handlers/stix';
import { provenanceHandlers } from './handlers/provenance';
import { reviewHandlers } from './handlers/review';
import { revocationHandlers } from './handlers/revocation';
import { searchHandlers } from './handlers/search';
import { graphHandlers } from './handlers/graph';
import { timelineHandlers } from './handlers/timeline';
import { whatIfHandlers } from './handlers/whatIf';
import { sourceHandlers } from './handlers/sources';

/**
 * The one implementation of every channel; Electron IPC, the loopback host and the CLI share it.
 * Typed as the full table, so a channel added to the contract without a handler fails to compile.
 */
export const handlers: HandlerTable = {
  ...caseHandlers,
  ...evidenceHandlers,
  ...claimHandlers,
  ...computationHandlers,
  ...sourceHandlers,
  ...provenanceHandlers,
  ...interchangeHandlers,
  ...stixHandlers,
  ...searchHandlers,
  ...graphHandlers,
  ...timelineHandlers,
  ...whatIfHandlers,
  ...decisionHandlers,
  ...reviewHandlers,
  ...gateHandlers,
  ...revocationHandlers,
  ...auditHandlers,
  ...drillHandlers,
  ...teamHandlers,
};
