import { existsSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_FORMAT, BUNDLE_VERSION } from '../../../shared/interchange/bundle';
import type { ImportProgress } from '../../../shared/ipc/channels/importJobs';
import type { ImportReport } from '../../../shared/ipc/channels/interchange';
import type { StixImportReport } from '../../../shared/ipc/channels/stix';
import { validContext } from '../../testing/fixtures/evidence';
import { createTestCase, TEST_PASSPHRASE, type TestCase } from '../../testing/testCase';
import type { CaseDb } from '../store/caseFile';
import { tableDigest } from '../store/digest';
import { receiveUpload } from './inbox';
import { SHARED_DATA } from '../../testing/sharedData';

/**
 * import:start / import:progress / import:cancel (issue 10.7): the import runs in slices on the
 * host's event loop inside one transaction; meanwhile the case answers BUSY, a cancel or a bad
 * record leaves it exactly as it was, and the report is the one bundle:import gives.
 */
const N = 1_500;
const bundleText = (prefix: string, bad?: number) =>
  [
    { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, producer: 'test' },
    { type: 'claim', claimId: `${prefix}-claim`, statement: `${prefix}: lateral movement from HOST-FS01`, tenant: 'acme', classification: 'internal' },
    ...Array.from({ length: N }, (_, i) => ({
      type: 'evidence',
      evidenceId: `${prefix}-ev-${i}`,
      revision: 1,
      title: `event ${i}`,
      kind: 'telemetry',
      content: `2026-11-20T03:10:${String(i % 60).padStart(2, '0')}Z process_start host=HOST-FS01 pid=${1000 + i} seq=${i}`,
      context: validContext({ sourceRef: `edr:${prefix}:${i}` }),
    })),
    ...Array.from({ length: N }, (_, i) => ({
      type: 'binding',
      claimId: i === bad ? `${prefix}-nowhere` : `${prefix}-claim`,
      revision: `${prefix}-ev-${i}@1`,
      relation: 'FULL_SUPPORT',
      role: 'SUPPORTING',
    })),
  ]
    .map((r) => JSON.stringify(r))
    .join('\n');

let tc: TestCase;
beforeAll(async () => {
  tc = await createTestCase();
});
afterAll(() => tc.cleanup());

const write = (name: string, text: string) => {
  const path = join(tc.dir, name);
  writeFileSync(path, text);
  return path;
};
/** A connection's temp_store: 0 (the build's default, files) outside an import. */
const tempStoreOf = (db: CaseDb) => db.pragma('temp_store', { simple: true });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function follow(jobId: string, onApplying?: (p: ImportProgress) => Promise<void>): Promise<{ last: ImportProgress; seen: ImportProgress[] }> {
  const seen: ImportProgress[] = [];
  let acted = false;
  for (;;) {
    const p = await tc.call('import:progress', { jobId });
    seen.push(p);
    if (p.phase === 'applying' && p.done > 0 && onApplying && !acted) {
      acted = true;
      await onApplying(p);
    }
    if (p.phase !== 'reading' && p.phase !== 'applying') return { last: p, seen };
    await sleep(5);
  }
}

describe('import jobs', () => {
  it('apply in slices with progress, answer BUSY to everyone meanwhile, and report what bundle:import reports', async () => {
    const path = write('job.ndjson', bundleText('job'));
    const db = tc.session.db();
    const started = await tc.call('import:start', { source: { path } });
    expect(started).toMatchObject({ format: 'bundle', path, phase: 'reading' });
    let busy: { code: string; message: string } | null = null;
    let tempStore: unknown = null;
    const { last, seen } = await follow(started.jobId, async () => {
      const a = await tc.raw('claim:list', {});
      busy = a.ok ? null : a.error;
      tempStore = tempStoreOf(db);
    });
    expect(busy).toMatchObject({ code: 'BUSY' });
    // Statement journals are held in memory while the job applies (2 = MEMORY), and only then.
    expect(tempStore).toBe(2);
    expect(tempStoreOf(tc.session.db())).toBe(0);
    expect(busy!.message).toMatch(/an import of .*job\.ndjson is running \(applying, \d+%\)/);
    expect(last.phase, last.error?.message).toBe('done');
    expect(last).toMatchObject({ done: 2 * N + 1, total: 2 * N + 1, percent: 100 });
    const applying = seen.filter((p) => p.phase === 'applying' && p.done > 0);
    expect(applying.length).toBeGreaterThan(1);
    for (const [a, b] of applying.slice(1).map((p, i) => [applying[i]!, p] as const)) expect(b.done).toBeGreaterThanOrEqual(a.done);
    expect(applying.some((p) => p.recordsPerSecond !== null && p.recordsPerSecond > 0)).toBe(true);
    const report = last.report as ImportReport;
    expect(report.created).toMatchObject({ evidence: N, bindings: N, claims: 1 });
    // The case answers again, and the same file through bundle:import is all unchanged.
    const again = await tc.call('bundle:import', { path });
    expect(again.unchanged).toMatchObject({ evidence: N, bindings: N, claims: 1 });
    expect(tempStoreOf(tc.session.db())).toBe(0);
    expect((await tc.call('claim:get', { claimId: 'job-claim' })).claimId).toBe('job-claim');
  });

  it('a cancel rolls the whole import back, and the case works afterwards', async () => {
    const before = tableDigest(tc.casePath);
    const started = await tc.call('import:start', { source: { path: write('cancel.ndjson', bundleText('cancel')) } });
    let cancelledAt: ImportProgress | null = null;
    const { last } = await follow(started.jobId, async () => {
      cancelledAt = await tc.call('import:cancel', { jobId: started.jobId });
    });
    expect(cancelledAt).toMatchObject({ phase: 'cancelled', error: { code: 'CANCELLED' } });
    expect(last.phase).toBe('cancelled');
    expect(tableDigest(tc.casePath)).toBe(before);
    expect(tempStoreOf(tc.session.db())).toBe(0);
    expect((await tc.raw('claim:get', { claimId: 'cancel-claim' })).ok).toBe(false);
    const cancelAgain = await tc.raw('import:cancel', { jobId: started.jobId });
    expect(cancelAgain).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect((await tc.call('claim:list', {})).length).toBeGreaterThan(0);
  });

  it('a bad record late in the file fails the job with its line and leaves the case exactly as it was', async () => {
    const before = tableDigest(tc.casePath);
    const started = await tc.call('import:start', { source: { path: write('bad.ndjson', bundleText('bad', N - 3)) } });
    const { last } = await follow(started.jobId);
    expect(last.phase).toBe('failed');
    expect(last.error?.message).toMatch(new RegExp(`line ${2 * N + 3 - 3 + 0} \\(binding\\): claimId: no claim bad-nowhere`));
    expect(last.error?.message).toContain('nothing was imported');
    expect(tableDigest(tc.casePath)).toBe(before);
    expect(tempStoreOf(tc.session.db())).toBe(0);
  });

  it('a file the browser uploaded is imported from the inbox and removed afterwards', async () => {
    const text = bundleText('upl').split('\n').slice(0, 40).join('\n');
    const { uploadId, bytes } = await receiveUpload(tc.session.session.userDataDir, Readable.from([Buffer.from(text)]), 1024 ** 2);
    expect(bytes).toBe(Buffer.byteLength(text));
    const started = await tc.call('import:start', { source: { upload: uploadId, name: 'edr-export.ndjson' } });
    expect(started.path).toBe('edr-export.ndjson (uploaded)');
    const { last } = await follow(started.jobId);
    expect(last.phase, last.error?.message).toBe('done');
    expect(readdirSync(join(tc.session.session.userDataDir, 'inbox'))).not.toContain(uploadId);
    const gone = await tc.raw('import:start', { source: { upload: uploadId } });
    expect(gone).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('an uploaded file that is no import format is refused, named as the user knows it, and removed', async () => {
    const dir = tc.session.session.userDataDir;
    const { uploadId } = await receiveUpload(dir, Readable.from([Buffer.from('remember to rotate the svc-backup password')]), 1024);
    const a = await tc.raw('import:start', { source: { upload: uploadId, name: 'notes.txt' } });
    expect(a).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect((a as { error: { message: string } }).error.message).toMatch(/^import:start: notes\.txt \(uploaded\) is neither an evidence bundle/);
    expect(readdirSync(join(dir, 'inbox'))).not.toContain(uploadId);
  });

  it('an upload nobody imported within a day is removed by the next upload', async () => {
    const dir = tc.session.session.userDataDir;
    const old = await receiveUpload(dir, Readable.from([Buffer.from('x')]), 10);
    const day = new Date(Date.now() - 25 * 60 * 60 * 1000);
    utimesSync(join(dir, 'inbox', old.uploadId), day, day);
    const fresh = await receiveUpload(dir, Readable.from([Buffer.from('y')]), 10);
    const left = readdirSync(join(dir, 'inbox'));
    expect(left).not.toContain(old.uploadId);
    expect(left).toContain(fresh.uploadId);
    rmSync(join(dir, 'inbox', fresh.uploadId));
  });

  it('an upload over its limit is refused and nothing is left in the inbox', async () => {
    const dir = tc.session.session.userDataDir;
    await expect(receiveUpload(dir, Readable.from([Buffer.alloc(600, 0x61), Buffer.alloc(600, 0x61)]), 1000)).rejects.toThrow(/larger than the limit of 1,000 bytes/);
    const inbox = join(dir, 'inbox');
    expect(existsSync(inbox) ? readdirSync(inbox) : []).toEqual([]);
  });

  it('the format is read from the file: PROV-JSON is imported as provenance, other files are refused with why', async () => {
    const prov = write('doc.prov.json', JSON.stringify({ prefix: { ex: 'http://example.org/' }, entity: { 'ex:report': {} }, activity: { 'ex:triage': {} }, used: { _u1: { 'prov:activity': 'ex:triage', 'prov:entity': 'ex:report' } } }));
    const started = await tc.call('import:start', { source: { path: prov } });
    expect(started.format).toBe('prov');
    const { last } = await follow(started.jobId);
    expect(last.phase, last.error?.message).toBe('done');
    expect(last.report).toMatchObject({ nodesAdded: 2, edgesAdded: 1 });
    const other = await tc.raw('import:start', { source: { path: write('notes.txt', 'just some notes') } });
    expect(other).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect((other as { error: { message: string } }).error.message).toMatch(/neither an evidence bundle .* nor a STIX bundle nor a W3C PROV-JSON document/);
  });

  it('a STIX bundle is told by its content and imported as a job, with the mapping report', async () => {
    const path = join(SHARED_DATA, 'stix2.1-examples', 'campaign-v-actors.json');
    const started = await tc.call('import:start', { source: { path } });
    expect(started.format).toBe('stix');
    const { last } = await follow(started.jobId);
    expect(last.phase, last.error?.message).toBe('done');
    const report = last.report as StixImportReport;
    expect(report.stix.objects).toBeGreaterThan(0);
    expect(report.created.evidence).toBe(report.stix.versionsStored);
    expect(last.total).toBe(report.records);
  });

  it('a case opened while the file is read is never written to: the job fails and both cases are as they were', async () => {
    const other = await createTestCase();
    try {
      const mine = tableDigest(tc.casePath);
      const theirs = tableDigest(other.casePath);
      const started = await tc.call('import:start', { source: { path: write('switch.ndjson', bundleText('switch')) } });
      // Another case is opened in this process while the job still reads its file.
      tc.session.session.open(other.casePath);
      const { last } = await follow(started.jobId);
      expect(last.phase).toBe('failed');
      expect(last.error?.message).toMatch(/the case changed while .*switch\.ndjson was read/);
      expect(tableDigest(other.casePath)).toBe(theirs);
      expect(tableDigest(tc.casePath)).toBe(mine);
    } finally {
      tc.session.session.open(tc.casePath);
      tc.session.unlock('admin', TEST_PASSPHRASE);
      other.cleanup();
    }
  });

  it("another window cannot follow or cancel this window's import", async () => {
    const started = await tc.call('import:start', { source: { path: write('mine.ndjson', bundleText('mine').split('\n').slice(0, 5).join('\n')) } });
    const other = tc.session.session.seat('other-window');
    const { dispatch } = await import('../dispatch');
    const { handlers } = await import('../handlers');
    const a = await dispatch(handlers, other, 'import:cancel', { jobId: started.jobId });
    expect(a).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect((await follow(started.jobId)).last.phase).toBe('done');
  });
});
