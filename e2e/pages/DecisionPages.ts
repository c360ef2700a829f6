import type { Locator, Page } from '@playwright/test';
import type { WorkbenchPage } from './WorkbenchPage';

type Verdict = 'SUPPORTED' | 'REFUTED' | 'UNRESOLVED' | 'NEEDS_MORE_EVIDENCE';
type ChecklistItem = 'supportedByQuote' | 'contradictingEvidence' | 'sourceQualityMatchesClaim' | 'outdated' | 'marketingOrForum';

export interface VoteInput {
  checklist: Partial<Record<ChecklistItem, boolean>>;
  refuted: boolean | null;
  reason: string;
  killReasons?: string[];
}

/** The Review view: the queue, one claim's decisions with their actions, and the quorum vote form. */
export class ReviewViewPage {
  constructor(readonly app: WorkbenchPage) {}
  get page(): Page {
    return this.app.page;
  }
  async open(claimId?: string): Promise<void> {
    await this.app.nav('review');
    await this.page.getByTestId('review-queue').waitFor();
    if (claimId) await this.select(claimId);
  }
  entry(claimId: string): Locator {
    return this.page.getByTestId(`review-entry-${claimId}`);
  }
  async select(claimId: string): Promise<void> {
    await this.entry(claimId).click();
    await this.page.getByTestId(`review-claim-${claimId}`).waitFor();
  }
  get decisionState(): Locator {
    return this.page.getByTestId('review-decision-state');
  }
  get decisionMessage(): Locator {
    return this.page.getByTestId('review-decision-message');
  }
  decision(decisionId: string): Locator {
    return this.page.getByTestId(`review-decisions-${decisionId}`);
  }
  part(decisionId: string, part: 'status' | 'currency' | 'changes' | 'fingerprint' | 'refs' | 'error' | 'error-code' | 'error-message' | 'projection'): Locator {
    return this.page.getByTestId(`review-decisions-${decisionId}-${part}`);
  }
  async propose(verdict: Verdict, rationale: string, computations = ''): Promise<void> {
    await this.page.getByTestId('review-propose-verdict').selectOption(verdict);
    await this.page.getByTestId('review-propose-rationale').fill(rationale);
    await this.page.getByTestId('review-propose-computations').fill(computations);
    await this.page.getByTestId('review-propose-submit').click();
  }
  async act(decisionId: string, action: 'approve' | 'reject' | 'withdraw', text = ''): Promise<void> {
    await this.page.getByTestId(`review-decisions-${decisionId}-text`).fill(text);
    await this.page.getByTestId(`review-decisions-${decisionId}-${action}`).click();
  }
  async reload(): Promise<void> {
    await this.page.getByTestId('review-reload').click();
  }
  async vote(v: VoteInput): Promise<void> {
    for (const [item, answer] of Object.entries(v.checklist)) {
      await this.page.getByTestId(`vote-check-${item}-${answer ? 'yes' : 'no'}`).check();
    }
    await this.page.getByTestId(`vote-refuted-${v.refuted === null ? 'abstain' : String(v.refuted)}`).check();
    await this.page.getByTestId('vote-reason').fill(v.reason);
    for (const k of v.killReasons ?? []) await this.page.getByTestId(`vote-kill-${k}`).check();
    await this.page.getByTestId('vote-submit').click();
  }
  quorumVote(reviewer: string): Locator {
    return this.page.getByTestId(`quorum-vote-${reviewer}`);
  }
}

/** The Audit view: chain status, head, verification against a head, receipts and keys. */
export class AuditViewPage {
  constructor(readonly app: WorkbenchPage) {}
  get page(): Page {
    return this.app.page;
  }
  async open(): Promise<void> {
    await this.app.nav('audit');
    await this.page.getByTestId('audit-status').waitFor();
  }
  get status(): Locator {
    return this.page.getByTestId('audit-status');
  }
  get head(): Locator {
    return this.page.getByTestId('audit-head');
  }
  async verifyAgainst(head: string): Promise<void> {
    await this.page.getByTestId('audit-expected-head').fill(head);
    await this.page.getByTestId('audit-verify-head').click();
  }
  get headResult(): Locator {
    return this.page.getByTestId('audit-head-result');
  }
  receipt(seq: number): Locator {
    return this.page.getByTestId(`receipt-${seq}`);
  }
}

/** The completion gate panel on the Cases view. */
export class GatePanelPage {
  constructor(readonly app: WorkbenchPage) {}
  get page(): Page {
    return this.app.page;
  }
  async open(): Promise<void> {
    await this.app.nav('cases');
    await this.page.getByTestId('gate-panel').waitFor();
  }
  blockers(): Locator {
    return this.page.getByTestId('gate-blockers-row');
  }
  /** Finalizing locks the case, so the panel names that and asks again before it acts. */
  async finalize(): Promise<void> {
    await this.page.getByTestId('gate-finalize').click();
    await this.page.getByTestId('gate-finalize-consequence').waitFor();
    await this.page.getByTestId('gate-finalize-confirm').click();
  }
  get result(): Locator {
    return this.page.getByTestId('gate-result');
  }
  get error(): Locator {
    return this.page.getByTestId('gate-finalize-error');
  }
}
