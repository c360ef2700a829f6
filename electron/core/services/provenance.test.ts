import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { tableDigest } from '../store/digest';
import { createTestCase, type TestCase } from '../../testing/testCase';
import { MAX_TRACE_DEPTH } from './provenance';
import { TEST_PASSPHRASE } from '../../testing/testCase';

let tc: TestCase;
beforeEach(async () => {
  tc = await createTestCase();
  await tc.call('actor:create', { passphrase: TEST_PASSPHRASE, actorId: 'low', displayName: 'Low clearance', role: 'reviewer', tenants: ['acme'], maxClassification: 'internal' });
});
afterEach(() => tc.cleanup());

const COMPARTMENT = { tenant: 'acme', classification: 'internal' } as const;

async function ingest(id: string, extra: Parameters<typeof ingestRequest>[1] = {}): Promise<string> {
  return (await tc.call('evidence:ingest', ingestRequest(id, { ...extra, context: { sourceRef: `ref:${id}`, ...extra.context } }))).revisionId;
}

describe('prov:record', () => {
  it('adds nodes and typed edges in one transaction with one receipt', async () => {
    const a = await ingest('ev-a');
    const head = (await tc.call('audit:list', { limit: 1 })).items[0]!.seq;
    const out = await tc.call('prov:record', {
      ...COMPARTMENT,
      nodes: [
        { kind: 'activity', id: 'act-parse', activityType: 'parse', label: 'parse the export' },
        { kind: 'agent', id: 'agent-parser', agentType: 'software', label: 'log parser 2.1' },
        { kind: 'entity', id: 'page-1', label: 'https://example.test/report', sourceRef: 'web:example.test/report' },
      ],
      edges: [
        { type: 'wasGeneratedBy', from: `rev:${a}`, to: 'act-parse' },
        { type: 'used', from: 'act-parse', to: 'page-1' },
        { type: 'wasAssociatedWith', from: 'act-parse', to: 'agent-parser' },
      ],
    });
    expect(out).toEqual({ nodesAdded: ['act-parse', 'agent-parser', 'page-1', `rev:${a}`], edgesAdded: 3 });
    const receipts = (await tc.call('audit:list', { limit: 5 })).items.filter((r) => r.seq > head);
    expect(receipts.map((r) => r.action)).toEqual(['prov:record']);
  });

  it.each([
    ['wasDerivedFrom needs entity → entity', { type: 'wasDerivedFrom', from: 'act', to: 'ent' }, 'VALIDATION'],
    ['used needs activity → entity', { type: 'used', from: 'ent', to: 'act' }, 'VALIDATION'],
    ['wasAssociatedWith needs activity → agent', { type: 'wasAssociatedWith', from: 'act', to: 'ent' }, 'VALIDATION'],
    ['wasAttributedTo needs entity → agent', { type: 'wasAttributedTo', from: 'ent', to: 'act' }, 'VALIDATION'],
    ['wasGeneratedBy needs entity → activity', { type: 'wasGeneratedBy', from: 'act', to: 'ent' }, 'VALIDATION'],
    ['an unknown endpoint', { type: 'wasDerivedFrom', from: 'ent', to: 'nowhere' }, 'NOT_FOUND'],
    ['a missing revision', { type: 'wasDerivedFrom', from: 'ent', to: 'rev:ev-none@1' }, 'NOT_FOUND'],
    ['a self-loop', { type: 'wasDerivedFrom', from: 'ent', to: 'ent' }, 'VALIDATION'],
  ] as const)('refuses %s and writes nothing', async (_why, edge, code) => {
    const before = tableDigest(tc.casePath);
    const answer = await tc.raw('prov:record', {
      ...COMPARTMENT,
      nodes: [
        { kind: 'entity', id: 'ent', label: 'an entity' },
        { kind: 'activity', id: 'act', activityType: 'analyse', label: 'an activity' },
      ],
      edges: [edge],
    });
    expect(answer).toMatchObject({ ok: false, error: { code } });
    expect(tableDigest(tc.casePath)).toBe(before);
  });

  it('refuses a repeated edge, a redeclared node, reserved ids and a compartment outside the clearance', async () => {
    await tc.call('prov:record', { ...COMPARTMENT, nodes: [{ kind: 'entity', id: 'x', label: 'x' }, { kind: 'entity', id: 'y', label: 'y' }], edges: [{ type: 'wasDerivedFrom', from: 'x', to: 'y' }] });
    const before = tableDigest(tc.casePath);
    expect(await tc.raw('prov:record', { ...COMPARTMENT, edges: [{ type: 'wasDerivedFrom', from: 'x', to: 'y' }] })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(await tc.raw('prov:record', { ...COMPARTMENT, nodes: [{ kind: 'entity', id: 'x', label: 'again' }] })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(await tc.raw('prov:record', { ...COMPARTMENT, nodes: [{ kind: 'entity', id: 'rev:fake@1', label: 'spoof' }] })).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect(await tc.raw('prov:record', { ...COMPARTMENT })).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    tc.as('low');
    expect(await tc.raw('prov:record', { tenant: 'acme', classification: 'restricted', nodes: [{ kind: 'entity', id: 'z', label: 'z' }] })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(tableDigest(tc.casePath)).toBe(before);
  });
});

describe('provenance:trace', () => {
  it('walks a 3-level derivation to the original source; producer agents are shown but are not sources', async () => {
    const [copy, summary, blog] = [await ingest('ev-copy'), await ingest('ev-summary', { kind: 'agent_summary' }), await ingest('ev-blog')];
    await tc.call('prov:record', {
      ...COMPARTMENT,
      nodes: [
        { kind: 'entity', id: 'vendor-report', label: 'Vendor A VA-2026-311', sourceRef: 'vendorA:VA-2026-311' },
        { kind: 'activity', id: 'act-sum', activityType: 'summarise', label: 'triage agent run 311' },
        { kind: 'agent', id: 'agent-triage', agentType: 'software', label: 'triage agent' },
      ],
      edges: [
        { type: 'wasDerivedFrom', from: `rev:${copy}`, to: `rev:${summary}` },
        { type: 'wasGeneratedBy', from: `rev:${summary}`, to: 'act-sum' },
        { type: 'used', from: 'act-sum', to: `rev:${blog}` },
        { type: 'wasAssociatedWith', from: 'act-sum', to: 'agent-triage' },
        { type: 'wasAttributedTo', from: `rev:${summary}`, to: 'agent-triage' },
        { type: 'wasDerivedFrom', from: `rev:${blog}`, to: 'vendor-report' },
      ],
    });
    const trace = await tc.call('provenance:trace', { revisionId: copy });
    expect(trace.roots).toEqual([`rev:${copy}`]);
    expect(trace.originalSources).toEqual([{ nodeId: 'vendor-report', sourceKey: 'source:vendorA:VA-2026-311', label: 'Vendor A VA-2026-311', revisionId: null, sourceId: null }]);
    expect(trace.nodes.map((n) => n.id).sort()).toEqual(['act-sum', 'agent-triage', `rev:${blog}`, `rev:${copy}`, `rev:${summary}`, 'vendor-report'].sort());
    expect(trace.edges).toHaveLength(6);
    expect(trace.truncated).toBe(false);
  });

  it('treats untraced evidence as its own original source, but never a derived agent summary', async () => {
    const plain = await ingest('ev-plain');
    const summary = await ingest('ev-sum', { kind: 'agent_summary' });
    expect((await tc.call('provenance:trace', { revisionId: plain })).originalSources.map((s) => s.sourceKey)).toEqual(['source:ref:ev-plain']);
    expect((await tc.call('provenance:trace', { revisionId: summary })).originalSources).toEqual([]);
  });

  it('survives cycles and cuts chains deeper than the bound, saying so', async () => {
    const a = await ingest('ev-cyc-a');
    const b = await ingest('ev-cyc-b');
    await tc.call('prov:record', { ...COMPARTMENT, edges: [{ type: 'wasDerivedFrom', from: `rev:${a}`, to: `rev:${b}` }, { type: 'wasDerivedFrom', from: `rev:${b}`, to: `rev:${a}` }] });
    const cyc = await tc.call('provenance:trace', { revisionId: a });
    expect(cyc.nodes).toHaveLength(2);
    expect(cyc.originalSources).toEqual([]);

    const deep = await ingest('ev-deep');
    const chain = Array.from({ length: MAX_TRACE_DEPTH + 5 }, (_, i) => `link-${i}`);
    await tc.call('prov:record', {
      ...COMPARTMENT,
      nodes: chain.map((id) => ({ kind: 'entity' as const, id, label: id })),
      edges: [{ type: 'wasDerivedFrom', from: `rev:${deep}`, to: chain[0]! }, ...chain.slice(1).map((id, i) => ({ type: 'wasDerivedFrom' as const, from: chain[i]!, to: id }))],
    });
    const cut = await tc.call('provenance:trace', { revisionId: deep });
    expect(cut.truncated).toBe(true);
    expect(cut.originalSources).toEqual([]);
  });

  it('never returns hidden nodes: the walk stops at what the actor cannot see and says nothing about it', async () => {
    const pub = await ingest('ev-public-copy');
    const secret = await ingest('ev-secretmemo', { context: { classification: 'restricted' } });
    await tc.call('prov:record', {
      tenant: 'acme',
      classification: 'restricted',
      nodes: [{ kind: 'entity', id: 'secret-origin', label: 'secret origin memo' }],
      edges: [
        { type: 'wasDerivedFrom', from: `rev:${pub}`, to: `rev:${secret}` },
        { type: 'wasDerivedFrom', from: `rev:${secret}`, to: 'secret-origin' },
      ],
    });
    expect((await tc.call('provenance:trace', { revisionId: pub })).originalSources.map((s) => s.nodeId)).toEqual(['secret-origin']);
    tc.as('low');
    const seen = await tc.call('provenance:trace', { revisionId: pub });
    expect(JSON.stringify(seen)).not.toMatch(/secret/);
    expect(seen.nodes.map((n) => n.id)).toEqual([`rev:${pub}`]);
    expect(seen.edges).toEqual([]);
    expect(await tc.raw('provenance:trace', { revisionId: secret })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});

describe('independence through provenance', () => {
  async function threeCopiesClaim(): Promise<string[]> {
    const copies = [await ingest('ev-copy-1'), await ingest('ev-copy-2'), await ingest('ev-copy-3')];
    await tc.call('claim:create', { claimId: 'cl-ioc', statement: '45.137.21.9 is an exfiltration endpoint', tenant: 'acme', classification: 'internal', policy: { minIndependentSources: 2 } });
    for (const revisionId of copies) {
      await tc.call('evidence:transition', { revisionId, to: 'VALIDATED', reason: 'checked' });
      await tc.call('claim:bind', { claimId: 'cl-ioc', revisionId, relation: 'FULL_SUPPORT', role: 'SUPPORTING' });
    }
    return copies;
  }

  it('collapses three copies of one web page to one independent source (|I_c| = 1 beside |E_c| = 3)', async () => {
    const copies = await threeCopiesClaim();
    const before = await tc.call('claim:get', { claimId: 'cl-ioc' });
    expect(before.support).toEqual({ all: 3, independent: 3 });
    expect(before.status).toBe('SUPPORTED');
    await tc.call('prov:record', {
      ...COMPARTMENT,
      nodes: [{ kind: 'entity', id: 'web-page', label: 'https://blog.example.test/ioc' }],
      edges: copies.map((c) => ({ type: 'wasDerivedFrom' as const, from: `rev:${c}`, to: 'web-page' })),
    });
    const after = await tc.call('claim:get', { claimId: 'cl-ioc' });
    expect(after.support).toEqual({ all: 3, independent: 1 });
    expect(after.status).toBe('INSUFFICIENT');
    const trace = await tc.call('provenance:trace', { claimId: 'cl-ioc' });
    expect(trace.roots).toHaveLength(3);
    expect(trace.originalSources.map((s) => s.nodeId)).toEqual(['web-page']);
  });

  it('collapses through multi-level copies and through an activity that used the page', async () => {
    const copies = await threeCopiesClaim();
    await tc.call('prov:record', {
      ...COMPARTMENT,
      nodes: [
        { kind: 'entity', id: 'web-page', label: 'page' },
        { kind: 'activity', id: 'scrape', activityType: 'parse', label: 'scrape' },
      ],
      edges: [
        { type: 'wasDerivedFrom', from: `rev:${copies[0]}`, to: `rev:${copies[1]}` },
        { type: 'wasDerivedFrom', from: `rev:${copies[1]}`, to: 'web-page' },
        { type: 'wasGeneratedBy', from: `rev:${copies[2]}`, to: 'scrape' },
        { type: 'used', from: 'scrape', to: 'web-page' },
      ],
    });
    expect((await tc.call('claim:get', { claimId: 'cl-ioc' })).support).toEqual({ all: 3, independent: 1 });
  });

  it('an agent summary counts only through the sources it traces to', async () => {
    const log = await ingest('ev-log');
    const summary = await ingest('ev-agent', { kind: 'agent_summary', content: 'summary of ev-log' });
    await tc.call('claim:create', { claimId: 'cl-x', statement: 'something happened', tenant: 'acme', classification: 'internal', policy: { minIndependentSources: 2 } });
    await tc.call('evidence:transition', { revisionId: log, to: 'VALIDATED', reason: 'ok' });
    await tc.call('prov:record', { ...COMPARTMENT, edges: [{ type: 'wasDerivedFrom', from: `rev:${summary}`, to: `rev:${log}` }] });
    // With provenance recorded, the checklist's provenance_present passes without an override.
    await tc.call('evidence:transition', { revisionId: summary, to: 'VALIDATED', reason: 'traced to ev-log' });
    for (const revisionId of [log, summary]) await tc.call('claim:bind', { claimId: 'cl-x', revisionId, relation: 'FULL_SUPPORT', role: 'SUPPORTING' });
    expect((await tc.call('claim:get', { claimId: 'cl-x' })).support).toEqual({ all: 2, independent: 1 });
  });
});
