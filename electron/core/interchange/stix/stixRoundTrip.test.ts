import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../../shared/domain/canonical';
import { StixImportReport } from '../../../../shared/ipc/channels/stix';
import { seededRandom } from '../../../testing/seededRandom';
import { createTestCase, type TestCase } from '../../../testing/testCase';
import { WorkbenchError } from '../../errors';
import { tableDigest } from '../../store/digest';
import { exportStix } from './stixExport';
import { importStix } from './stixImport';
import { MAX_OBJECT_CHARS, MAX_SOURCE_CHARS } from './stixRead';
import { collectionBundle } from './syntheticBundle';
import { SHARED_DATA } from '../../../testing/sharedData';

/**
 * STIX → case → STIX over the OASIS example bundles: every object comes back deep-equal (all
 * versions), re-importing changes nothing, and the export validates against the OASIS STIX 2.1
 * JSON schemas.
 *
 * Schemas: every file under stix2.1-schemas/schemas (common/, sdos/, sros/, observables/) is added
 * to one Ajv 2020-12 instance under its own `$id` (the raw.githubusercontent.com URL); their
 * relative `$ref`s ("../common/core.json") resolve against that `$id` among the added schemas, so
 * nothing is fetched. `unicodeRegExp: false` because core.json's `type` pattern escapes `-`, which
 * the `u` flag rejects; `strict: false` for the schemas' unknown keywords and formats.
 *
 * common/bundle.json is used with two corrections, both upstream defects (cf. oasis-open/
 * cti-stix2-json-schemas#133, the same omission for infrastructure): its `objects.items` oneOf
 * does not list location, note, opinion, grouping, incident or extension-definition, and its
 * custom-object branch is a oneOf of core.json and cyber-observable-core.json, which every SDO
 * satisfies both of, so no object outside the list can ever validate. The corrected copy adds the
 * six types and makes that branch an anyOf; each of them is also validated against its own schema.
 */
const DATA = SHARED_DATA;
const SCHEMAS = join(DATA, 'stix2.1-schemas', 'schemas');
const MISSING_FROM_BUNDLE = ['location', 'note', 'opinion', 'grouping', 'incident', 'extension-definition'];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
}

export function oasisValidator(): { bundle: ValidateFunction; byType: (type: string) => ValidateFunction; loaded: string[] } {
  const ajv = new Ajv2020({ strict: false, allErrors: true, unicodeRegExp: false, logger: false });
  addFormats(ajv);
  const loaded = walk(SCHEMAS).filter((f) => f.endsWith('.json'));
  const idOf = new Map<string, string>();
  type BundleSchema = { $id: string; properties: { objects: { items: { anyOf: [{ oneOf: { $ref: string }[] }, { allOf: [Record<string, unknown>, { properties: { type: { not: { enum: string[] } } } }] }] } } } };
  let bundle: BundleSchema | undefined;
  for (const f of loaded) {
    const schema = JSON.parse(readFileSync(f, 'utf8')) as { $id: string };
    ajv.addSchema(schema);
    idOf.set(basename(f, '.json'), schema.$id);
    if (f.endsWith(join('common', 'bundle.json'))) bundle = structuredClone(schema) as unknown as BundleSchema;
  }
  const corrected = bundle!;
  corrected.$id = corrected.$id.replace('bundle.json', 'bundle-corrected.json');
  const items = corrected.properties.objects.items.anyOf;
  for (const t of MISSING_FROM_BUNDLE) items[0].oneOf.push({ $ref: existsSync(join(SCHEMAS, 'sdos', `${t}.json`)) ? `../sdos/${t}.json` : `../common/${t}.json` });
  const custom = items[1].allOf[0] as { oneOf?: unknown; anyOf?: unknown };
  custom.anyOf = custom.oneOf;
  delete custom.oneOf;
  items[1].allOf[1].properties.type.not.enum.push(...MISSING_FROM_BUNDLE);
  ajv.addSchema(corrected);
  return {
    bundle: ajv.getSchema(corrected.$id)!,
    byType: (type) => ajv.getSchema(idOf.get(type) ?? idOf.get('core')!)!,
    loaded: loaded.map((f) => f.slice(SCHEMAS.length + 1)),
  };
}

/** Every bundle of the example sets (files that are not bundles are the error tests' business). */
function exampleBundles(): string[] {
  const dirs = [join(DATA, 'stix2.1-examples'), join(DATA, 'stix2.1-schemas', 'examples')];
  return dirs.flatMap(walk).filter((f) => f.endsWith('.json') && (JSON.parse(readFileSync(f, 'utf8')) as { type?: string }).type === 'bundle');
}

type Obj = Record<string, unknown>;
const versionKey = (o: Obj) => `${String(o.id)}|${String(o.modified ?? o.created ?? '')}`;

describe('stix round trip over the OASIS examples', () => {
  let validator: ReturnType<typeof oasisValidator>;
  beforeAll(() => {
    validator = oasisValidator();
  });

  it('loads the OASIS schemas it validates against', () => {
    expect(validator.loaded).toContain(join('common', 'bundle.json'));
    expect(validator.loaded.filter((f) => f.startsWith('sdos'))).toHaveLength(19);
    // The validator is not vacuous: a bundle with an indicator missing its pattern fails it.
    expect(validator.bundle({ type: 'bundle', id: 'bundle--0b2ef582-73b5-43a0-9b03-b35f1b50c721', objects: [{ type: 'indicator', spec_version: '2.1', id: 'indicator--40b8255b-89de-45d0-bef5-cb773106107e', created: '2020-03-12T15:29:21.946Z', modified: '2020-03-12T15:29:21.946Z', valid_from: '2020-03-12T15:29:21.946Z', pattern_type: 'stix' }] })).toBe(false);
  });

  const files = exampleBundles();
  it('finds the example bundles', () => {
    expect(files.length).toBeGreaterThanOrEqual(96 + 6);
  });

  describe.each(files.map((f) => [f.slice(DATA.length + 1), f]))('%s', (_name, file) => {
    let tc: TestCase;
    beforeAll(async () => {
      tc = await createTestCase();
    });
    afterAll(() => tc.cleanup());

    it('imports, re-imports unchanged, and exports every object deep-equal in a bundle that validates', () => {
      const input = JSON.parse(readFileSync(file, 'utf8')) as { objects: Obj[] };
      const report = importStix(tc.session.context(), { path: file });
      expect(report.stix.objects).toBe(input.objects.length);
      expect(report.created.evidence).toBe(new Set(input.objects.map((o) => canonicalJson(o))).size);

      const before = tableDigest(tc.casePath);
      const again = importStix(tc.session.context(), { path: file });
      expect(again.created).toEqual({ sources: 0, evidence: 0, claims: 0, bindings: 0, prov: 0 });
      expect(again.unchanged.evidence).toBe(report.created.evidence);
      expect(tableDigest(tc.casePath)).toBe(before);

      const out = join(tc.dir, 'export.json');
      const result = exportStix(tc.session.context(), out);
      const exported = JSON.parse(readFileSync(out, 'utf8')) as { type: string; id: string; objects: Obj[] };
      expect(result.objects).toBe(exported.objects.length);
      expect(exported.id).toMatch(/^bundle--[0-9a-f-]{36}$/);

      // Every object comes back exactly as it came in, once per version.
      const back = new Set(exported.objects.map((o) => canonicalJson(o)));
      for (const o of input.objects) expect(back.has(canonicalJson(o)), `${String(o.id)} came back changed or not at all`).toBe(true);
      const keys = exported.objects.map(versionKey);
      expect(new Set(keys).size, 'an object version exported twice').toBe(keys.length);

      // Validation: whatever the workbench wrote validates; an object that came in invalid is the
      // only kind that may go out invalid, and a bundle that came in valid goes out valid.
      const invalidIn = new Set(input.objects.filter((o) => !validator.bundle({ type: 'bundle', id: exported.id, objects: [o] })).map((o) => canonicalJson(o)));
      const invalidOut = exported.objects.filter((o) => !validator.bundle({ type: 'bundle', id: exported.id, objects: [o] }));
      for (const o of invalidOut) expect(invalidIn.has(canonicalJson(o)), `export made ${String(o.id)} invalid: ${JSON.stringify(validator.bundle.errors?.slice(0, 3))}`).toBe(true);
      const own = exported.objects.filter((o) => !input.objects.some((i) => i.id === o.id));
      for (const o of own) {
        const v = validator.byType(o.type as string);
        expect(v(o), `${String(o.id)}: ${JSON.stringify(v.errors?.slice(0, 3))}`).toBe(true);
      }
      if (invalidIn.size === 0) expect(validator.bundle(exported), JSON.stringify(validator.bundle.errors?.slice(0, 3))).toBe(true);
      // The largest example (fireeye-pivy) takes ~45 s alone and over 60 s on a machine busy with other work.
    }, 180_000);
  });
});

/**
 * An object too large for evidence content (a MITRE x-mitre-collection manifest) is kept as a
 * source document: it imports, re-imports unchanged, comes back deep-equal in an export that
 * validates, and what refers to it still maps. One too large for a source document is refused.
 */
describe('stix objects too large for evidence', () => {
  let tc: TestCase;
  let validator: ReturnType<typeof oasisValidator>;
  const { bundle, collection } = collectionBundle(seededRandom(2024), 20_000);
  const newer: Obj = { ...collection, modified: '2024-10-31T14:49:36.054Z', x_mitre_version: '16.0', x_mitre_contents: [...(collection.x_mitre_contents as Obj[]), { object_ref: 'tool--5a2b1d3c-0e4f-4a6b-8c7d-9e0f1a2b3c4d', object_modified: '2024-10-31T14:49:36.054Z' }] };
  const id = collection.id as string;
  const sources = () => tc.session.db().prepare('SELECT source_id, title, content, media_type, tenant, classification FROM source_document ORDER BY source_id').all() as Obj[];
  const write = (name: string, doc: unknown) => {
    const path = join(tc.dir, name);
    writeFileSync(path, JSON.stringify(doc));
    return path;
  };
  beforeAll(async () => {
    tc = await createTestCase();
    validator = oasisValidator();
  });
  afterAll(() => tc.cleanup());

  it('keeps the collection as a source document holding its JSON, and everything else as evidence', () => {
    const content = canonicalJson(collection);
    expect(content.length).toBeGreaterThan(MAX_OBJECT_CHARS);
    const report = importStix(tc.session.context(), { path: write('attack.json', bundle) });
    expect(StixImportReport.parse(report)).toEqual(report);
    expect(report.created).toMatchObject({ sources: 1, evidence: bundle.objects.length - 1 });
    expect(report.stix.keptAsSource).toEqual({ count: 1, ids: [id], versions: [{ id, version: collection.modified, sourceId: `${id}@${String(collection.modified)}`, characters: content.length }] });
    expect(report.stix.keptVerbatimOnly).toEqual({});
    expect(sources()).toEqual([{
      source_id: `${id}@${String(collection.modified)}`, title: `Enterprise ATT&CK (STIX x-mitre-collection, ${String(collection.modified)})`, content,
      media_type: 'application/stix+json;version=2.1', tenant: 'acme', classification: 'internal',
    }]);
    expect(tc.session.db().prepare('SELECT COUNT(*) AS n FROM evidence_lineage WHERE evidence_id LIKE ?').get(`${id}%`)).toEqual({ n: 0 });
  });

  it('what refers to the collection maps as for an object the case holds no evidence of', () => {
    const [related, opinion] = bundle.objects.slice(-2) as [Obj, Obj];
    const claims = tc.session.db().prepare('SELECT c.claim_id, c.statement, b.revision_id FROM claim c JOIN claim_binding b USING (claim_id) WHERE c.claim_id IN (?, ?) ORDER BY c.claim_id').all(`stix.rel:${String(related.id)}`, `stix.about:${id}`);
    expect(claims).toEqual([
      { claim_id: `stix.about:${id}`, statement: 'Enterprise ATT&CK (x-mitre-collection) is accurate as published', revision_id: `${String(opinion.id)}@1` },
      { claim_id: `stix.rel:${String(related.id)}`, statement: 'Sample RAT related-to Enterprise ATT&CK', revision_id: `${String(related.id)}@1` },
    ]);
  });

  it('re-importing changes nothing; a newer version of the collection is a new source, the old one stays', () => {
    const before = tableDigest(tc.casePath);
    const again = importStix(tc.session.context(), { path: join(tc.dir, 'attack.json') });
    expect(again.created).toEqual({ sources: 0, evidence: 0, claims: 0, bindings: 0, prov: 0 });
    expect(again.unchanged).toMatchObject({ sources: 1, evidence: bundle.objects.length - 1 });
    expect(tableDigest(tc.casePath)).toBe(before);

    const report = importStix(tc.session.context(), { path: write('attack-16.json', { ...bundle, objects: bundle.objects.map((o) => (o.id === id ? newer : o)) }) });
    expect(report.created).toEqual({ sources: 1, evidence: 0, claims: 0, bindings: 0, prov: 0 });
    expect(report.stix.keptAsSource.versions.map((v) => v.sourceId)).toEqual([`${id}@${String(newer.modified)}`]);
    expect(sources().map((r) => [r.source_id, JSON.parse(r.content as string)])).toEqual([[`${id}@${String(collection.modified)}`, collection], [`${id}@${String(newer.modified)}`, newer]]);
  }, 60_000);

  it('refuses another object under a version the case holds, and one too large for a source document; the case stays as it was', () => {
    const before = tableDigest(tc.casePath);
    const attempt = (name: string, objects: Obj[]): WorkbenchError => {
      const err = (() => {
        try {
          importStix(tc.session.context(), { path: write(name, { type: 'bundle', id: 'bundle--9d1f5c1e-3b7a-4f0e-8a55-2f6c0d4e1b7a', objects }) });
        } catch (e) {
          return e;
        }
        return null;
      })();
      expect(err).toBeInstanceOf(WorkbenchError);
      expect(tableDigest(tc.casePath)).toBe(before);
      return err as WorkbenchError;
    };
    const forged = attempt('forged.json', [{ ...collection, x_mitre_version: '15.2' }]);
    expect(forged.message).toMatch(new RegExp(`^stix:import: objects\\[0\\] \\(${id}\\): modified: the case already holds version ${String(collection.modified)} of ${id} \\(source document ${id}@`));
    const huge = { ...collection, id: 'x-mitre-collection--0c7e0a3b-8f1d-4e2a-9b6c-5d4e3f2a1b0c', description: 'x'.repeat(MAX_SOURCE_CHARS) };
    const err = attempt('huge.json', [bundle.objects[0]!, huge]);
    expect(err.code).toBe('VALIDATION');
    expect(err.message).toMatch(/^stix:import: objects\[1\] \(x-mitre-collection--0c7e0a3b-8f1d-4e2a-9b6c-5d4e3f2a1b0c\): \(object\): the object is 7,[0-9]{3},[0-9]{3} characters as canonical JSON; an object up to 1,000,000 is kept as evidence and one up to 5,000,000 as a source document, a larger one cannot be kept/);
  }, 60_000);

  it('an object whose earlier versions fit keeps them as evidence revisions; the version too large is a source next to them', async () => {
    const mixed = await createTestCase();
    try {
      const small = { ...collection, modified: '2023-04-25T14:00:00.000Z', x_mitre_version: '13.1', x_mitre_contents: (collection.x_mitre_contents as Obj[]).slice(0, 2000) };
      const path = join(mixed.dir, 'both.json');
      writeFileSync(path, JSON.stringify({ ...bundle, objects: [...bundle.objects, small] }));
      const report = importStix(mixed.session.context(), { path });
      expect(report.created).toMatchObject({ sources: 1, evidence: bundle.objects.length });
      expect(mixed.session.db().prepare('SELECT revision_id FROM evidence_revision WHERE evidence_id = ?').all(id)).toEqual([{ revision_id: `${id}@1` }]);
      expect(report.stix.keptAsSource.count).toBe(1);
      const before = tableDigest(mixed.casePath);
      expect(importStix(mixed.session.context(), { path }).created).toEqual({ sources: 0, evidence: 0, claims: 0, bindings: 0, prov: 0 });
      expect(tableDigest(mixed.casePath)).toBe(before);
      const out = join(mixed.dir, 'both-out.json');
      exportStix(mixed.session.context(), out);
      const back = new Set((JSON.parse(readFileSync(out, 'utf8')) as { objects: Obj[] }).objects.map((o) => canonicalJson(o)));
      for (const o of [small, collection]) expect(back.has(canonicalJson(o))).toBe(true);
    } finally {
      mixed.cleanup();
    }
  }, 60_000);

  it('exports every version of the collection verbatim from its source, in a bundle that validates', () => {
    const out = join(tc.dir, 'attack-out.json');
    const result = exportStix(tc.session.context(), out);
    expect(result.fromSources).toBe(2);
    const exported = JSON.parse(readFileSync(out, 'utf8')) as { objects: Obj[] };
    const back = exported.objects.map((o) => canonicalJson(o));
    for (const o of [...bundle.objects, newer]) expect(back.filter((b) => b === canonicalJson(o)), String(o.id)).toHaveLength(1);
    expect(validator.bundle(exported), JSON.stringify(validator.bundle.errors?.slice(0, 3))).toBe(true);
  }, 60_000);
});
