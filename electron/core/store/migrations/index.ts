import type { Database } from 'better-sqlite3';
import { m0010_case } from './0010-case';
import { m0020_evidence } from './0020-evidence';
import { m0030_claims } from './0030-claims';
import { m0040_audit } from './0040-audit';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly up: (db: Database) => void;
}

/** Ordered by version; a case file's `PRAGMA user_version` is the last one applied. */
export const MIGRATIONS: readonly Migration[] = [m0010_case, m0020_evidence, m0030_claims, m0040_audit];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
