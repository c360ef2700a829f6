import type { Page } from '@playwright/test';
import type { Channel, Invoke, RequestOf, ResponseOf } from '../../shared/ipc/contract';
import type { Envelope } from '../../shared/ipc/envelope';

/** Display names of the demo actors, as the status bar shows them. */
const DISPLAY_NAMES: Record<string, string> = { 'lena.k': 'Lena', 'omar.h': 'Omar', 'priya.s': 'Priya', 'jonas.w': 'Jonas' };

/** The demo reviewers' passphrases, as the README lists them. */
export const DEMO_PASSPHRASES: Record<string, string> = {
  'lena.k': 'demo-lena-2231',
  'omar.h': 'demo-omar-2231',
  'priya.s': 'demo-priya-2231',
  'jonas.w': 'demo-jonas-2231',
};

/** Page object for the workbench frame: navigation, status bar and raw bridge access. */
export class WorkbenchPage {
  constructor(
    readonly page: Page,
    readonly url: string,
  ) {}

  /** Opens the workbench, which starts locked, and unlocks it as `actorId` (the demo's IR lead by default). */
  async open(actorId = 'lena.k'): Promise<void> {
    await this.page.goto(this.url);
    await this.page.getByTestId('case-name').waitFor();
    await this.unlock(actorId);
  }

  /** Unlocks the locked window as a demo reviewer, typing their passphrase as a user does. */
  async unlock(actorId: string, passphrase = DEMO_PASSPHRASES[actorId] ?? ''): Promise<void> {
    await this.page.getByTestId('unlock-actor').selectOption(actorId);
    await this.page.getByTestId('unlock-passphrase').fill(passphrase);
    await this.page.getByTestId('unlock-submit').click();
    await this.page.getByTestId('status-actor').filter({ hasText: `Acting as ${DISPLAY_NAMES[actorId] ?? actorId}` }).waitFor();
  }

  nav(view: 'cases' | 'dashboard' | 'intake' | 'graph' | 'timeline' | 'evidence' | 'review' | 'disputes' | 'quarantine' | 'remediations' | 'whatif' | 'audit') {
    return this.page.getByTestId(`nav-${view}`).click();
  }

  /**
   * Switches the acting reviewer the way a user does: lock this window (Cases view) and unlock it
   * as the other reviewer with their passphrase. Returns to the view that was open.
   */
  async actAs(actorId: string): Promise<void> {
    const view = await this.page.locator('main').getAttribute('data-testid');
    await this.nav('cases');
    await this.page.getByTestId('lock-window').click();
    await this.page.getByTestId('unlock-panel').waitFor();
    await this.unlock(actorId);
    const name = view?.replace(/^view-/, '');
    if (name && name !== 'cases' && name !== 'locked') await this.nav(name as Parameters<WorkbenchPage['nav']>[0]);
  }

  /** Sends a request through the renderer's own bridge, exactly as the UI would, and returns the envelope. */
  invokeRaw<C extends Channel>(channel: C, request: RequestOf<C>): Promise<Envelope<ResponseOf<C>>> {
    // Runs in the page, where the renderer's bundle put its bridge on the window (renderer/bridge).
    // Playwright's argument serialisation cannot carry a generic channel, so the pair crosses as
    // Channel and RequestOf<Channel> and the answer gets its channel's type back here.
    const answer = this.page.evaluate(
      ([c, r]) => (globalThis as unknown as { workbenchBridge: { invokeRaw: Invoke } }).workbenchBridge.invokeRaw(c, r),
      [channel, request] as [Channel, RequestOf<Channel>],
    );
    return answer as Promise<Envelope<ResponseOf<C>>>;
  }

  /** A setup call through the bridge that must succeed; a refusal fails with the service's reason. */
  async ok<C extends Channel>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
    const answer = await this.invokeRaw(channel, request);
    if (!answer.ok) throw new Error(`${channel} refused: ${answer.error.code} ${answer.error.message}`);
    return answer.value;
  }

  async screenshot(name: string): Promise<void> {
    await this.page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
  }
}
