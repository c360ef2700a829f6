import { ESLint, type Linter } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Lints snippets at virtual paths with the repo's own eslint.config.js, so a boundary rule that
// stops matching (a pattern typo, a block that overrides another) fails here, not in review.
const eslint = new ESLint({ cwd: resolve(import.meta.dirname, '..') });

async function lint(filePath: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages;
}

/** A module that imports `specifier` and uses what it imports, so only boundary rules can object. */
const importing = (specifier: string) => `import { thing } from '${specifier}';\nexport const used = thing;\n`;

describe('import boundaries (DESIGN §2)', () => {
  it.each([
    ['shared/ must not import renderer/', 'shared/x.ts', '../renderer/y', 'must not import renderer/'],
    ['shared/ must not import renderer/ (deeper)', 'shared/ipc/x.ts', '../../renderer/state/store', 'must not import renderer/'],
    ['electron/core must not import electron/host', 'electron/core/services/x.ts', '../../host/server', 'electron/core must not import electron/host'],
    ['core tests must not import electron/host either', 'electron/core/audit/x.test.ts', '../../host/verifyCommand', 'electron/core must not import electron/host'],
    ['electron/main must not import electron/host', 'electron/main/security.ts', '../host/server', 'electron/main must not import electron/host'],
    ['production core must not import test helpers', 'electron/core/services/x.ts', '../../testing/testCase', 'test-only helpers'],
    ['electron/main must not import test helpers', 'electron/main/x.ts', '../testing/reviewCase', 'test-only helpers'],
    ['electron/host must not import test helpers', 'electron/host/x.ts', '../testing/testCase', 'test-only helpers'],
    ['preload must not import test helpers', 'electron/preload/x.ts', '../testing/testCase', 'test-only helpers'],
    ['scripts must not import test helpers', 'scripts/x.ts', '../electron/testing/testCase', 'test-only helpers'],
    // The rules that were there before must survive the new blocks (flat config replaces options).
    ['renderer/ must not import Electron', 'renderer/x.ts', 'electron', 'must not import Electron'],
    ['shared/ must not import Node built-ins', 'shared/x.ts', 'node:fs', 'must not import Node built-ins'],
    ['renderer/ must not reach into the main process', 'renderer/state/x.ts', '../../electron/core/session', 'must not reach into the main process'],
    ['electron/core must not import Electron', 'electron/core/x.ts', 'electron', 'must not import Electron'],
    ['electron/host must not import electron/main', 'electron/host/x.ts', '../main/security', 'must not import electron/main'],
  ])('%s', async (_rule, filePath, specifier, message) => {
    const messages = await lint(filePath, importing(specifier));
    // One import may match more than one pattern (a main-process path also matches 'electron/*').
    expect(messages.map((m) => [m.ruleId, m.severity])).toEqual(messages.map(() => ['no-restricted-imports', 2]));
    expect(messages).toEqual(expect.arrayContaining([expect.objectContaining({ message: expect.stringContaining(message) })]));
  });

  it('catches `export … from` as well as import', async () => {
    const messages = await lint('shared/x.ts', "export { thing } from '../renderer/y';\n");
    expect(messages.map((m) => m.ruleId)).toEqual(['no-restricted-imports']);
  });

  it.each([
    ['shared/ importing shared/', 'shared/ipc/x.ts', '../domain/schemas'],
    ['renderer/ importing shared/', 'renderer/state/x.ts', '../../shared/ipc/contract'],
    ['electron/main importing core and shared/', 'electron/main/x.ts', '../core/session'],
    ['electron/main importing the shared CSP', 'electron/main/security.ts', '../../shared/security/csp'],
    ['electron/host importing core', 'electron/host/x.ts', '../core/dispatch'],
    ['electron/core importing shared/', 'electron/core/services/x.ts', '../../../shared/ipc/contract'],
    ['a core test importing test helpers', 'electron/core/services/x.test.ts', '../../testing/testCase'],
    ['a renderer test importing its module', 'renderer/state/x.test.ts', './store'],
    ['a bench importing test helpers', 'bench/x.ts', '../electron/testing/testCase'],
    ['an e2e spec importing host and core', 'e2e/x.spec.ts', '../electron/host/server'],
    ['test helpers importing each other', 'electron/testing/x.ts', './testCase'],
  ])('allows %s', async (_case, filePath, specifier) => {
    expect(await lint(filePath, importing(specifier))).toEqual([]);
  });
});

describe('evidence is never rendered as HTML (DESIGN §3.1)', () => {
  it('refuses dangerouslySetInnerHTML on a JSX element', async () => {
    const messages = await lint('renderer/components/X.tsx', 'export const X = (p: { html: string }) => <div dangerouslySetInnerHTML={{ __html: p.html }} />;\n');
    expect(messages).toEqual([expect.objectContaining({ ruleId: 'no-restricted-syntax', severity: 2, message: expect.stringContaining('inert text') })]);
  });

  it('refuses it in a props object spread onto an element', async () => {
    const code = "const props = { dangerouslySetInnerHTML: { __html: '<b>x</b>' } };\nexport const X = () => <div {...props} />;\n";
    const messages = await lint('renderer/components/X.tsx', code);
    expect(messages).toEqual([expect.objectContaining({ ruleId: 'no-restricted-syntax', message: expect.stringContaining('inert text') })]);
  });

  it('allows evidence as a text child', async () => {
    expect(await lint('renderer/components/X.tsx', 'export const X = (p: { text: string }) => <pre>{p.text}</pre>;\n')).toEqual([]);
  });
});

describe('writes take the lock up front (issue 12.1)', () => {
  const deferred = "import type { CaseDb } from '../store/caseFile';\nexport const write = (db: CaseDb) => db.transaction(() => 1)();\n";
  it('refuses a bare db.transaction in production code', async () => {
    const messages = await lint('electron/core/services/x.ts', deferred);
    expect(messages).toEqual([expect.objectContaining({ ruleId: 'no-restricted-syntax', severity: 2, message: expect.stringContaining('writeTransaction') })]);
  });
  it('allows it where the helper lives, and in tests', async () => {
    expect(await lint('electron/core/store/caseFile.ts', deferred.replace("'../store/caseFile'", "'./other'"))).toEqual([]);
    expect(await lint('electron/core/services/x.test.ts', deferred)).toEqual([]);
  });
});
