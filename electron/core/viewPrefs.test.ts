import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestCase, type TestCase } from '../testing/testCase';
import { MAX_PREF_BYTES, rememberViewPrefs } from './viewPrefs';

let tc: TestCase;
beforeEach(async () => {
  tc = await createTestCase();
});
afterEach(() => tc.cleanup());

const prefsFile = () => join(tc.session.session.userDataDir, 'view-prefs.json');

describe('view:recall and view:remember', () => {
  it('remember a view per case on this machine; nothing remembered reads as null', async () => {
    expect(await tc.call('view:recall', { view: 'evidence' })).toEqual({ value: null });
    await tc.call('view:remember', { view: 'evidence', value: { state: 'CANDIDATE', sort: 'observed-desc' } });
    await tc.call('view:remember', { view: 'review', value: 'mine' });
    expect(await tc.call('view:recall', { view: 'evidence' })).toEqual({ value: { state: 'CANDIDATE', sort: 'observed-desc' } });
    expect(await tc.call('view:recall', { view: 'review' })).toEqual({ value: 'mine' });
    expect((await tc.refusal('view:remember', { view: 'review', value: { nested: { no: 1 } } as never })).code).toBe('VALIDATION');
    const caseId = (await tc.call('case:info', {})).caseId;
    expect(Object.keys(JSON.parse(readFileSync(prefsFile(), 'utf8')))).toEqual([caseId]);
  });

  it('refuse a value over the limits, naming it, and keep what was remembered', async () => {
    await tc.call('view:remember', { view: 'evidence', value: { text: 'kept' } });
    const refused = await tc.refusal('view:remember', { view: 'evidence', value: { text: 'x'.repeat(201) } });
    expect(refused.code).toBe('VALIDATION');
    expect(refused.issues![0]!.path[0]).toBe('value');
    // The file's own bound, for callers inside the process.
    expect(() => rememberViewPrefs(tc.session.session.userDataDir, 'case-x', 'evidence', { text: 'x'.repeat(MAX_PREF_BYTES) }, '2026-12-01T00:00:00Z')).toThrow(`at most ${MAX_PREF_BYTES} are kept`);
    expect(await tc.call('view:recall', { view: 'evidence' })).toEqual({ value: { text: 'kept' } });
  });

  it('a damaged file is forgotten, not an error, and the next remember writes a whole one', async () => {
    writeFileSync(prefsFile(), '{"half a file');
    expect(await tc.call('view:recall', { view: 'evidence' })).toEqual({ value: null });
    await tc.call('view:remember', { view: 'evidence', value: { text: 'again' } });
    expect(await tc.call('view:recall', { view: 'evidence' })).toEqual({ value: { text: 'again' } });
  });

  it('a view that is not remembered is refused by the channel', async () => {
    expect((await tc.refusal('view:recall', { view: 'graph' })).code).toBe('VALIDATION');
  });

  it('keep the 200 cases set most recently', () => {
    const dir = tc.session.session.userDataDir;
    for (let i = 0; i < 205; i++) rememberViewPrefs(dir, `case-${i}`, 'evidence', { i }, new Date(Date.UTC(2026, 11, 1) + i * 1000).toISOString());
    const kept = Object.keys(JSON.parse(readFileSync(prefsFile(), 'utf8')));
    expect(kept).toHaveLength(200);
    expect(kept).toContain('case-204');
    expect(kept.filter((id) => ['case-0', 'case-1', 'case-2', 'case-3', 'case-4'].includes(id))).toEqual([]);
  });
});
