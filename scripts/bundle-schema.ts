// Writes resources/evidence-bundle.schema.json from the bundle's zod schemas (npm run bundle:schema).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { bundleJsonSchema } from '../shared/interchange/bundleSchema';

const target = resolve(import.meta.dirname, '..', 'resources', 'evidence-bundle.schema.json');
writeFileSync(target, `${JSON.stringify(bundleJsonSchema(), null, 2)}\n`);
process.stdout.write(`wrote ${target}\n`);
