import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { createTestCase } from '../../testing/testCase';
import { ensureDemoCase } from '../demo';
import { dispatch } from '../dispatch';
import { handlers } from '../handlers';
import { Session, type Seat } from '../session';
import { escapeHtml, escapeMarkdown } from './report';

const SEED = resolve(import.meta.dirname, '..', '..', '..', 'resources', 'demo-case.json');
let dir: string;
let seat: Seat;
const call = async (channel: string, request: unknown) => {
  const a = await dispatch(handlers, seat, channel, request);
  if (!a.ok) throw new Error(`${channel}: ${a.error.message}`);
  return a.value as never;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'erwb-report-'));
  seat = new Session({ userDataDir: dir, log: () => {} }).seat();
  seat.open(await ensureDemoCase(SEED, dir));
  seat.unlock('lena.k', 'demo-lena-2231');
}, 60_000);
afterAll(() => {
  seat.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('report:write on the demo case', () => {
  it('HTML: every claim with its status and support counts, cited revisions with their hashes, the gate and the chain head', async () => {
    const path = join(dir, 'report.html');
    const written: { bytes: number } = await call('report:write', { path });
    const html = readFileSync(path, 'utf8');
    expect(written.bytes).toBe(Buffer.byteLength(html));
    const claims: { claimId: string; status: string; support: { independent: number; all: number } }[] = await call('claim:list', {});
    for (const c of claims) {
      expect(html).toContain(`<h3><code>${c.claimId}</code> <span class="badge">${c.status}</span></h3>`);
      expect(html).toContain(`|I_c| ${c.support.independent} · |E_c| ${c.support.all}`);
    }
    const ev: { content: string; contentSha256: string } = await call('evidence:get', { revisionId: 'ev-auth-001@1' });
    expect(html).toContain(ev.contentSha256);
    const gate: { blockers: unknown[]; head: string } = await call('case:gate', {});
    expect(html).toContain(`<span class="badge draft" id="gate">DRAFT</span> with ${gate.blockers.length} blockers`);
    const head: { head: string } = await call('audit:head', {});
    expect(html).toContain(`<code id="head">${head.head}</code>`);
    // Self-contained and inert: nothing runs, nothing is fetched.
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(html).not.toMatch(/<script|<img|<link|src=|href=/i);
  });

  it('Markdown says the same, and a reviewer without clearance gets a report without what they cannot see', async () => {
    const path = join(dir, 'report.md');
    await call('report:write', { path, format: 'markdown' });
    const md = readFileSync(path, 'utf8');
    expect(md).toMatch(/^# Case report: Account takeover: svc\\-backup \\\(IR\\-2231\\\)/);
    expect(md).toContain('Completion gate: **DRAFT**');
    seat.lock();
    seat.unlock('omar.h', 'demo-omar-2231');
    const mine = join(dir, 'omar.md');
    await call('report:write', { path: mine, format: 'markdown' });
    const text = readFileSync(mine, 'utf8');
    expect(text).not.toContain('ev\\-hr\\-001');
    expect(text).not.toContain('HR record');
    seat.lock();
    seat.unlock('lena.k', 'demo-lena-2231');
  });

  it("PDF: printed by the desktop app's printer from the same HTML the window prints; refused with why where there is none", async () => {
    const refused = await dispatch(handlers, seat, 'report:write', { path: join(dir, 'no-printer.pdf'), format: 'pdf' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'VALIDATION', message: expect.stringContaining('a PDF is printed by the desktop app') } });
    expect(() => readFileSync(join(dir, 'no-printer.pdf'))).toThrow();

    // The desktop app passes Electron's printToPDF; this stand-in prints the HTML it is given as the "PDF".
    const printed: string[] = [];
    const desktop = new Session({ userDataDir: dir, log: () => {}, printPdf: async (html) => (printed.push(html), Buffer.from(`%PDF-1.7\n${html.length}`)) }).seat();
    desktop.open(seat.casePath!);
    desktop.unlock('lena.k', 'demo-lena-2231');
    try {
      const out = await dispatch(handlers, desktop, 'report:write', { path: join(dir, 'ir-2231.pdf'), format: 'pdf' });
      expect(out.ok).toBe(true);
      expect(readFileSync(join(dir, 'ir-2231.pdf'), 'utf8')).toBe(`%PDF-1.7\n${printed[0]!.length}`);
      const rendered = await dispatch(handlers, desktop, 'report:render', {});
      const html = (rendered as { value: { html: string } }).value.html;
      expect(printed[0]).toContain('<h1>');
      // Same report, same case state: the window's print and the PDF show the same claims.
      const claims = (h: string) => h.match(/<section class="claim"[^>]*>/g);
      expect(claims(html)).toEqual(claims(printed[0]!));
    } finally {
      desktop.close();
    }
  });

  it('never writes over an existing file', async () => {
    const a = await dispatch(handlers, seat, 'report:write', { path: join(dir, 'report.html') });
    expect(a.ok ? null : a.error).toMatchObject({ code: 'CONFLICT' });
  });
});

describe('report text is inert', () => {
  it('hostile titles and statements render as text in HTML and in Markdown', async () => {
    const tc = await createTestCase();
    try {
      const title = '<script>alert(1)</script> [click](javascript:alert(2)) \u202Egnp.exe | col';
      const { revisionId } = await tc.call('evidence:ingest', { ...ingestRequest('ev-hostile'), title });
      await tc.call('claim:create', { claimId: 'cl-hostile', statement: `# not a heading <img src=x onerror=alert(3)>`, tenant: 'acme', classification: 'internal' });
      await tc.call('claim:bind', { claimId: 'cl-hostile', revisionId, relation: 'FULL_SUPPORT', role: 'SUPPORTING' });
      await tc.call('report:write', { path: join(tc.dir, 'h.html') });
      await tc.call('report:write', { path: join(tc.dir, 'h.md'), format: 'markdown' });
      const html = readFileSync(join(tc.dir, 'h.html'), 'utf8');
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(html).toContain('[U+202E]gnp.exe');
      expect(html).not.toMatch(/<script|<img/i);
      const md = readFileSync(join(tc.dir, 'h.md'), 'utf8');
      expect(md).toContain('\\[click\\]\\(javascript:alert\\(2\\)\\)');
      expect(md).toContain('\\# not a heading &lt;img src=x onerror=alert\\(3\\)');
      expect(md).toContain('\\| col');
      expect(md).not.toContain('\u202E');
    } finally {
      tc.cleanup();
    }
  });

  it('escapes every character that means something', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(escapeMarkdown('*a* _b_ `c` line\nbreak')).toBe('\\*a\\* \\_b\\_ \\`c\\` line break');
  });
});
