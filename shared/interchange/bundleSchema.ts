import { z } from 'zod';
import { BundleDocument, BundleHeader, BundleRecord, BUNDLE_FORMAT, BUNDLE_VERSION } from './bundle';

/**
 * The JSON Schema shipped as resources/evidence-bundle.schema.json, generated from the zod schemas
 * the import itself validates with, so the documentation cannot drift from the code (a test holds
 * the shipped file to this; `npm run bundle:schema` rewrites it).
 */
export function bundleJsonSchema(): Record<string, unknown> {
  const io = { io: 'input' as const, unrepresentable: 'any' as const };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `https://evidence-review-workbench.invalid/schemas/${BUNDLE_FORMAT}-v${BUNDLE_VERSION}.json`,
    title: `Evidence bundle, version ${BUNDLE_VERSION}`,
    description:
      'A JSON document {format, version, producer?, createdAt?, records: [...]}. The NDJSON form has the header object on its first line and one record per line after it; $defs.header and $defs.record describe those lines.',
    ...z.toJSONSchema(BundleDocument, io),
    $defs: { header: z.toJSONSchema(BundleHeader, io), record: z.toJSONSchema(BundleRecord, io) },
  };
}
