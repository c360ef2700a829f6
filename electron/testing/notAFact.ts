/**
 * Test helper (not a test): the tables and columns of a case file that are not facts, so verify
 * does not hold them to a receipt, each with why. stateCoverage.test.ts holds every other column
 * to the rule that an edit of it is caught; a team pull is held to the same rule
 * (team/pullVerification.test.ts).
 */
export const NOT_A_FACT: Record<string, string> = {
  // Derived indexes, rebuilt from facts that are themselves verified.
  claim_search_key: 'full-text search key, derived from the claim',
  evidence_search_key: 'full-text search key, derived from the revision',
  copy_band: 'LSH buckets, derived from the verified copy signature',
  claim_change: 'which claims a write touched, for readers that keep derivations between reads; nothing is decided from it',
  revision_count: 'revisions per compartment and state for the dashboard, kept by triggers from the verified revisions and validation runs',
  receipt_target: 'which receipts name a target, kept by a trigger from the verified receipts, for verifying a pull',
  // The worker's bookkeeping: leases and progress, not facts; what it decided is in its receipts.
  fence_progress: 'convergence progress counters for the revocation view',
  'outbox_job.attempts': 'lease bookkeeping',
  'outbox_job.lease_owner': 'lease bookkeeping',
  'outbox_job.lease_expires_at': 'lease bookkeeping',
  'outbox_job.created_at_ms': 'lease bookkeeping',
  'outbox_job.done_at_ms': 'convergence timing for the metrics',
  'outbox_job.converged': 'convergence counter for the metrics',
  'revocation_fence.fenced_at_ms': 'convergence timing for the metrics',
  // A team replica's own bookkeeping (issue 15): which rows to send on the next push, and where it
  // stands with the server. What the rows it sends say is held to their receipts on every replica.
  replica_state: 'whether this replica captures writes, and the last seq it shares with the server',
  replica_dirty: 'rows written since the last push, to be sent with it',
  replica_pending: 'the requests of actions not yet pushed, to take them again on a newer head; their receipts are the facts',
  replica_conflict: 'actions that were stale on a newer head, shown to their author to redo or drop',
  // Surrogate keys nothing else refers to by value.
  'copy_signature.sig_id': 'surrogate key of the LSH index',
  'prov_edge.edge_id': 'surrogate key; an edge is its (type, subject, object)',
};
