import { createHash } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import type { RequestOf } from '../shared/ipc/contract';
import type { Envelope } from '../shared/ipc/envelope';
import { validContext } from '../electron/testing/fixtures/evidence';
import { expect, test } from './fixtures';
import { EvidenceViewPage, QuarantineViewPage } from './pages/ReviewViews';

/**
 * Issue 12: evidence is attacker-controlled. Whatever it carries (markup, script URLs, bidi
 * controls, invisible and control characters, one endless line) is stored byte for byte, shown
 * as text, executes nothing and leaves the layout alone, in content, titles and claim statements.
 */

// The size the views are designed for; the screenshots are taken at it too.
const VIEWPORT = { width: 1440, height: 900 };
test.use({ viewport: VIEWPORT });

/** Characters the content pane must show as ⟨U+XXXX⟩ markers, so an analyst sees what is there. */
const MUST_SHOW_AS_MARKER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u200B\u202A-\u202E\u2066-\u2069\uFEFF]/gu;
const marked = (text: string): string =>
  text.replace(MUST_SHOW_AS_MARKER, (c) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`);

/** Elements that would mean content became markup (allowed: the content pane's ⟨U+XXXX⟩ markers). */
const ACTIVE = 'script, img, iframe, object, embed, style, svg, a[href^="javascript" i], [onerror], [onload], #injected-b, #injected-a';

interface Hostile {
  name: string;
  title: string;
  content: string;
  /** Ingest screening is expected to quarantine it (active HTML, a script URL, reordering bidi controls). */
  quarantined: boolean;
  context?: Parameters<typeof validContext>[0];
}

const LONG_LINE = 'A1b2C3d4'.repeat(1250);

const HOSTILE: readonly Hostile[] = [
  {
    name: 'markup',
    title: '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script> vendor advisory',
    content:
      '<script>window.__pwned=1</script>\n<img src=x onerror="window.__pwned=1">\n<svg onload="window.__pwned=1"></svg>' +
      '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>\n<style>main{display:none}</style><b id="injected-b">bold</b>',
    quarantined: true,
    context: { producer: '<img src=x onerror="window.__pwned=1">' },
  },
  {
    name: 'javascript-url',
    title: 'javascript:alert(1) <a href="javascript:window.__pwned=1">open advisory</a>',
    content: 'Advisory link: javascript:alert(1)\n<a id="injected-a" href="javascript:window.__pwned=1">open advisory</a>\nJaVaScRiPt:window.__pwned=1',
    quarantined: true,
    context: { sourceRef: 'javascript:alert(1)' },
  },
  {
    name: 'bidi',
    title: 'invoice_\u202Efdp.exe \u2066isolated\u2069 zero\u200Bwidth \uFEFFbom',
    content:
      'access level: user\u202E nimda \u202C\n\u2066LRI\u2069 \u2067RLI\u2069 \u2068FSI\u2069 closed\n' +
      'zero\u200Bwidth and a mid-text BOM \uFEFF here\nspoofed marker typed as text: ⟨U+202E⟩',
    quarantined: true,
  },
  {
    name: 'long-line',
    title: '0123456789abcdef'.repeat(31) + '0123',
    content: `first line\n${LONG_LINE}\nlast line`,
    quarantined: false,
  },
  {
    name: 'binary',
    title: 'dump \u0001\u0007\u007F\uFFFD\uFFFD\uFFFD',
    content: `MZ\u0001\u0002\u0003\u0004\u0005\u0006\u0007\u0008\u000B\u007F${'\uFFFD'.repeat(64)}\u000C\u000E\u001F PE tail`,
    quarantined: false,
  },
  {
    // NUL is accepted by the contract (it is well-formed Unicode): it must survive like any other character.
    name: 'nul',
    title: 'nul \u0000 in title',
    content: 'before\u0000after\u0000\u0000end',
    quarantined: false,
  },
];

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

function ingestRequest(h: Hostile): RequestOf<'evidence:ingest'> {
  return { evidenceId: `ev-hostile-${h.name}`, title: h.title, kind: 'vendor_report', content: h.content, context: validContext(h.context) };
}

// e2e/ compiles without DOM types: the in-page callbacks describe the little of the DOM they use.
interface DomNode {
  nodeType: number;
  textContent: string | null;
}
interface DomElement extends DomNode {
  tagName: string;
  className: string;
  childElementCount: number;
  childNodes: ArrayLike<DomNode>;
  scrollWidth: number;
  clientWidth: number;
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}

/**
 * What an InertText element shows, read back from the DOM: text nodes as they are, markers as the
 * code points they stand for, anything else as a stray. A marker typed into the content is a text
 * node, so it reads back as typed.
 */
function readInert(content: Locator): Promise<{ text: string; decoded: string; strays: string[] }> {
  return content.evaluate((el) => {
    const root = el as unknown as DomElement;
    let decoded = '';
    const strays: string[] = [];
    for (const node of Array.from(root.childNodes)) {
      const element = node as DomElement;
      const marker = node.nodeType === 1 && element.tagName === 'SPAN' && element.className === 'hidden-char' && element.childElementCount === 0;
      const code = marker ? /^⟨U\+([0-9A-F]{4,6})⟩$/.exec(node.textContent ?? '')?.[1] : undefined;
      if (node.nodeType === 3) decoded += node.textContent ?? '';
      else if (code !== undefined) decoded += String.fromCodePoint(parseInt(code, 16));
      else strays.push(node.nodeType === 1 ? `<${element.tagName.toLowerCase()} class="${element.className}">` : `node type ${node.nodeType}`);
    }
    return { text: root.textContent ?? '', decoded, strays };
  });
}

const rawText = (locator: Locator): Promise<string> => locator.evaluate((el) => (el as unknown as DomNode).textContent ?? '');

/** The text an element shows, any ⟨U+XXXX⟩ marker in it read back as the character it stands for. */
function shownText(locator: Locator): Promise<string> {
  return locator.evaluate((el) => {
    const read = (node: DomElement): string => {
      if (node.nodeType === 3) return node.textContent ?? '';
      const code = node.className === 'hidden-char' ? /^⟨U\+([0-9A-F]{4,6})⟩$/.exec(node.textContent ?? '')?.[1] : undefined;
      if (code !== undefined) return String.fromCodePoint(parseInt(code, 16));
      return Array.from(node.childNodes).map((n) => read(n as DomElement)).join('');
    };
    return read(el as unknown as DomElement);
  });
}

/** The content pane shows exactly the stored text, invisible characters as markers, and nothing else. */
async function expectInertContent(content: Locator, stored: string): Promise<void> {
  const shown = await readInert(content);
  expect(shown.strays).toEqual([]);
  expect(shown.decoded).toBe(stored);
  expect(shown.text).toBe(marked(stored));
}

/**
 * Layout: the page does not scroll sideways, `pane` sits inside the viewport and no element in
 * `root` is wider than its box (a horizontal scrollbar, or text cut off at the side).
 */
async function expectNoHorizontalOverflow(page: Page, root: Locator, pane: Locator): Promise<void> {
  const doc = await page.evaluate(() => {
    const g = globalThis as unknown as { innerWidth: number; document: { documentElement: { scrollWidth: number } } };
    return { scrollWidth: g.document.documentElement.scrollWidth, innerWidth: g.innerWidth };
  });
  expect(doc.scrollWidth).toBeLessThanOrEqual(doc.innerWidth + 1);
  const box = await pane.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(VIEWPORT.width + 1);
  const overflowing = await root.evaluate((el) => {
    const g = globalThis as unknown as { getComputedStyle: (e: unknown) => { overflowX: string } };
    const all = [el as unknown as DomElement, ...Array.from((el as unknown as DomElement).querySelectorAll('*'))];
    return all
      .filter((e) => e.scrollWidth > e.clientWidth + 1 && g.getComputedStyle(e).overflowX !== 'visible')
      .map((e) => `${e.getAttribute('data-testid') ?? `${e.tagName.toLowerCase()}.${e.className}`}: ${e.scrollWidth}px of content in ${e.clientWidth}px`);
  });
  expect(overflowing).toEqual([]);
}

/** Fails the test if anything hostile ran: a dialog (alert), the __pwned flag, an added <script>. */
async function watchForExecution(page: Page): Promise<() => Promise<void>> {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  const scripts = await page.locator('script').count();
  return async () => {
    expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    await expect(page.locator('script')).toHaveCount(scripts);
    await expect(page.locator('a[href^="javascript" i], img[src="x"], [onerror], [onload]')).toHaveCount(0);
  };
}

/** Reloads so the views list what was ingested behind their back (the seat stays unlocked). */
async function reload(page: Page): Promise<void> {
  await page.reload();
  await page.getByTestId('case-name').waitFor();
}

test.describe('Hostile evidence', () => {
  for (const h of HOSTILE) {
    test(`${h.name}: stored exactly, shown as inert text in content and title, layout intact${h.quarantined ? ', quarantined' : ''}`, async ({ app, page }) => {
      const assertNothingRan = await watchForExecution(page);
      const ingested = await app.ok('evidence:ingest', ingestRequest(h));
      expect(ingested.state).toBe(h.quarantined ? 'QUARANTINED' : 'CANDIDATE');
      const stored = await app.ok('evidence:get', { revisionId: ingested.revisionId });
      expect(stored.content).toBe(h.content);
      expect(stored.title).toBe(h.title);
      expect(stored.contentSha256).toBe(sha256(h.content));
      expect(stored.context).toEqual(validContext(h.context));
      await reload(page);

      const evidence = new EvidenceViewPage(app);
      await evidence.open();
      await evidence.select(ingested.revisionId);
      const detail = page.getByTestId('evidence-detail');
      await expectInertContent(evidence.content, stored.content);
      expect(await shownText(page.getByTestId('evidence-detail-title'))).toBe(stored.title);
      expect(await shownText(evidence.row(ingested.revisionId))).toContain(stored.title);
      expect(await shownText(page.getByTestId('evidence-detail-context-source'))).toBe(`${stored.context.sourceType} · ${stored.context.sourceRef}`);
      const markers = stored.content.match(MUST_SHOW_AS_MARKER)?.length ?? 0;
      if (markers > 0) await expect(page.getByTestId('evidence-detail-content-hidden')).toContainText(`Contains ${markers} invisible or control character`);
      else await expect(page.getByTestId('evidence-detail-content-hidden')).toHaveCount(0);
      await expect(detail.locator(ACTIVE)).toHaveCount(0);
      await expectNoHorizontalOverflow(page, page.locator('main'), detail);
      await app.screenshot(`hostile-${h.name}-evidence`);

      if (h.quarantined) {
        const quarantine = new QuarantineViewPage(app);
        await quarantine.open();
        await quarantine.select(ingested.revisionId);
        await expectInertContent(quarantine.content, stored.content);
        expect(await shownText(page.getByTestId('quarantine-detail').locator('h2'))).toBe(stored.title);
        expect(await shownText(quarantine.entry(ingested.revisionId))).toContain(stored.title);
        await expect(quarantine.reason).toContainText('quarantined on ingest');
        await expect(page.getByTestId('quarantine-untrusted')).toContainText('UNTRUSTED DATA');
        await expect(page.getByTestId('quarantine-detail').locator(ACTIVE)).toHaveCount(0);
        await expect(page.getByTestId('quarantine-queue').locator(ACTIVE)).toHaveCount(0);
        await expectNoHorizontalOverflow(page, page.locator('main'), page.getByTestId('quarantine-detail'));
        await app.screenshot(`hostile-${h.name}-quarantine`);
      }
      await assertNothingRan();
    });
  }
});

test.describe('Invisible characters outside the content pane', () => {
  /** Characters that change what a reader sees without being seen: bidi controls, zero-width space, BOM. */
  const DISGUISING = /[\u200B\u202A-\u202E\u2066-\u2069\uFEFF]/u;

  // Titles and statements were bare text nodes, so "invoice_\u202Efdp.exe" read "invoice_exe.pdf"
  // and a claim's "svc-backup\u202Enwod" read "svc-backupdown"; InertLabel shows the markers.
  test('a title and a claim statement show bidi controls and zero-width characters as markers, as the content pane does', async ({ app, page }) => {
    const bidi = HOSTILE.find((h) => h.name === 'bidi')!;
    const ingested = await app.ok('evidence:ingest', ingestRequest(bidi));
    const statement = 'svc-backup\u202Enwod\u202C ran\u200Bon HOST-FS01';
    await app.ok('claim:create', { claimId: 'cl-bidi', statement, tenant: 'acme', classification: 'internal' });
    await reload(page);

    const evidence = new EvidenceViewPage(app);
    await evidence.open();
    await evidence.select(ingested.revisionId);
    for (const title of [page.getByTestId('evidence-detail-title'), evidence.row(ingested.revisionId)]) {
      expect(await rawText(title)).not.toMatch(DISGUISING);
      expect(await shownText(title)).toContain(bidi.title);
    }
    await app.nav('graph');
    await page.getByTestId('graph-pick-claim-cl-bidi').click();
    expect(await rawText(page.getByTestId('graph-claim-detail-statement'))).not.toMatch(DISGUISING);
    expect(await shownText(page.getByTestId('graph-claim-detail-statement'))).toBe(statement);
  });
});

test.describe('Hostile claim statement', () => {
  // Everything at once, up to the contract's 2,000 characters; no leading or trailing space, which the contract trims.
  const STATEMENT =
    '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=1"> <a href="javascript:window.__pwned=1">javascript:alert(1)</a> ' +
    'svc-backup\u202Enwod\u202C \u2066x\u2069 ran\u200Bon HOST\uFEFF-FS01 \u0001\u0007\u000B\u007F\uFFFD\uFFFD ' +
    'Z'.repeat(1700);
  const TITLE = `<img src=x onerror="window.__pwned=1">javascript:alert(1)\u202Etxt.exe\u200B ${'T'.repeat(400)}`;
  const RATIONALE = `<script>window.__pwned=1</script> <a href="javascript:alert(1)">see</a> \u202Ereversed ${'R'.repeat(1000)}`;

  test('is stored exactly and shown as text in the graph, its detail and its bindings, layout intact', async ({ app, page }) => {
    const assertNothingRan = await watchForExecution(page);
    await app.ok('claim:create', { claimId: 'cl-hostile', statement: STATEMENT, tenant: 'acme', classification: 'internal' });
    const claim = await app.ok('claim:get', { claimId: 'cl-hostile' });
    expect(claim.statement).toBe(STATEMENT);
    // A hostile title on plain content stays a CANDIDATE, so it can be bound and drawn.
    const ingested = await app.ok('evidence:ingest', {
      evidenceId: 'ev-hostile-title',
      title: TITLE,
      kind: 'telemetry',
      content: 'process event on HOST-FS01',
      context: validContext(),
    });
    expect(ingested.state).toBe('CANDIDATE');
    expect((await app.ok('evidence:get', { revisionId: ingested.revisionId })).title).toBe(TITLE);
    const binding = await app.ok('claim:bind', { claimId: 'cl-hostile', revisionId: ingested.revisionId, relation: 'FULL_SUPPORT', role: 'REQUIRED', rationale: RATIONALE });
    expect(binding.rationale).toBe(RATIONALE);
    await reload(page);

    await app.nav('graph');
    await page.getByTestId('graph-canvas').locator('.react-flow__node').first().waitFor();
    expect(await shownText(page.getByTestId('graph-node-claim-cl-hostile').locator('p'))).toBe(STATEMENT);
    expect(await shownText(page.getByTestId(`graph-node-rev-${ingested.revisionId}`))).toContain(TITLE);
    expect(await shownText(page.getByTestId('graph-pick-claim-cl-hostile'))).toContain(STATEMENT);
    // React Flow draws edges as SVG: look inside the nodes, where statement and title are.
    await expect(page.getByTestId('graph-node-claim-cl-hostile').locator(ACTIVE)).toHaveCount(0);
    await expect(page.getByTestId(`graph-node-rev-${ingested.revisionId}`).locator(ACTIVE)).toHaveCount(0);
    await expectNoHorizontalOverflow(page, page.getByTestId('graph-side'), page.getByTestId('graph-side'));
    await app.screenshot('hostile-claim-graph');

    await page.getByTestId('graph-pick-claim-cl-hostile').click();
    const detail = page.getByTestId('graph-claim-detail');
    expect(await shownText(page.getByTestId('graph-claim-detail-statement'))).toBe(STATEMENT);
    const bindings = await shownText(page.getByTestId('graph-claim-detail-bindings'));
    expect(bindings).toContain(TITLE);
    expect(bindings).toContain(`Rationale: ${RATIONALE}`);
    await expect(detail.locator(ACTIVE)).toHaveCount(0);
    await expectNoHorizontalOverflow(page, page.getByTestId('graph-side'), page.getByTestId('graph-side'));
    // The side panel keeps the list's scroll position: bring the statement's start into view for the screenshot.
    await page.getByTestId('graph-claim-detail-statement').evaluate((el) => (el as unknown as { scrollIntoView: (o: object) => void }).scrollIntoView({ block: 'start' }));
    await app.screenshot('hostile-claim-detail');
    await assertNothingRan();
  });
});

test.describe('Text that is not well-formed Unicode', () => {
  /**
   * Sends `request` through the renderer's bridge with every "LONE_HIGH"/"LONE_LOW" replaced, in the
   * page, by a lone surrogate: Playwright's own serialisation could not be trusted to carry one.
   */
  function invokeWithLoneSurrogates(page: Page, channel: string, request: unknown): Promise<Envelope<unknown>> {
    return page.evaluate(
      ([c, json]) => {
        const withSurrogates = JSON.parse(json.replaceAll('LONE_HIGH', '\\ud800').replaceAll('LONE_LOW', '\\udc00')) as unknown;
        const bridge = (globalThis as unknown as { workbenchBridge: { invokeRaw: (c: string, r: unknown) => Promise<Envelope<unknown>> } }).workbenchBridge;
        return bridge.invokeRaw(c, withSurrogates);
      },
      [channel, JSON.stringify(request)] as const,
    );
  }

  test('a lone surrogate in content, title or claim statement is refused with VALIDATION naming the field, and nothing is written', async ({ app, page }) => {
    const refusals: [string, unknown, (string | number)[]][] = [
      ['evidence:ingest', { ...ingestRequest(HOSTILE[0]!), evidenceId: 'ev-lone-content', content: 'EDR event LONE_HIGH on FS01' }, ['content']],
      ['evidence:ingest', { ...ingestRequest(HOSTILE[0]!), evidenceId: 'ev-lone-title', title: 'title LONE_LOW here' }, ['title']],
      ['claim:create', { claimId: 'cl-lone', statement: 'svc-backup LONE_HIGH was taken over', tenant: 'acme', classification: 'internal' }, ['statement']],
    ];
    for (const [channel, request, path] of refusals) {
      const answer = await invokeWithLoneSurrogates(page, channel, request);
      expect(answer).toMatchObject({ ok: false, error: { code: 'VALIDATION', issues: [{ path, message: expect.stringContaining('lone UTF-16 surrogate') }] } });
    }
    for (const revisionId of ['ev-lone-content@1', 'ev-lone-title@1']) {
      expect(await app.invokeRaw('evidence:get', { revisionId })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    }
    expect(await app.invokeRaw('claim:get', { claimId: 'cl-lone' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});
