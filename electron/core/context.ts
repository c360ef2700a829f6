import type { Classification, Role } from '../../shared/domain/enums';
import type { KeySource } from './audit/keys';
import type { CaseDb } from './store/caseFile';

export interface Actor {
  actorId: string;
  displayName: string;
  role: Role;
  tenants: string[];
  maxClassification: Classification;
}

/** What every service call runs with: the open case, who is acting, and the clock. */
export interface ServiceContext {
  db: CaseDb;
  actor: Actor;
  now: () => string;
  /** This machine's reviewer keys for the open case; appendReceipt signs with the actor's key. */
  keyring?: KeySource;
  /**
   * 'at-run-end' (an import, see signedAtRunEnd): receipts are written with their signer and no
   * signature, and one signed receipt closes the run before the transaction commits. Default:
   * every receipt is signed as it is written.
   */
  signatures?: 'each' | 'at-run-end';
}

export const systemClock = (): string => new Date().toISOString();
