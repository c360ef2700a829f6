import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../../shared/domain/canonical';
import { createTestCase, type TestCase } from '../../../testing/testCase';
import { tableDigest } from '../../store/digest';
import { exportStix } from './stixExport';
import { importStix } from './stixImport';

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
const DATA = resolve(process.cwd(), '..', 'shared', 'data');
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
    });
  });
});
