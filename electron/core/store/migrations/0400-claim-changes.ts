import type { Migration } from './migration';

/**
 * Which claims a write may have changed the derivations of (status, support projection, review
 * state), recorded by the store itself: triggers on every table those derivations read append the
 * claim to claim_change in the writing transaction, so no write path (service, import, worker,
 * or a migration to come) can forget to. Readers that keep derivations between calls
 * (services/claimMemo.ts) drop what a change names: a claim, the claims binding a revision, or,
 * with neither, any claim: a change
 * whose reach the trigger cannot bound cheaply (a fence or a PROV edge below existing derivations
 * reaches every descendant; triggers cannot recurse). The rows are a change log for caches, not
 * facts: nothing is decided from them, and every decision re-derives from the rows themselves.
 */
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

      CREATE TRIGGER claim_change_on_claim_insert AFTER INSERT ON claim BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NEW.claim_id);
      END;
      CREATE TRIGGER claim_change_on_claim_update AFTER UPDATE ON claim BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NEW.claim_id);
      END;

      CREATE TRIGGER claim_change_on_binding_insert AFTER INSERT ON claim_binding BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NEW.claim_id);
      END;
      CREATE TRIGGER claim_change_on_binding_update AFTER UPDATE ON claim_binding BEGIN
        INSERT INTO claim_change (claim_id) VALUES (OLD.claim_id), (NEW.claim_id);
      END;
      CREATE TRIGGER claim_change_on_binding_delete AFTER DELETE ON claim_binding BEGIN
        INSERT INTO claim_change (claim_id) VALUES (OLD.claim_id);
      END;

      -- A revision's state, validity or compartment: every claim binding it.
      CREATE TRIGGER claim_change_on_revision_update AFTER UPDATE ON evidence_revision BEGIN
        INSERT INTO claim_change (revision_id) VALUES (OLD.revision_id), (NEW.revision_id);
      END;
      CREATE TRIGGER claim_change_on_revision_delete AFTER DELETE ON evidence_revision BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NULL);
      END;

      -- Probable copies count once towards independence: claims binding either side.
      CREATE TRIGGER claim_change_on_copy_insert AFTER INSERT ON evidence_copy BEGIN
        INSERT INTO claim_change (revision_id) VALUES (NEW.revision_id), (NEW.copy_of);
      END;
      CREATE TRIGGER claim_change_on_copy_update AFTER UPDATE ON evidence_copy BEGIN
        INSERT INTO claim_change (revision_id) VALUES (OLD.revision_id), (OLD.copy_of), (NEW.revision_id), (NEW.copy_of);
      END;
      CREATE TRIGGER claim_change_on_copy_delete AFTER DELETE ON evidence_copy BEGIN
        INSERT INTO claim_change (revision_id) VALUES (OLD.revision_id), (OLD.copy_of);
      END;

      -- PROV: a new edge changes the trace (original sources, staleness) of its subject and of
      -- everything that reaches the subject. A subject nothing points at (a revision recording its
      -- own derivation, the usual case) reaches only the claims binding it; otherwise, any claim.
      CREATE TRIGGER claim_change_on_edge_insert_reached AFTER INSERT ON prov_edge
        WHEN EXISTS (SELECT 1 FROM prov_edge e WHERE e.object = NEW.subject) BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NULL);
      END;
      CREATE TRIGGER claim_change_on_edge_insert AFTER INSERT ON prov_edge
        WHEN NOT EXISTS (SELECT 1 FROM prov_edge e WHERE e.object = NEW.subject) BEGIN
        INSERT INTO claim_change (revision_id)
          SELECT n.revision_id FROM prov_node n WHERE n.node_id = NEW.subject AND n.revision_id IS NOT NULL;
      END;
      CREATE TRIGGER claim_change_on_edge_update AFTER UPDATE ON prov_edge BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NULL);
      END;
      CREATE TRIGGER claim_change_on_edge_delete AFTER DELETE ON prov_edge BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NULL);
      END;
      CREATE TRIGGER claim_change_on_node_update AFTER UPDATE ON prov_node BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NULL);
      END;
      CREATE TRIGGER claim_change_on_node_delete AFTER DELETE ON prov_node BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NULL);
      END;

      -- Fences reach every claim derived from the fenced revision (PROV descendants).
      CREATE TRIGGER claim_change_on_fence_insert AFTER INSERT ON revocation_fence BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NULL);
      END;
      CREATE TRIGGER claim_change_on_fence_update AFTER UPDATE ON revocation_fence BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NULL);
      END;
      CREATE TRIGGER claim_change_on_fence_delete AFTER DELETE ON revocation_fence BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NULL);
      END;

      -- The stored projection (its watermark decides whether a fence is still pending).
      CREATE TRIGGER claim_change_on_projection_insert AFTER INSERT ON support_projection BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NEW.claim_id);
      END;
      CREATE TRIGGER claim_change_on_projection_update AFTER UPDATE ON support_projection BEGIN
        INSERT INTO claim_change (claim_id) VALUES (OLD.claim_id), (NEW.claim_id);
      END;
      CREATE TRIGGER claim_change_on_projection_delete AFTER DELETE ON support_projection BEGIN
        INSERT INTO claim_change (claim_id) VALUES (OLD.claim_id);
      END;

      -- Review state: decisions, votes and remediations of the claim.
      CREATE TRIGGER claim_change_on_decision_insert AFTER INSERT ON decision BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NEW.claim_id);
      END;
      CREATE TRIGGER claim_change_on_decision_update AFTER UPDATE ON decision BEGIN
        INSERT INTO claim_change (claim_id) VALUES (OLD.claim_id), (NEW.claim_id);
      END;
      CREATE TRIGGER claim_change_on_decision_delete AFTER DELETE ON decision BEGIN
        INSERT INTO claim_change (claim_id) VALUES (OLD.claim_id);
      END;
      CREATE TRIGGER claim_change_on_vote_insert AFTER INSERT ON review_vote BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NEW.claim_id);
      END;
      CREATE TRIGGER claim_change_on_vote_update AFTER UPDATE ON review_vote BEGIN
        INSERT INTO claim_change (claim_id) VALUES (OLD.claim_id), (NEW.claim_id);
      END;
      CREATE TRIGGER claim_change_on_vote_delete AFTER DELETE ON review_vote BEGIN
        INSERT INTO claim_change (claim_id) VALUES (OLD.claim_id);
      END;
      CREATE TRIGGER claim_change_on_remediation_insert AFTER INSERT ON remediation BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NEW.claim_id);
      END;
      CREATE TRIGGER claim_change_on_remediation_update AFTER UPDATE ON remediation BEGIN
        INSERT INTO claim_change (claim_id) VALUES (OLD.claim_id), (NEW.claim_id);
      END;

      -- Reviewers (roles, clearance, keys) weigh in quorum and review state everywhere.
      CREATE TRIGGER claim_change_on_actor_insert AFTER INSERT ON actor BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NULL);
      END;
      CREATE TRIGGER claim_change_on_actor_update AFTER UPDATE ON actor BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NULL);
      END;
      CREATE TRIGGER claim_change_on_actor_key AFTER INSERT ON actor_key BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NULL);
      END;
      CREATE TRIGGER claim_change_on_actor_key_update AFTER UPDATE ON actor_key BEGIN
        INSERT INTO claim_change (claim_id) VALUES (NULL);
      END;
    `);
  },
};
