import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProvImportReport } from '../../../shared/ipc/channels/interchange';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { createTestCase, type TestCase } from '../../testing/testCase';
import { ensureDemoCase } from '../demo';
import { dispatch } from '../dispatch';
import { handlers } from '../handlers';
import { Session, type Seat } from '../session';
import { tableDigest } from '../store/digest';
import { SHARED_DATA } from '../../testing/sharedData';

const SEED = resolve(import.meta.dirname, '..', '..', '..', 'resources', 'demo-case.json');
const PROV_DATA = join(SHARED_DATA, 'prov-json');
let dir: string;
let demo: Seat;
const as = async (seat: Seat, channel: string, request: unknown) => {
  const a = await dispatch(handlers, seat, channel, request);
  if (!a.ok) throw new Error(`${channel}: ${a.error.code}: ${a.error.message}`);
  return a.value as never;
};
type Doc = Record<string, Record<string, Record<string, unknown>>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'erwb-prov-'));
  demo = new Session({ userDataDir: dir, log: () => {} }).seat();
  demo.open(await ensureDemoCase(SEED, dir));
  demo.unlock('lena.k', 'demo-lena-2231');
}, 60_000);
afterAll(() => {
  demo.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('prov:export', () => {
  it("writes the demo case's provenance as PROV-JSON: revisions as entities with their hashes, corrections as prov:Revision, revocations as wasInvalidatedBy", async () => {
    const path = join(dir, 'demo.prov.json');
    const out: { entities: number; relations: number } = await as(demo, 'prov:export', { path });
    const doc = JSON.parse(readFileSync(path, 'utf8')) as Doc;
    expect(Object.keys(doc).every((k) => ['prefix', 'entity', 'activity', 'agent', 'used', 'wasGeneratedBy', 'wasDerivedFrom', 'wasAssociatedWith', 'wasAttributedTo', 'wasInvalidatedBy'].includes(k))).toBe(true);
    expect(doc.prefix!.erwb).toMatch(/^urn:erwb:case:[0-9a-f-]{36}\/$/);
    expect(out.entities).toBe(Object.keys(doc.entity!).length);
    const ev: { contentSha256: string } = await as(demo, 'evidence:get', { revisionId: 'ev-auth-001@1' });
    expect(doc.entity!['erwb:rev/ev-auth-001@1']).toMatchObject({ 'erwb:contentSha256': ev.contentSha256, 'prov:type': 'erwb:EvidenceRevision' });
    const revisionsOf = Object.values(doc.wasDerivedFrom ?? {}).filter((r) => (r['prov:type'] as { $?: string } | undefined)?.$ === 'prov:Revision');
    expect(revisionsOf.length).toBeGreaterThan(0);
    for (const r of revisionsOf) expect(Object.keys(r).sort()).toEqual(['prov:generatedEntity', 'prov:type', 'prov:usedEntity']);
    const invalidated = Object.values(doc.wasInvalidatedBy ?? {});
    expect(invalidated.length).toBeGreaterThan(0);
    for (const r of invalidated) expect(doc.activity![r['prov:activity'] as string]).toBeDefined();
    // Every relation names entities, activities and agents the document declares.
    const declared = new Set([...Object.keys(doc.entity!), ...Object.keys(doc.activity!), ...Object.keys(doc.agent!)]);
    for (const section of ['used', 'wasGeneratedBy', 'wasDerivedFrom', 'wasAssociatedWith', 'wasAttributedTo', 'wasInvalidatedBy']) {
      for (const r of Object.values(doc[section] ?? {})) {
        for (const [k, v] of Object.entries(r)) if (k !== 'prov:type' && k !== 'prov:time') expect(declared.has(v as string), `${section} ${k} ${String(v)}`).toBe(true);
      }
    }
  });
});

describe('prov:import', () => {
  let tc: TestCase;
  beforeAll(async () => {
    tc = await createTestCase({ homeScope: { tenants: ['acme'], maxClassification: 'confidential' } });
  });
  afterAll(() => tc.cleanup());

  it('round trip: a case holding the demo evidence takes the demo PROV-JSON as already known, and exports the same graph', async () => {
    const bundle = join(dir, 'demo.ndjson');
    await as(demo, 'bundle:export', { path: bundle });
    await tc.call('bundle:import', { path: bundle });
    const original = join(dir, 'round-trip.prov.json');
    await as(demo, 'prov:export', { path: original });
    const before = tableDigest(tc.casePath);
    const report = (await tc.call('prov:import', { path: original, tenant: 'acme', classification: 'internal' })) as ProvImportReport;
    expect(report).toMatchObject({ nodesAdded: 0, edgesAdded: 0, superseded: [], revoked: [], notApplied: [] });
    expect(tableDigest(tc.casePath)).toBe(before);
    await tc.call('prov:export', { path: join(dir, 'again.prov.json') });
    const strip = (d: Doc) => {
      // Modulo time: a revocation replayed by an import happens when the import runs.
      const values = (section: string) => Object.values(d[section] ?? {}).map((r) => JSON.stringify({ ...r, 'prov:time': undefined })).sort();
      return { entity: d.entity, activity: d.activity, agent: d.agent, relations: ['used', 'wasGeneratedBy', 'wasDerivedFrom', 'wasAssociatedWith', 'wasAttributedTo', 'wasInvalidatedBy'].map(values) };
    };
    const a = strip(JSON.parse(readFileSync(original, 'utf8')) as Doc);
    const b = strip(JSON.parse(readFileSync(join(dir, 'again.prov.json'), 'utf8')) as Doc);
    expect(b.relations).toEqual(a.relations);
    expect(Object.keys(b.entity!).sort()).toEqual(Object.keys(a.entity!).sort());
    expect(b.agent).toEqual(a.agent);
  }, 60_000);

  it('a prov:Revision between stored revisions supersedes the older one, and wasInvalidatedBy revokes', async () => {
    const { revisionId: older } = await tc.call('evidence:ingest', ingestRequest('ev-prov-old', { content: 'first report of the beacon on HOST-FS01' }));
    const { revisionId: newer } = await tc.call('evidence:ingest', ingestRequest('ev-prov-new', { content: 'corrected report of the beacon on HOST-FS01' }));
    const { revisionId: bad } = await tc.call('evidence:ingest', ingestRequest('ev-prov-bad', { content: 'feed entry later withdrawn by its vendor' }));
    await tc.call('evidence:transition', { revisionId: older, to: 'VALIDATED', reason: 'checked' });
    const path = join(dir, 'moves.prov.json');
    writeFileSync(path, JSON.stringify({
      prefix: { erwb: 'urn:erwb:case:00000000-0000-0000-0000-000000000000/' },
      wasDerivedFrom: { 'erwb:r1': { 'prov:generatedEntity': `erwb:rev/${newer}`, 'prov:usedEntity': `erwb:rev/${older}`, 'prov:type': { $: 'prov:Revision', type: 'prov:QUALIFIED_NAME' } } },
      wasInvalidatedBy: { 'erwb:i1': { 'prov:entity': `erwb:rev/${bad}`, 'prov:activity': 'erwb:node/withdrawal' } },
    }));
    const report = (await tc.call('prov:import', { path, tenant: 'acme', classification: 'internal' })) as ProvImportReport;
    expect(report.superseded).toEqual([older]);
    expect(report.revoked).toEqual([bad]);
    expect((await tc.call('evidence:get', { revisionId: older })).state).toBe('SUPERSEDED');
    expect((await tc.call('evidence:get', { revisionId: bad })).state).toBe('REVOKED');
  });

  it('every W3C test document in ../shared/data/prov-json either imports or is refused with a clear reason, never an internal error', async () => {
    const files = readdirSync(PROV_DATA).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(350);
    const outcome = { imported: 0, refused: {} as Record<string, number>, nodes: 0, edges: 0, skipped: 0 };
    for (const f of files) {
      const fresh = await createTestCase();
      try {
        const a = await fresh.raw('prov:import', { path: join(PROV_DATA, f), tenant: 'acme', classification: 'internal' });
        if (a.ok) {
          const r = a.value as ProvImportReport;
          outcome.imported++;
          outcome.nodes += r.nodesAdded;
          outcome.edges += r.edgesAdded;
          outcome.skipped += Object.values(r.skipped).reduce((x, y) => x + y, 0);
        } else {
          expect(a.error.code, `${f}: ${a.error.message}`).not.toBe('INTERNAL');
          expect(a.error.message).toMatch(/^prov:(import|record): /);
          outcome.refused[a.error.code] = (outcome.refused[a.error.code] ?? 0) + 1;
        }
      } finally {
        fresh.cleanup();
      }
    }
    process.stdout.write(`prov-json corpus: ${JSON.stringify(outcome)}\n`);
    expect(outcome.imported).toBeGreaterThan(files.length * 0.9);
    expect(outcome.edges).toBeGreaterThan(50);
  }, 240_000);
});
