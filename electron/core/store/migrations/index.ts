import { m0010_case } from './0010-case';
import { m0020_evidence } from './0020-evidence';
import { m0030_claims } from './0030-claims';
import { m0040_audit } from './0040-audit';
import { m0100_validation } from './0100-validation';
import { m0110_sources } from './0110-sources';
import { m0120_provenance } from './0120-provenance';
import { m0130_search } from './0130-search';
import { m0200_signatures } from './0200-signatures';
import { m0210_decisions } from './0210-decisions';
import { m0220_review_votes } from './0220-review-votes';
import { m0300_revocation } from './0300-revocation';
import { m0310_remediation } from './0310-remediation';
import { m0320_fence_causes } from './0320-fence-causes';
import { m0330_copies } from './0330-copies';
import { m0340_copies_by_content } from './0340-copies-by-content';
import { m0400_claim_changes } from './0400-claim-changes';
import { m0410_revisions_by_source } from './0410-revisions-by-source';
import { m0420_timeline } from './0420-timeline';
import { m0430_computations } from './0430-computations';
import { m0440_queue_counts } from './0440-queue-counts';
import { m0450_claim_order } from './0450-claim-order';
import { m0460_revision_counts } from './0460-revision-counts';
import { m0470_evidence_labels } from './0470-evidence-labels';
import { m0480_sealed_receipts } from './0480-sealed-receipts';
import { m0490_replica_capture } from './0490-replica-capture';
import { m0500_receipt_targets } from './0500-receipt-targets';
import type { Migration } from './migration';

/** Ordered by version; a case file's `PRAGMA user_version` is the last one applied. */
export const MIGRATIONS: readonly Migration[] = [
  m0010_case,
  m0020_evidence,
  m0030_claims,
  m0040_audit,
  m0100_validation,
  m0110_sources,
  m0120_provenance,
  m0130_search,
  m0200_signatures,
  m0210_decisions,
  m0220_review_votes,
  m0300_revocation,
  m0310_remediation,
  m0320_fence_causes,
  m0330_copies,
  m0340_copies_by_content,
  m0400_claim_changes,
  m0410_revisions_by_source,
  m0420_timeline,
  m0430_computations,
  m0440_queue_counts,
  m0450_claim_order,
  m0460_revision_counts,
  m0470_evidence_labels,
  m0480_sealed_receipts,
  m0490_replica_capture,
  m0500_receipt_targets,
];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
