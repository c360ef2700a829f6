import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The third-party test data (OASIS STIX 2.1 bundles and schemas, W3C PROV-JSON documents) lives
 * beside the repository in ../shared/data and is read in place, never copied in. It is found by
 * walking up from this file, so a copy of the repository one level deeper (Stryker's
 * .stryker-tmp/sandbox-*) finds the same folder. Missing data is an error: a test that needs it
 * must fail without it, not pass over an empty list.
 */
function findSharedData(): string {
  for (let dir = import.meta.dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'data');
    if (existsSync(join(candidate, 'stix2.1-examples'))) return candidate;
    if (dirname(dir) === dir) {
      throw new Error(`the shared test data (../shared/data beside the repository) was not found above ${import.meta.dirname}`);
    }
  }
}

export const SHARED_DATA = findSharedData();
