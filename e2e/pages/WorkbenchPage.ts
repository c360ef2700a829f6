import type { Page } from '@playwright/test';
import type { Channel, Invoke, RequestOf, ResponseOf } from '../../shared/ipc/contract';
import type { Envelope } from '../../shared/ipc/envelope';

/** Display names of the demo actors, as the status bar shows them. */
const DISPLAY_NAMES: Record<string, string> = { 'lena.k': 'Lena', 'omar.h': 'Omar', 'priya.s': 'Priya', 'jonas.w': 'Jonas' };

/** Page object for the workbench frame: navigation, status bar and raw bridge access. */
export class WorkbenchPage {
  constructor(
    readonly page: Page,
    readonly url: string,
  ) {}

  async open(): Promise<void> {
    await this.page.goto(this.url);
    await this.page.getByTestId('case-name').waitFor();
  }

  nav(view: 'cases' | 'graph' | 'evidence' | 'review' | 'disputes' | 'quarantine' | 'remediations' | 'audit') {
    return this.page.getByTestId(`nav-${view}`).click();
  }

  /** Switches the acting reviewer the way a user does (Cases view), so the UI and the session agree. */
  async actAs(actorId: string): Promise<void> {
    await this.nav('cases');
    await this.page.getByTestId('actor-select').selectOption(actorId);
    await this.page.getByTestId('status-actor').filter({ hasText: DISPLAY_NAMES[actorId] ?? actorId }).waitFor();
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
