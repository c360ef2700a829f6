import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { aclFilter } from './acl';

/** Rows in four compartments, read through the filter as the services read them. */
function visibleIds(actor: Parameters<typeof aclFilter>[0]): string[] {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE item (id TEXT, tenant TEXT, classification TEXT);
    INSERT INTO item VALUES ('a', 'acme', 'internal'), ('b', 'acme', 'restricted'), ('c', 'globex', 'internal'), ('d', 'globex', 'public')`);
  const acl = aclFilter(actor, 'i');
  const ids = db.prepare(`SELECT id FROM item i WHERE ${acl.sql} ORDER BY id`).pluck().all(...acl.params) as string[];
  db.close();
  return ids;
}

const actor = (tenants: string[], maxClassification: 'public' | 'internal' | 'restricted') => ({ actorId: 'x', displayName: 'X', role: 'reviewer', tenants, maxClassification }) as Parameters<typeof aclFilter>[0];

describe('aclFilter', () => {
  it('keeps the rows of the actor’s tenants up to their classification', () => {
    expect(visibleIds(actor(['acme'], 'internal'))).toEqual(['a']);
    expect(visibleIds(actor(['acme', 'globex'], 'internal'))).toEqual(['a', 'c', 'd']);
    expect(visibleIds(actor(['*'], 'public'))).toEqual(['d']);
  });

  it('an actor of no tenant sees no row, whatever the classification', () => {
    expect(visibleIds(actor([], 'restricted'))).toEqual([]);
  });
});
