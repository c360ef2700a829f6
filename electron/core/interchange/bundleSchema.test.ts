import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleJsonSchema } from '../../../shared/interchange/bundleSchema';

describe('resources/evidence-bundle.schema.json', () => {
  it('is what the zod schemas generate (run `npm run bundle:schema` after changing them)', () => {
    const shipped = JSON.parse(readFileSync(resolve(import.meta.dirname, '..', '..', '..', 'resources', 'evidence-bundle.schema.json'), 'utf8')) as unknown;
    expect(shipped).toEqual(JSON.parse(JSON.stringify(bundleJsonSchema())));
  });

  it('documents every record type with its required fields', () => {
    const record = (bundleJsonSchema().$defs as { record: { oneOf?: { properties: { type: { const: string } }; required: string[] }[]; anyOf?: unknown[] } }).record;
    const variants = record.oneOf ?? (record.anyOf as NonNullable<typeof record.oneOf>);
    const byType = Object.fromEntries(variants.map((v) => [v.properties.type.const, v.required]));
    expect(Object.keys(byType).sort()).toEqual(['binding', 'claim', 'evidence', 'prov', 'source', 'submission']);
    expect(byType.evidence).toEqual(expect.arrayContaining(['evidenceId', 'revision', 'content', 'context']));
    expect(byType.submission).toEqual(expect.arrayContaining(['claim', 'evidence', 'relation', 'provenance', 'lifecycle', 'confidence', 'independenceGroup']));
  });
});
