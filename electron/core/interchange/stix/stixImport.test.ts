import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../../shared/domain/canonical';
import { StixExportResult, StixImportReport } from '../../../../shared/ipc/channels/stix';
import { createTestCase, TEST_PASSPHRASE, type TestCase } from '../../../testing/testCase';
import { WorkbenchError } from '../../errors';
import { tableDigest } from '../../store/digest';
import { exportStix } from './stixExport';
import { importStix } from './stixImport';

type Obj = Record<string, unknown>;
const RED = 'marking-definition--5e57c739-391a-4eb3-b6be-7d15ca92d5ed';
const TLP2_GREEN = 'marking-definition--bab4a63c-aed9-4cf5-a766-dfca5abac2bb';
let n = 0;
const id = (type: string) => `${type}--00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
const sdo = (type: string, extra: Obj = {}): Obj => ({ type, spec_version: '2.1', id: id(type), created: '2021-03-01T10:00:00.000Z', modified: '2021-03-01T10:00:00.000Z', ...extra });
const bundle = (objects: Obj[]) => ({ type: 'bundle', id: id('bundle'), objects });

function writeBundle(tc: TestCase, name: string, doc: unknown): string {
  const path = join(tc.dir, name);
  writeFileSync(path, typeof doc === 'string' ? doc : JSON.stringify(doc, null, 1));
  return path;
}
const rows = (tc: TestCase, sql: string, ...params: unknown[]) => tc.session.db().prepare(sql).all(...params) as Obj[];
const latestOf = (tc: TestCase, evidenceId: string) =>
  rows(tc, `SELECT r.revision_id, r.state, r.classification, r.confidence, r.producer, r.producer_type, r.source_ref, r.valid_until, r.media_type, r.kind,
                   (SELECT supporting_ref FROM evidence_transition t WHERE t.revision_id = r.revision_id ORDER BY transition_id DESC LIMIT 1) AS ref
              FROM evidence_revision r WHERE r.evidence_id = ? ORDER BY r.revision DESC LIMIT 1`, evidenceId)[0];
const bindingsOf = (tc: TestCase, claimId: string) => rows(tc, 'SELECT revision_id, relation, role FROM claim_binding WHERE claim_id = ? ORDER BY binding_id', claimId);

/** Runs an import that must be refused, and proves the case did not change. */
function refused(tc: TestCase, path: string, options: { maxBytes?: number } = {}): WorkbenchError {
  const before = tableDigest(tc.casePath);
  let error: unknown;
  try {
    importStix(tc.session.context(), { path, ...options });
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(WorkbenchError);
  expect(tableDigest(tc.casePath)).toBe(before);
  return error as WorkbenchError;
}

describe('stix:import revocation', () => {
  let tc: TestCase;
  beforeAll(async () => {
    tc = await createTestCase();
  });
  afterAll(() => tc.cleanup());

  const author = sdo('identity', { name: 'MITRE', identity_class: 'organization' });
  const a = sdo('attack-pattern', { name: 'Old technique', revoked: true, created_by_ref: author.id, modified: '2021-04-01T00:00:00.000Z' });
  const b = sdo('attack-pattern', { name: 'Renamed technique', revoked: true, created_by_ref: author.id, modified: '2021-05-01T00:00:00.000Z' });
  const c = sdo('attack-pattern', { name: 'Current technique', created_by_ref: author.id });
  const d = sdo('malware', { name: 'Withdrawn malware', is_family: true, revoked: true });
  const group = sdo('intrusion-set', { name: 'APT-Test' });
  const ab = sdo('relationship', { relationship_type: 'revoked-by', source_ref: a.id, target_ref: b.id });
  const bc = sdo('relationship', { relationship_type: 'revoked-by', source_ref: b.id, target_ref: c.id });
  const usesA = sdo('relationship', { relationship_type: 'uses', source_ref: group.id, target_ref: a.id });
  const usesC = sdo('relationship', { relationship_type: 'uses', source_ref: group.id, target_ref: c.id });

  it('supersedes a revoked-by chain by its live end, revokes what has no successor, and flags relationships to revoked objects', () => {
    // Listed out of order on purpose: the chain is followed whatever the order of the objects.
    const path = writeBundle(tc, 'revoked.json', bundle([usesA, bc, a, author, ab, b, c, d, group, usesC]));
    const report = importStix(tc.session.context(), { path });
    const cNow = latestOf(tc, c.id as string)!;
    for (const revoked of [a, b]) {
      expect(latestOf(tc, revoked.id as string)).toMatchObject({ state: 'SUPERSEDED', ref: cNow.revision_id });
    }
    expect(cNow.state).toBe('CANDIDATE');
    expect(latestOf(tc, d.id as string)).toMatchObject({ state: 'REVOKED' });
    expect(report.stix.superseded.map((s) => [s.id, s.successor, s.chain])).toEqual(expect.arrayContaining([[a.id, cNow.revision_id, [b.id, c.id]], [b.id, cNow.revision_id, [c.id]]]));
    expect(report.stix.revoked).toEqual([expect.objectContaining({ id: d.id, reason: expect.stringMatching(/no revoked-by relationship/) })]);
    expect(report.stix.relationshipsToRevoked).toEqual([{ id: usesA.id, relationshipType: 'uses', revokedEnds: [a.id] }]);
    // The relationship stays, bound to its claim like any other.
    expect(bindingsOf(tc, `stix.rel:${String(usesA.id)}`)).toEqual([{ revision_id: `${String(usesA.id)}@1`, relation: 'FULL_SUPPORT', role: 'SUPPORTING' }]);
    expect(rows(tc, 'SELECT statement FROM claim WHERE claim_id = ?', `stix.rel:${String(usesA.id)}`)).toEqual([{ statement: 'APT-Test uses Old technique' }]);
  });

  it('re-importing the same bundle changes nothing', () => {
    const before = tableDigest(tc.casePath);
    const report = importStix(tc.session.context(), { path: join(tc.dir, 'revoked.json') });
    expect(report.created).toEqual({ sources: 0, evidence: 0, claims: 0, bindings: 0, prov: 0 });
    expect(report.stix).toMatchObject({ versionsStored: 0, versionsUnchanged: 10, superseded: [], revoked: [], lifecycleNotApplied: [] });
    expect(tableDigest(tc.casePath)).toBe(before);
  });

  it('an object revoked before and live again with a newer modified gets a new revision; history stays as it was', () => {
    const history = rows(tc, 'SELECT * FROM evidence_revision WHERE evidence_id = ?', a.id);
    const back = { ...a, revoked: false, modified: '2022-01-01T00:00:00.000Z', description: 'reinstated' };
    const report = importStix(tc.session.context(), { path: writeBundle(tc, 'back.json', bundle([back])) });
    expect(report.created.evidence).toBe(1);
    expect(latestOf(tc, a.id as string)).toMatchObject({ revision_id: `${String(a.id)}@2`, state: 'CANDIDATE' });
    expect(rows(tc, 'SELECT * FROM evidence_revision WHERE evidence_id = ? AND revision = 1', a.id)).toEqual(history);
    expect(JSON.parse(rows(tc, 'SELECT content FROM evidence_revision WHERE revision_id = ?', `${String(a.id)}@2`)[0]!.content as string)).toEqual(back);
  });

  it('an analyst imports the objects but may not move their lifecycle: the report says so', async () => {
    await tc.call('actor:create', { actorId: 'ana', displayName: 'Ana', role: 'analyst', tenants: ['acme'], maxClassification: 'internal', passphrase: TEST_PASSPHRASE });
    tc.as('ana');
    try {
      const e = sdo('tool', { name: 'Retired tool', revoked: true });
      const report = importStix(tc.session.context(), { path: writeBundle(tc, 'analyst.json', bundle([e])) });
      expect(report.created.evidence).toBe(1);
      expect(report.stix.lifecycleNotApplied).toEqual([expect.objectContaining({ id: e.id, wanted: 'REVOKED', kept: 'CANDIDATE', reason: expect.stringMatching(/needs a reviewer or admin/) })]);
    } finally {
      tc.as('admin');
    }
  });
});

describe('stix:import versions', () => {
  let tc: TestCase;
  beforeAll(async () => {
    tc = await createTestCase();
  });
  afterAll(() => tc.cleanup());
  const v1 = sdo('indicator', { name: 'C2 address', pattern: "[ipv4-addr:value = '203.0.113.7']", pattern_type: 'stix', valid_from: '2021-03-01T10:00:00Z' });
  const v2 = { ...v1, modified: '2021-06-01T10:00:00.000Z', confidence: 60 };
  const v3 = { ...v1, modified: '2021-09-01T10:00:00.000Z', confidence: 90 };

  it('orders versions of one id by modified, whatever order the bundle lists them in', () => {
    importStix(tc.session.context(), { path: writeBundle(tc, 'v.json', bundle([v2, v1])) });
    const revisions = rows(tc, 'SELECT revision, content, supersedes, source_version FROM evidence_revision WHERE evidence_id = ? ORDER BY revision', v1.id);
    expect(revisions.map((r) => [r.revision, JSON.parse(r.content as string).modified, r.supersedes])).toEqual([[1, v1.modified, null], [2, v2.modified, `${String(v1.id)}@1`]]);
  });

  it('a later import appends a newer version, and reports an older one it does not store', () => {
    const older = { ...v1, modified: '2021-05-01T10:00:00.000Z', confidence: 10 };
    const report = importStix(tc.session.context(), { path: writeBundle(tc, 'v3.json', bundle([older, v3, v2])) });
    expect(report.created.evidence).toBe(1);
    expect(report.stix.olderThanCase).toEqual([{ id: v1.id, modified: older.modified, latestInCase: v2.modified }]);
    expect(latestOf(tc, v1.id as string)).toMatchObject({ revision_id: `${String(v1.id)}@3`, confidence: 0.9 });
  });

  it('refuses two different objects claiming the same version, and a version the case holds with other content', () => {
    const forged = { ...v3, confidence: 1 };
    const inBundle = refused(tc, writeBundle(tc, 'same.json', bundle([sdo('identity', { name: 'x' }), { ...v1, modified: '2022-01-01T00:00:00.000Z' }, { ...v1, modified: '2022-01-01T00:00:00.000Z', name: 'other' }])));
    expect(inBundle.message).toMatch(/^stix:import: objects\[2\] \(indicator--[0-9a-f-]+\): modified: objects\[1\] is the same version \(2022-01-01T00:00:00.000Z\) with other content/);
    const inCase = refused(tc, writeBundle(tc, 'forged.json', bundle([forged])));
    expect(inCase.message).toMatch(/objects\[0\] \(indicator--[0-9a-f-]+\): modified: the case already holds version 2021-09-01T10:00:00.000Z/);
    // A newer version marked TLP:RED would belong to another compartment (its id would carry ~acme.restricted).
    const red = refused(tc, writeBundle(tc, 'red.json', bundle([{ ...v1, modified: '2023-01-01T00:00:00.000Z', object_marking_refs: [RED] }])));
    expect(red.message).toMatch(/object_marking_refs: this version, in tenant acme at restricted, would be indicator--[0-9a-f-]+~acme\.restricted in this case, but its earlier versions are indicator--[0-9a-f-]+;/);
  });
});

describe('stix:import refusals leave the case as it was', () => {
  let tc: TestCase;
  beforeAll(async () => {
    tc = await createTestCase();
    importStix(tc.session.context(), { path: writeBundle(tc, 'seed.json', bundle([sdo('malware', { name: 'Seed', is_family: false })])) });
  });
  afterAll(() => tc.cleanup());
  const good = () => bundle([sdo('indicator', { name: 'ok', pattern: '[url:value = "x"]', pattern_type: 'stix', valid_from: '2021-03-01T10:00:00Z' }), sdo('malware', { name: 'Another', is_family: true })]);

  it.each([
    ['truncated JSON', () => JSON.stringify(good(), null, 1).slice(0, 300), /stix:import: .*truncated\.json: \(document\): not valid JSON \(.+\): the file ends before the JSON document does \(truncated\?\); nothing was imported/],
    ['an array', () => '[1, 2]', /\(document\): expected a STIX bundle \(a JSON object with "type": "bundle"\), got an array/],
    ['a single object', () => sdo('indicator'), /type: expected "bundle", got "indicator"; this is a single indicator object, wrap it/],
    ['a bundle without objects array', () => ({ type: 'bundle', id: id('bundle'), objects: { a: 1 } }), /the bundle: objects: expected an array of STIX objects/],
    ['an object without an id', () => bundle([sdo('malware', { name: 'fine', is_family: true }), { type: 'indicator', spec_version: '2.1', name: 'no id' }]), /objects\[1\] \(indicator\): id: expected "indicator--<uuid>", got nothing/],
    ['an object without a type', () => bundle([{ id: 'indicator--1', name: 'no type' }]), /objects\[0\]: type: expected a STIX type such as "indicator", got nothing/],
    ['confidence of the wrong type', () => bundle([sdo('indicator', { confidence: 'high' })]), /objects\[0\] \(indicator--[0-9a-f-]+\): confidence: expected an integer from 0 to 100, got "high"/],
    ['a bad timestamp', () => bundle([sdo('indicator', { valid_until: 'tomorrow' })]), /valid_until: expected a STIX timestamp/],
    ['an opinion outside the vocabulary', () => bundle([sdo('opinion', { opinion: 'maybe', object_refs: [] })]), /opinion: expected one of strongly-disagree, disagree, neutral, agree, strongly-agree, got "maybe"/],
  ])('%s', (name, make, message) => {
    const doc = make();
    const err = refused(tc, writeBundle(tc, `${name.replace(/\s+/g, '-')}.json`.replace('truncated-JSON', 'truncated'), doc));
    expect(err.code).toBe('VALIDATION');
    expect(err.message).toMatch(message);
  });

  it('a file over the size limit is refused before it is parsed', () => {
    const err = refused(tc, writeBundle(tc, 'big.json', good()), { maxBytes: 100 });
    expect(err.message).toMatch(/big\.json: size: the file has [0-9,]+ bytes; the limit is 100; nothing was imported/);
  });

  it('a refusal by the case half-way through (a TLP:RED object beyond the importer\'s clearance) undoes the records before it', async () => {
    await tc.call('actor:create', { actorId: 'rev', displayName: 'Rev', role: 'reviewer', tenants: ['acme'], maxClassification: 'internal', passphrase: TEST_PASSPHRASE });
    tc.as('rev');
    try {
      const objects = [sdo('malware', { name: 'first', is_family: true }), sdo('malware', { name: 'second', is_family: true }), sdo('indicator', { name: 'secret', object_marking_refs: [RED] })];
      const err = refused(tc, writeBundle(tc, 'red.json', bundle(objects)));
      expect(err.code).toBe('FORBIDDEN');
      expect(err.message).toMatch(/^stix:import: objects\[2\] \(indicator--[0-9a-f-]+\) \(evidence\): evidence:ingest: your clearance does not cover tenant acme at restricted/);
    } finally {
      tc.as('admin');
    }
  });
});

describe('stix:import mapping', () => {
  let tc: TestCase;
  beforeAll(async () => {
    tc = await createTestCase();
  });
  afterAll(() => tc.cleanup());

  const analyst = sdo('identity', { name: 'Jane Analyst', identity_class: 'individual' });
  const amber = { type: 'marking-definition', spec_version: '2.1', id: id('marking-definition'), created: '2021-01-01T00:00:00.000Z', definition_type: 'tlp', definition: { tlp: 'amber' } };
  const statement = { type: 'marking-definition', spec_version: '2.1', id: id('marking-definition'), created: '2021-01-01T00:00:00.000Z', definition_type: 'statement', definition: { statement: 'Copyright Example' } };
  const secret = sdo('indicator', { name: 'Red address', object_marking_refs: [RED], pattern: "[ipv4-addr:value = '198.51.100.1']", pattern_type: 'stix', valid_from: '2021-03-01T10:00:00Z' });
  const guarded = sdo('indicator', { name: 'Amber address', object_marking_refs: [amber.id], pattern: "[ipv4-addr:value = '198.51.100.2']", pattern_type: 'stix', valid_from: '2021-03-01T10:00:00Z' });
  const green = sdo('indicator', { name: 'Green address', object_marking_refs: [TLP2_GREEN, statement.id], pattern: "[ipv4-addr:value = '198.51.100.3']", pattern_type: 'stix', valid_from: '2021-03-01T10:00:00Z' });
  const plain = sdo('indicator', {
    name: 'Plain address', created_by_ref: analyst.id, confidence: 85, pattern: "[ipv4-addr:value = '198.51.100.4']", pattern_type: 'stix', valid_from: '2021-03-02T10:00:00Z', valid_until: '2022-03-02T10:00:00Z',
    external_references: [{ source_name: 'feed', external_id: 'F-1' }, { source_name: 'blog', url: 'https://example.org/post' }],
  });
  const malware = sdo('malware', { name: 'Example RAT', is_family: true });
  const indicates = sdo('relationship', { relationship_type: 'indicates', source_ref: plain.id, target_ref: malware.id });
  const seen = sdo('sighting', { sighting_of_ref: plain.id, count: 3, first_seen: '2021-04-01T00:00:00Z' });
  const notSeen = sdo('sighting', { sighting_of_ref: plain.id, x_opencti_negative: true });
  const agree = sdo('opinion', { opinion: 'strongly-agree', object_refs: [indicates.id], created_by_ref: analyst.id });
  const disagree = sdo('opinion', { opinion: 'disagree', object_refs: [plain.id] });
  const neutral = sdo('opinion', { opinion: 'neutral', object_refs: [seen.id] });
  const custom = { type: 'x-acme-widget', id: id('x-acme-widget'), spec_version: '2.1', created: '2021-01-01T00:00:00.000Z', modified: '2021-01-01T00:00:00.000Z', x_acme_level: 3 };
  const language = sdo('language-content', { object_ref: malware.id, object_modified: malware.modified, contents: { de: { name: 'Beispiel-RAT' } } });
  const objects = [analyst, amber, statement, secret, guarded, green, plain, malware, indicates, seen, notSeen, agree, disagree, neutral, custom, language];

  it('maps markings, confidence, producer, references and validity; lists what it keeps verbatim only', () => {
    const report = importStix(tc.session.context(), { path: writeBundle(tc, 'mapping.json', bundle(objects)), classification: 'internal' });
    // What the stix:import channel answers must fit its contract.
    expect(StixImportReport.parse(report)).toEqual(report);
    expect(report.created.evidence).toBe(objects.length);
    // TLP:RED lands restricted (outside the test case's home scope, so its id carries the scope).
    expect(report.renamed).toContainEqual({ kind: 'evidence', name: secret.id, id: `${String(secret.id)}~acme.restricted` });
    expect(latestOf(tc, `${String(secret.id)}~acme.restricted`)).toMatchObject({ classification: 'restricted', media_type: 'application/stix+json;version=2.1', kind: 'threat_intel' });
    expect(latestOf(tc, `${String(guarded.id)}~acme.confidential`)).toMatchObject({ classification: 'confidential' });
    expect(latestOf(tc, green.id as string)).toMatchObject({ classification: 'internal' });
    expect(report.stix.markingsNotMapped).toEqual({ [statement.id]: 1 });
    expect(latestOf(tc, plain.id as string)).toMatchObject({ confidence: 0.85, producer: 'Jane Analyst', producer_type: 'person', source_ref: 'https://example.org/post', valid_until: '2022-03-02T10:00:00Z' });
    expect(report.stix.keptVerbatimOnly).toEqual({ 'x-acme-widget': { count: 1, ids: [custom.id] }, 'language-content': { count: 1, ids: [language.id] } });
    expect(report.stix.byType.sighting).toEqual({ count: 2, kind: 'telemetry' });
    expect(report.stix.byType.opinion).toEqual({ count: 3, kind: 'analyst_note' });
  });

  it('binds sightings to "<object> was sighted": negative ones as REFUTES', () => {
    const claim = `stix.sighted:${String(plain.id)}`;
    expect(rows(tc, 'SELECT statement, classification FROM claim WHERE claim_id = ?', claim)).toEqual([{ statement: 'Plain address was sighted', classification: 'internal' }]);
    expect(bindingsOf(tc, claim)).toEqual([
      { revision_id: `${String(seen.id)}@1`, relation: 'FULL_SUPPORT', role: 'SUPPORTING' },
      { revision_id: `${String(notSeen.id)}@1`, relation: 'REFUTES', role: 'SUPPORTING' },
      { revision_id: `${String(neutral.id)}@1`, relation: 'CONTEXT_ONLY', role: 'CONTEXT' },
    ]);
  });

  it('binds opinions to the claims about what they judge: agree supports, disagree refutes, neutral is context', () => {
    expect(bindingsOf(tc, `stix.rel:${String(indicates.id)}`)).toEqual([
      { revision_id: `${String(indicates.id)}@1`, relation: 'FULL_SUPPORT', role: 'SUPPORTING' },
      { revision_id: `${String(agree.id)}@1`, relation: 'FULL_SUPPORT', role: 'SUPPORTING' },
    ]);
    expect(rows(tc, 'SELECT statement FROM claim WHERE claim_id = ?', `stix.rel:${String(indicates.id)}`)).toEqual([{ statement: 'Plain address indicates Example RAT' }]);
    expect(bindingsOf(tc, `stix.about:${String(plain.id)}`)).toEqual([{ revision_id: `${String(disagree.id)}@1`, relation: 'REFUTES', role: 'SUPPORTING' }]);
  });

  it('a reviewer without restricted clearance exports what they may see: no TLP:RED object', async () => {
    await tc.call('actor:create', { actorId: 'amy', displayName: 'Amy', role: 'reviewer', tenants: ['acme'], maxClassification: 'confidential', passphrase: TEST_PASSPHRASE });
    tc.as('amy');
    try {
      const path = join(tc.dir, 'amy.json');
      expect(() => StixExportResult.parse(exportStix(tc.session.context(), path))).not.toThrow();
      const ids = (JSON.parse(readFileSync(path, 'utf8')) as { objects: Obj[] }).objects.map((o) => o.id);
      expect(ids).toContain(guarded.id);
      expect(ids).not.toContain(secret.id);
    } finally {
      tc.as('admin');
    }
  });
});

describe('stix:import of STIX 2.0', () => {
  let tc: TestCase;
  beforeAll(async () => {
    tc = await createTestCase();
  });
  afterAll(() => tc.cleanup());

  it('takes a 2.0 bundle (spec_version on the bundle, none on objects, definition_type tlp) and exports it back unchanged', () => {
    const red = { type: 'marking-definition', id: id('marking-definition'), created: '2017-01-20T00:00:00.000Z', definition_type: 'tlp', definition: { tlp: 'red' } };
    const indicator = { type: 'indicator', id: id('indicator'), created: '2017-02-01T00:00:00.000Z', modified: '2017-02-01T00:00:00.000Z', labels: ['malicious-activity'], pattern: "[file:hashes.MD5 = 'd41d8cd98f00b204e9800998ecf8427e']", valid_from: '2017-02-01T00:00:00Z', object_marking_refs: [red.id] };
    const malware = { type: 'malware', id: id('malware'), created: '2017-02-01T00:00:00.000Z', modified: '2017-02-01T00:00:00.000Z', labels: ['trojan'], name: 'Old Trojan' };
    const rel = { type: 'relationship', id: id('relationship'), created: '2017-02-01T00:00:00.000Z', modified: '2017-02-01T00:00:00.000Z', relationship_type: 'indicates', source_ref: indicator.id, target_ref: malware.id };
    const doc = { type: 'bundle', id: id('bundle'), spec_version: '2.0', objects: [red, indicator, malware, rel] };
    const report = importStix(tc.session.context(), { path: writeBundle(tc, 'v20.json', doc) });
    expect(report.stix.specVersion).toBe('2.0');
    expect(latestOf(tc, `${indicator.id}~acme.restricted`)).toMatchObject({ classification: 'restricted', media_type: 'application/stix+json;version=2.0' });
    const out = join(tc.dir, 'v20-out.json');
    exportStix(tc.session.context(), out);
    const back = new Set((JSON.parse(readFileSync(out, 'utf8')) as { objects: Obj[] }).objects.map((o) => canonicalJson(o)));
    for (const o of doc.objects) expect(back.has(canonicalJson(o))).toBe(true);
  });
});
