import { COMPUTATION_CASE_CHECKS, COMPUTATION_STATE_CHECKS } from '../services/computationChecks';
import { RECEIPT_CASE_CHECKS, RECEIPT_STATE_CHECKS } from '../services/receiptChecks';
import { REVOCATION_CASE_CHECKS, REVOCATION_STATE_CHECKS } from '../services/revocationChecks';
import { CORE_CASE_CHECKS, CORE_STATE_CHECKS } from './coreStateChecks';
import type { CaseStateCheck, StateCheck } from './stateChecks';

/**
 * Every state check verification runs (DESIGN §3.7), in one list: verify.ts imports this, so
 * which checks run never depends on which modules some entry point happened to load.
 */
export const STATE_CHECKS: readonly StateCheck[] = [...CORE_STATE_CHECKS, ...RECEIPT_STATE_CHECKS, ...REVOCATION_STATE_CHECKS, ...COMPUTATION_STATE_CHECKS];

/** Checks of the case as a whole, run once after the chain verified. */
export const CASE_STATE_CHECKS: readonly CaseStateCheck[] = [...CORE_CASE_CHECKS, ...RECEIPT_CASE_CHECKS, ...REVOCATION_CASE_CHECKS, ...COMPUTATION_CASE_CHECKS];
