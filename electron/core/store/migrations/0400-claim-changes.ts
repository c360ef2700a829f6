import type { Migration } from './migration';

/**
 * Which claims a write may have changed the derivations of (status, support projection, review
 * state), recorded by the store itself: triggers on every table those derivations read append to
 * claim_change in the writing transaction, so no write path (service, import, worker, or a
 * migration to come) can forget to. Readers that keep derivations between calls
 * (services/claimMemo.ts) drop what a change names: a claim, the claims binding a revision, or,
 * with neither, any claim: a change whose reach a trigger cannot bound cheaply (a fence or a PROV
 * edge below existing derivations reaches every descendant; triggers cannot recurse). The rows
 * are a change log for caches, not facts: nothing is decided from them, and every decision
 * re-derives from the rows themselves.
 */

type Event = 'INSERT' | 'UPDATE' | 'DELETE';

/** What a write to `table` logs, per row version (NEW after INSERT and UPDATE, OLD after UPDATE and DELETE). */
interface Logged {
  table: string;
  on: readonly Event[];
  /** Claim ids of the row version `r` ('NEW' or 'OLD'). */
  claims?: (r: string) => string[];
  /** Revision ids of the row version: every claim binding them. */
  revisions?: (r: string) => string[];
  /** Any claim. */
  everything?: true;
}

const LOGGED: readonly Logged[] = [
  { table: 'claim', on: ['INSERT', 'UPDATE'], claims: (r) => [`${r}.claim_id`] },
  { table: 'claim_binding', on: ['INSERT', 'UPDATE', 'DELETE'], claims: (r) => [`${r}.claim_id`] },
  // A revision's state, validity or compartment.
  { table: 'evidence_revision', on: ['UPDATE'], revisions: (r) => [`${r}.revision_id`] },
  { table: 'evidence_revision', on: ['DELETE'], everything: true },
  // Probable copies count once towards independence.
  { table: 'evidence_copy', on: ['INSERT', 'UPDATE', 'DELETE'], revisions: (r) => [`${r}.revision_id`, `${r}.copy_of`] },
  // PROV: inserted edges are below; anything else may change any trace.
  { table: 'prov_edge', on: ['UPDATE', 'DELETE'], everything: true },
  { table: 'prov_node', on: ['UPDATE', 'DELETE'], everything: true },
  // Fences reach every claim derived from the fenced revision (PROV descendants).
  { table: 'revocation_fence', on: ['INSERT', 'UPDATE', 'DELETE'], everything: true },
  // The stored projection (its watermark decides whether a fence is still pending).
  { table: 'support_projection', on: ['INSERT', 'UPDATE', 'DELETE'], claims: (r) => [`${r}.claim_id`] },
  // Review state: decisions, votes and remediations of the claim.
  { table: 'decision', on: ['INSERT', 'UPDATE', 'DELETE'], claims: (r) => [`${r}.claim_id`] },
  { table: 'review_vote', on: ['INSERT', 'UPDATE', 'DELETE'], claims: (r) => [`${r}.claim_id`] },
  { table: 'remediation', on: ['INSERT', 'UPDATE'], claims: (r) => [`${r}.claim_id`] },
  // Reviewers (roles, clearance, keys) weigh in quorum and review state everywhere.
  { table: 'actor', on: ['INSERT', 'UPDATE'], everything: true },
  { table: 'actor_key', on: ['INSERT', 'UPDATE'], everything: true },
];

function trigger(l: Logged, event: Event): string {
  const versions = event === 'INSERT' ? ['NEW'] : event === 'DELETE' ? ['OLD'] : ['OLD', 'NEW'];
  const rows = l.everything
    ? ['INSERT INTO claim_change (claim_id) VALUES (NULL);']
    : [
        ...(l.claims ? [`INSERT INTO claim_change (claim_id) VALUES ${versions.flatMap(l.claims).map((c) => `(${c})`).join(', ')};`] : []),
        ...(l.revisions ? [`INSERT INTO claim_change (revision_id) VALUES ${versions.flatMap(l.revisions).map((r) => `(${r})`).join(', ')};`] : []),
      ];
  return `CREATE TRIGGER claim_change_on_${l.table}_${event.toLowerCase()} AFTER ${event} ON ${l.table} BEGIN\n  ${rows.join('\n  ')}\nEND;`;
}

export const m0400_claim_changes: Migration = {
  version: 400,
  name: 'claim change log',
  up: (db) => {
    db.exec(`
      CREATE TABLE claim_change (
        seq         INTEGER PRIMARY KEY,
        claim_id    TEXT,
        -- Or: every claim binding this revision, resolved by the reader (bindings are only added
        -- or removed with a change of their own), so a revision bound by thousands of claims
        -- costs a write one row, not one per claim.
        revision_id TEXT,
        CHECK (claim_id IS NULL OR revision_id IS NULL)
      ) STRICT;

      CREATE INDEX claim_change_by_revision ON claim_change (revision_id) WHERE revision_id IS NOT NULL;

      -- The log is read from where each reader stopped; a reader further behind than what is kept
      -- drops everything it holds. Pruned in steps so a write pays for it once in 1,024 changes.
      CREATE TRIGGER claim_change_prune AFTER INSERT ON claim_change WHEN NEW.seq % 1024 = 0 BEGIN
        DELETE FROM claim_change WHERE seq <= NEW.seq - 65536;
      END;

      -- A new PROV edge changes the trace (original sources, staleness) of its subject and of
      -- everything that reaches the subject. A subject nothing points at (a revision recording its
      -- own derivation, the usual case) reaches only the claims binding it; otherwise, any claim.
      CREATE TRIGGER claim_change_on_prov_edge_insert_reached AFTER INSERT ON prov_edge
        WHEN EXISTS (SELECT 1 FROM prov_edge e WHERE e.object = NEW.subject) BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NULL);
      END;
      CREATE TRIGGER claim_change_on_prov_edge_insert AFTER INSERT ON prov_edge
        WHEN NOT EXISTS (SELECT 1 FROM prov_edge e WHERE e.object = NEW.subject) BEGIN
        INSERT INTO claim_change (revision_id)
          SELECT n.revision_id FROM prov_node n WHERE n.node_id = NEW.subject AND n.revision_id IS NOT NULL;
      END;
    `);
    for (const l of LOGGED) for (const event of l.on) db.exec(trigger(l, event));
  },
};
