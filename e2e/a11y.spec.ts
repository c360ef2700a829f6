import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';

// Readable everywhere (issue 11.8): axe-core on every view, light and dark, finds no serious or
// critical violation.
test.use({ viewport: { width: 1440, height: 900 } });

const VIEWS = ['cases', 'dashboard', 'intake', 'graph', 'timeline', 'evidence', 'review', 'disputes', 'quarantine', 'remediations', 'whatif', 'audit'] as const;

for (const scheme of ['light', 'dark'] as const) {
  test(`every view in the ${scheme} theme has no serious or critical accessibility violation`, async ({ app, page }) => {
    test.setTimeout(180_000);
    await page.emulateMedia({ colorScheme: scheme });
    const found: string[] = [];
    for (const view of VIEWS) {
      await app.nav(view);
      await page.locator('main').waitFor();
      await page.waitForLoadState('networkidle');
      const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      for (const v of result.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) {
        found.push(`${view}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}${v.nodes.length > 3 ? ` and ${v.nodes.length - 3} more` : ''}`);
      }
    }
    expect(found).toEqual([]);
  });
}
