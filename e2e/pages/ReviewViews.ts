import { expect, type Locator, type Page } from '@playwright/test';
import type { WorkbenchPage } from './WorkbenchPage';

/** The lifecycle move form, wherever it is rendered (Evidence, Graph, Disputes, Quarantine). */
export class TransitionFormPart {
  constructor(
    readonly page: Page,
    readonly testId: string,
  ) {}

  get root(): Locator {
    return this.page.getByTestId(this.testId);
  }
  get error(): Locator {
    return this.page.getByTestId(`${this.testId}-error`);
  }
  get done(): Locator {
    return this.page.getByTestId(`${this.testId}-done`);
  }
  options(): Promise<string[]> {
    return this.page.getByTestId(`${this.testId}-to`).locator('option').allTextContents();
  }

  async move(to: string, reason: string, supportingRef?: string): Promise<void> {
    await this.page.getByTestId(`${this.testId}-to`).selectOption(to);
    await this.page.getByTestId(`${this.testId}-reason`).fill(reason);
    if (supportingRef !== undefined) await this.page.getByTestId(`${this.testId}-ref`).fill(supportingRef);
    await this.page.getByTestId(`${this.testId}-submit`).click();
    // A revoke is terminal: the form says so and asks again (DESIGN §3.10).
    if (to === 'REVOKED') await this.confirm(`${this.testId}-submit`);
  }

  private async confirm(buttonTestId: string): Promise<void> {
    await this.page.getByTestId(`${buttonTestId}-consequence`).waitFor();
    await this.page.getByTestId(`${buttonTestId}-confirm`).click();
  }

  /** The 'buttons' presentation: one button per allowed move. */
  async press(to: string, reason: string): Promise<void> {
    await this.page.getByTestId(`${this.testId}-reason`).fill(reason);
    await this.page.getByTestId(`${this.testId}-${to.toLowerCase()}`).click();
    if (to === 'REVOKED') await this.confirm(`${this.testId}-${to.toLowerCase()}`);
  }
}

export class EvidenceViewPage {
  readonly transition: TransitionFormPart;
  constructor(readonly app: WorkbenchPage) {
    this.transition = new TransitionFormPart(app.page, 'evidence-detail-transition');
  }
  get page(): Page {
    return this.app.page;
  }

  async open(): Promise<void> {
    await this.app.nav('evidence');
    await this.page.getByTestId('evidence-table').waitFor();
  }
  row(revisionId: string): Locator {
    return this.page.getByTestId(`evidence-row-${revisionId}`);
  }
  async select(revisionId: string): Promise<void> {
    await this.row(revisionId).click();
    await this.page.getByTestId('evidence-detail-id').filter({ hasText: revisionId }).waitFor();
  }
  /**
   * The queue is read from the store on every filter change: the chip or picker shows the new
   * filter in the same render that starts the read, so waiting for it and then for the read to end
   * waits for the rows of that filter.
   */
  async settled(): Promise<void> {
    await expect(this.page.getByTestId('evidence-loading')).toHaveCount(0);
  }
  async filterState(state: string): Promise<void> {
    await this.page.getByTestId(`evidence-filter-state-${state}`).click();
    await expect(this.page.getByTestId(`evidence-filter-state-${state}`)).toHaveAttribute('aria-pressed', 'true');
    await this.settled();
  }
  async filterKind(kind: string): Promise<void> {
    await this.page.getByTestId('evidence-filter-kind').selectOption(kind);
    await expect(this.page.getByTestId('evidence-filter-kind')).toHaveValue(kind);
    await this.settled();
  }
  async sortBy(sort: string): Promise<void> {
    await this.page.getByTestId('evidence-sort').selectOption(sort);
    await expect(this.page.getByTestId('evidence-sort')).toHaveValue(sort);
    await this.settled();
  }
  /** Revision ids of the rows currently listed. */
  async listedIds(): Promise<string[]> {
    const ids = await this.page.locator('[data-testid^="evidence-row-"]:not([data-testid^="evidence-row-state-"])').evaluateAll((rows) =>
      rows.map((r) => r.getAttribute('data-testid')!.replace('evidence-row-', '')),
    );
    return ids;
  }
  get detailState(): Locator {
    return this.page.getByTestId('evidence-detail-state');
  }
  get content(): Locator {
    return this.page.getByTestId('evidence-detail-content');
  }
  historyRows(): Locator {
    return this.page.getByTestId('evidence-detail-history-row');
  }
}

export class GraphViewPage {
  constructor(readonly app: WorkbenchPage) {}
  get page(): Page {
    return this.app.page;
  }
  async open(): Promise<void> {
    await this.app.nav('graph');
    await this.page.getByTestId('graph-canvas').locator('.react-flow__node').first().waitFor();
  }
  claimNode(claimId: string): Locator {
    return this.page.getByTestId(`graph-node-claim-${claimId}`);
  }
  claimStatus(claimId: string): Locator {
    return this.page.getByTestId(`graph-claim-status-${claimId}`);
  }
  revisionNode(revisionId: string): Locator {
    return this.page.getByTestId(`graph-node-rev-${revisionId}`);
  }
  edge(revisionId: string, claimId: string): Locator {
    return this.page.getByTestId(`graph-edge-${revisionId}-${claimId}`);
  }
}

export class DisputesViewPage {
  constructor(readonly app: WorkbenchPage) {}
  get page(): Page {
    return this.app.page;
  }
  async open(): Promise<void> {
    await this.app.nav('disputes');
    await this.page.getByTestId('dispute-queue').waitFor();
  }
  entry(key: string): Locator {
    return this.page.getByTestId(`dispute-entry-${key}`);
  }
  side(side: 'support' | 'refute' | 'disputed' | 'counterpart'): Locator {
    return this.page.getByTestId(`dispute-side-${side}`);
  }
  card(revisionId: string): Locator {
    return this.page.getByTestId(`dispute-card-${revisionId}`);
  }
}

export class QuarantineViewPage {
  readonly action: TransitionFormPart;
  constructor(readonly app: WorkbenchPage) {
    this.action = new TransitionFormPart(app.page, 'quarantine-action');
  }
  get page(): Page {
    return this.app.page;
  }
  async open(): Promise<void> {
    await this.app.nav('quarantine');
    await this.page.getByTestId('quarantine-queue').waitFor();
  }
  entry(revisionId: string): Locator {
    return this.page.getByTestId(`quarantine-entry-${revisionId}`);
  }
  async select(revisionId: string): Promise<void> {
    await this.entry(revisionId).click();
    await this.page.getByTestId('quarantine-detail-id').filter({ hasText: revisionId }).waitFor();
  }
  get content(): Locator {
    return this.page.getByTestId('quarantine-content');
  }
  get reason(): Locator {
    return this.page.getByTestId('quarantine-reason-text');
  }
}
