// `npm run bench`: every benchmark in sequence. Each prints its figures and ratios.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = import.meta.dirname;
const benches = readdirSync(dir).filter((f) => f.endsWith('.ts') && !['run.ts', 'lib.ts'].includes(f)).sort();
const only = process.argv[2];
for (const file of benches.filter((f) => !only || f.includes(only))) {
  process.stdout.write(`\n== ${file} ==\n`);
  execFileSync(process.execPath, [join(dir, '..', 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(dir, file)], { stdio: 'inherit' });
}
