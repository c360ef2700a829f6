/** How a verification of the receipt chain runs (verify.ts), and where a verified chain stands. */
export interface VerifyOptions {
  expectedHead?: string;
  /**
   * 'every' verifies each receipt's Ed25519 signature. 'run-ends' verifies only the last receipt
   * of each run of receipts signed by one key. That is sound against anyone who changes the file
   * without that key: a receipt's hash covers the previous hash and the previous signature, so
   * the run's last signature commits its key to every receipt of the run, and any edit, insertion,
   * removal or swapped signature inside the run makes it fail (appendReceipt also refuses to sign
   * on top of a receipt whose signature does not verify, so an honest signer never extends a
   * forged run). On a failure the run is re-checked receipt by receipt: the seq named is exact.
   */
  signatures?: 'every' | 'run-ends';
  /**
   * Routine verification (issue 9): start after a point an earlier verification reached, instead
   * of at seq 1. The caller has checked that the receipt there is still the one verified; the
   * walk checks everything appended since (chain, signatures, the states those receipts recorded)
   * and does not re-read rows written before it, nor look for rows no receipt names (a full
   * verification does both).
   */
  resume?: ResumePoint;
  /**
   * With `resume`, when the tables changed since that point in known rows only (a pull applied
   * the server's row images, team/replica.ts): besides what came after the point, every receipt
   * that names a target of a changed row is checked again (however old), every changed row must
   * be named by a receipt, and the whole-case checks whose answer a changed table or a new
   * receipt's action can move run (CaseStateCheck.dependsOn). That is what a full verification
   * would find different.
   */
  changed?: ChangedRows;
  /** Called with the point this verification reached, when it verified (to resume from next time). */
  reached?: (point: ResumePoint) => void;
}

/** Where a verified chain stands: enough to go on checking it from there. */
export interface ResumePoint {
  seq: number;
  hash: string;
  signature: string | null;
  /** The receipt there was sealed (absent in marks written before sealed receipts: it was not). */
  sealed?: boolean;
  keys: { keyId: string; actorId: string; publicKey: string; retiredAt: number | null }[];
  admins: string[];
  rootKey: string | null;
  /** The case's rows carry their receipts' times (from its first receipt). */
  exactTimes: boolean;
}

/** The rows a pull changed: their tables, the targets they answer to (rowTargets.ts) and their rowids by table. */
export interface ChangedRows {
  tables: ReadonlySet<string>;
  targets: ReadonlySet<string>;
  rowids: ReadonlyMap<string, readonly number[]>;
}
