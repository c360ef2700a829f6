/**
 * The team store's schema in PostgreSQL, as numbered steps like the case file's. Everything lives
 * in the `erwb` schema; `erwb.team_schema` records the steps applied.
 *
 * What PostgreSQL itself guarantees here, so no code of ours has to:
 * - **One linear chain per case.** A receipt's (case, seq) is unique and its prev_hash must be the
 *   hash of the receipt at seq - 1 (a foreign key onto the same table): two appends extending the
 *   same head cannot both commit, and no receipt can hang off anything but its predecessor. The
 *   head moves with a compare-and-swap on `team_case` in the append's own transaction.
 * - **Append-only.** Triggers refuse UPDATE and DELETE of receipts.
 * - **The ACL.** Row-level security: a reviewer's role sees its own memberships, the cases they
 *   are for, every receipt's place in their chains (seq, hashes, signer, action), and a receipt's
 *   targets and body only when every item it concerns is within the reviewer's clearance: the
 *   same rule as the workbench's own redaction (redact.ts), so plain `psql` shows what the app
 *   would.
 */
export interface TeamMigration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** The group role every reviewer's role is granted; read grants go to it, not to each person. */
export const TEAM_READER_ROLE = 'erwb_reader';

export const TEAM_MIGRATIONS: readonly TeamMigration[] = [
  {
    version: 10,
    name: 'receipt log',
    sql: `
      CREATE TABLE erwb.team_case (
        case_id      text PRIMARY KEY,
        name         text NOT NULL,
        head_seq     bigint NOT NULL DEFAULT 0 CHECK (head_seq >= 0),
        head_hash    text NOT NULL DEFAULT repeat('0', 64),
        published_at timestamptz NOT NULL DEFAULT now()
      );

      -- A reviewer of a case: their PostgreSQL role and their clearance in this case.
      CREATE TABLE erwb.team_member (
        case_id     text NOT NULL REFERENCES erwb.team_case,
        actor_id    text NOT NULL,
        role_name   name NOT NULL,
        role        text NOT NULL CHECK (role IN ('analyst', 'reviewer', 'admin')),
        all_tenants boolean NOT NULL,
        tenants     text[] NOT NULL,
        max_rank    smallint NOT NULL CHECK (max_rank BETWEEN 0 AND 3),
        PRIMARY KEY (case_id, actor_id),
        UNIQUE (case_id, role_name)
      );

      -- A receipt's place in the chain: what every member of the case may read.
      CREATE TABLE erwb.team_receipt (
        case_id   text NOT NULL REFERENCES erwb.team_case,
        seq       bigint NOT NULL CHECK (seq >= 1),
        prev_seq  bigint GENERATED ALWAYS AS (NULLIF(seq - 1, 0)) STORED,
        prev_hash text NOT NULL CHECK (prev_hash ~ '^[0-9a-f]{64}$'),
        hash      text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
        at        text NOT NULL,
        actor     text NOT NULL,
        action    text NOT NULL,
        signer    text,
        signature text,
        -- The salted digest of what the receipt says, which its hash covers (receipts.ts,
        -- sealedDigest): a member who may not read the body still verifies the chain through it.
        -- null for a receipt written before sealing, whose hash covers its fields in clear.
        content_digest text CHECK (content_digest ~ '^[0-9a-f]{64}$'),
        -- The tenants and highest classification of the items the receipt concerns (its claims
        -- and revisions); scope_unknown when it names an item the case does not hold, which the
        -- workbench withholds from every reviewer.
        scope_tenants text[] NOT NULL,
        scope_rank    smallint NOT NULL CHECK (scope_rank BETWEEN 0 AND 3),
        scope_unknown boolean NOT NULL,
        PRIMARY KEY (case_id, seq),
        UNIQUE (case_id, seq, hash),
        CHECK (seq > 1 OR prev_hash = repeat('0', 64)),
        FOREIGN KEY (case_id, prev_seq, prev_hash) REFERENCES erwb.team_receipt (case_id, seq, hash)
          DEFERRABLE INITIALLY IMMEDIATE
      );

      -- What a receipt says: readable only within the clearance of every item it concerns.
      CREATE TABLE erwb.team_receipt_body (
        case_id          text NOT NULL,
        seq              bigint NOT NULL,
        targets          text NOT NULL,
        body             text NOT NULL,
        pre_state_fp     text,
        post_state_fp    text,
        artifact_digests text NOT NULL,
        salt             text,
        PRIMARY KEY (case_id, seq),
        FOREIGN KEY (case_id, seq) REFERENCES erwb.team_receipt (case_id, seq)
      );

      CREATE FUNCTION erwb.refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
      END $$;
      CREATE TRIGGER team_receipt_append_only BEFORE UPDATE OR DELETE ON erwb.team_receipt
        FOR EACH ROW EXECUTE FUNCTION erwb.refuse_change();
      CREATE TRIGGER team_receipt_body_append_only BEFORE UPDATE OR DELETE ON erwb.team_receipt_body
        FOR EACH ROW EXECUTE FUNCTION erwb.refuse_change();

      ALTER TABLE erwb.team_case ENABLE ROW LEVEL SECURITY;
      ALTER TABLE erwb.team_member ENABLE ROW LEVEL SECURITY;
      ALTER TABLE erwb.team_receipt ENABLE ROW LEVEL SECURITY;
      ALTER TABLE erwb.team_receipt_body ENABLE ROW LEVEL SECURITY;
      -- A policy's subqueries run as the connected role, under the member table's own policy: the
      -- role's own memberships are all it can find there.
      CREATE POLICY own_membership ON erwb.team_member FOR SELECT USING (role_name = current_user);
      CREATE POLICY member_reads ON erwb.team_case FOR SELECT
        USING (EXISTS (SELECT 1 FROM erwb.team_member m WHERE m.case_id = team_case.case_id AND m.role_name = current_user));
      CREATE POLICY member_reads ON erwb.team_receipt FOR SELECT
        USING (EXISTS (SELECT 1 FROM erwb.team_member m WHERE m.case_id = team_receipt.case_id AND m.role_name = current_user));
      -- What a receipt says: only when every item it concerns is within the member's clearance (the
      -- rule of redact.ts: classification at or below theirs, tenant among theirs unless they hold
      -- all tenants; an item the case does not hold is withheld from everyone).
      CREATE POLICY cleared_reads ON erwb.team_receipt_body FOR SELECT
        USING (EXISTS (
          SELECT 1 FROM erwb.team_receipt r JOIN erwb.team_member m ON m.case_id = r.case_id
          WHERE r.case_id = team_receipt_body.case_id AND r.seq = team_receipt_body.seq AND m.role_name = current_user
            AND NOT r.scope_unknown AND r.scope_rank <= m.max_rank
            AND (m.all_tenants OR r.scope_tenants <@ m.tenants)));

      DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${TEAM_READER_ROLE}') THEN
          CREATE ROLE ${TEAM_READER_ROLE} NOLOGIN;
        END IF;
      END $$;
      REVOKE ALL ON SCHEMA erwb FROM PUBLIC;
      REVOKE ALL ON ALL TABLES IN SCHEMA erwb FROM PUBLIC;
      GRANT USAGE ON SCHEMA erwb TO ${TEAM_READER_ROLE};
      GRANT SELECT ON erwb.team_case, erwb.team_member, erwb.team_receipt, erwb.team_receipt_body TO ${TEAM_READER_ROLE};
    `,
  },
  {
    version: 20,
    name: 'evidence content',
    sql: `
      -- What receipts carry only as digests: the text of each evidence revision and source
      -- document, sent with the first receipt that names it, readable within its own compartment.
      CREATE TABLE erwb.team_content (
        case_id        text NOT NULL,
        item           text NOT NULL CHECK (item ~ '^(revision|source):'),
        seq            bigint NOT NULL,
        media_type     text NOT NULL,
        content        text NOT NULL,
        content_sha256 text NOT NULL CHECK (content_sha256 ~ '^[0-9a-f]{64}$'),
        tenant         text NOT NULL,
        rank           smallint NOT NULL CHECK (rank BETWEEN 0 AND 3),
        PRIMARY KEY (case_id, item),
        FOREIGN KEY (case_id, seq) REFERENCES erwb.team_receipt (case_id, seq)
      );
      CREATE TRIGGER team_content_append_only BEFORE UPDATE OR DELETE ON erwb.team_content
        FOR EACH ROW EXECUTE FUNCTION erwb.refuse_change();
      ALTER TABLE erwb.team_content ENABLE ROW LEVEL SECURITY;
      CREATE POLICY cleared_reads ON erwb.team_content FOR SELECT
        USING (EXISTS (
          SELECT 1 FROM erwb.team_member m
          WHERE m.case_id = team_content.case_id AND m.role_name = current_user
            AND team_content.rank <= m.max_rank AND (m.all_tenants OR team_content.tenant = ANY (m.tenants))));
      REVOKE ALL ON erwb.team_content FROM PUBLIC;
      GRANT SELECT ON erwb.team_content TO ${TEAM_READER_ROLE};
    `,
  },
  {
    version: 30,
    name: 'one converger per case',
    sql: `
      -- Revocation convergence writes receipts, so exactly one worker may run a case's outbox at a
      -- time, across every machine that holds a replica. The lease is taken with FOR UPDATE SKIP
      -- LOCKED (converger.ts): a worker never waits on another's take, it moves on. Each take raises
      -- the token, which fences the lease: a worker whose lease expired and was taken over holds
      -- an old token, and its receipts are refused below.
      CREATE TABLE erwb.team_converger (
        case_id          text PRIMARY KEY REFERENCES erwb.team_case,
        holder           text,
        token            bigint NOT NULL DEFAULT 0,
        lease_expires_at timestamptz,
        CHECK ((holder IS NULL) = (lease_expires_at IS NULL))
      );
      INSERT INTO erwb.team_converger (case_id) SELECT case_id FROM erwb.team_case;
      CREATE FUNCTION erwb.add_converger() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO erwb.team_converger (case_id) VALUES (NEW.case_id);
        RETURN NEW;
      END $$;
      CREATE TRIGGER team_case_converger AFTER INSERT ON erwb.team_case
        FOR EACH ROW EXECUTE FUNCTION erwb.add_converger();

      -- A convergence receipt is appended only by the live holder of its case's lease, named by the
      -- appending transaction (set_config erwb.converger / erwb.converger_token, transaction-local).
      -- FOR SHARE keeps the lease from being taken over until the append commits or rolls back.
      CREATE FUNCTION erwb.converge_needs_lease() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM 1 FROM erwb.team_converger c
          WHERE c.case_id = NEW.case_id
            AND c.holder = current_setting('erwb.converger', true)
            AND c.token::text = current_setting('erwb.converger_token', true)
            AND c.lease_expires_at > clock_timestamp()
          FOR SHARE;
        IF NOT FOUND THEN
          RAISE EXCEPTION 'receipt % of case % is a revocation:converge, and this transaction does not hold the case''s converger lease', NEW.seq, NEW.case_id
            USING ERRCODE = 'lock_not_available';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER team_receipt_converger BEFORE INSERT ON erwb.team_receipt
        FOR EACH ROW WHEN (NEW.action = 'revocation:converge') EXECUTE FUNCTION erwb.converge_needs_lease();

      ALTER TABLE erwb.team_converger ENABLE ROW LEVEL SECURITY;
      CREATE POLICY member_reads ON erwb.team_converger FOR SELECT
        USING (EXISTS (SELECT 1 FROM erwb.team_member m WHERE m.case_id = team_converger.case_id AND m.role_name = current_user));
      REVOKE ALL ON erwb.team_converger FROM PUBLIC;
      GRANT SELECT ON erwb.team_converger TO ${TEAM_READER_ROLE};
    `,
  },
  {
    version: 40,
    name: 'row images',
    sql: `
      -- What a replica needs besides receipts to hold the same rows: the images of the rows a push
      -- wrote (replicaRows.ts), sent with its last receipt. A replica applies them and verifies the
      -- result against the receipts before it commits, so an image is transport, never trusted.
      -- Readable with the same clearance as the receipts whose rows they are (scope: theirs, summed).
      CREATE TABLE erwb.team_rows (
        case_id       text NOT NULL,
        through_seq   bigint NOT NULL,
        images        text NOT NULL,
        scope_tenants text[] NOT NULL,
        scope_rank    smallint NOT NULL CHECK (scope_rank BETWEEN 0 AND 3),
        scope_unknown boolean NOT NULL,
        PRIMARY KEY (case_id, through_seq),
        FOREIGN KEY (case_id, through_seq) REFERENCES erwb.team_receipt (case_id, seq)
      );
      CREATE TRIGGER team_rows_append_only BEFORE UPDATE OR DELETE ON erwb.team_rows
        FOR EACH ROW EXECUTE FUNCTION erwb.refuse_change();
      -- Where images exist, for every member (the images themselves only within clearance): a
      -- replica is brought to such a point, and is told when images it needs are beyond its clearance.
      CREATE TABLE erwb.team_rows_point (
        case_id     text NOT NULL,
        through_seq bigint NOT NULL,
        PRIMARY KEY (case_id, through_seq),
        FOREIGN KEY (case_id, through_seq) REFERENCES erwb.team_rows (case_id, through_seq)
      );
      CREATE TRIGGER team_rows_point_append_only BEFORE UPDATE OR DELETE ON erwb.team_rows_point
        FOR EACH ROW EXECUTE FUNCTION erwb.refuse_change();
      ALTER TABLE erwb.team_rows_point ENABLE ROW LEVEL SECURITY;
      CREATE POLICY member_reads ON erwb.team_rows_point FOR SELECT
        USING (EXISTS (SELECT 1 FROM erwb.team_member m WHERE m.case_id = team_rows_point.case_id AND m.role_name = current_user));
      ALTER TABLE erwb.team_rows ENABLE ROW LEVEL SECURITY;
      CREATE POLICY cleared_reads ON erwb.team_rows FOR SELECT
        USING (EXISTS (
          SELECT 1 FROM erwb.team_member m
          WHERE m.case_id = team_rows.case_id AND m.role_name = current_user
            AND NOT team_rows.scope_unknown AND team_rows.scope_rank <= m.max_rank
            AND (m.all_tenants OR team_rows.scope_tenants <@ m.tenants)));
      REVOKE ALL ON erwb.team_rows, erwb.team_rows_point FROM PUBLIC;
      GRANT SELECT ON erwb.team_rows, erwb.team_rows_point TO ${TEAM_READER_ROLE};
    `,
  },
  {
    version: 50,
    name: 'members push as themselves',
    sql: `
      -- A reviewer pushes and syncs with their own login, not the server admin's: a member of a case
      -- may append to its log (the chain's constraints, the head's compare-and-swap and the
      -- converger trigger apply to them as to anyone), move its head and take its converger lease;
      -- nothing else. Receipts cannot be changed or removed by anyone (the append-only triggers).
      CREATE FUNCTION erwb.is_member(c text) RETURNS boolean LANGUAGE sql STABLE AS $$
        SELECT EXISTS (SELECT 1 FROM erwb.team_member m WHERE m.case_id = c AND m.role_name = current_user)
      $$;
      CREATE POLICY member_appends ON erwb.team_receipt FOR INSERT WITH CHECK (erwb.is_member(case_id));
      CREATE POLICY member_appends ON erwb.team_receipt_body FOR INSERT WITH CHECK (erwb.is_member(case_id));
      CREATE POLICY member_appends ON erwb.team_content FOR INSERT WITH CHECK (erwb.is_member(case_id));
      CREATE POLICY member_appends ON erwb.team_rows FOR INSERT WITH CHECK (erwb.is_member(case_id));
      CREATE POLICY member_appends ON erwb.team_rows_point FOR INSERT WITH CHECK (erwb.is_member(case_id));
      CREATE POLICY member_moves_head ON erwb.team_case FOR UPDATE USING (erwb.is_member(case_id)) WITH CHECK (erwb.is_member(case_id));
      CREATE POLICY member_leases ON erwb.team_converger FOR UPDATE USING (erwb.is_member(case_id)) WITH CHECK (erwb.is_member(case_id));
      GRANT INSERT ON erwb.team_receipt, erwb.team_receipt_body, erwb.team_content, erwb.team_rows, erwb.team_rows_point TO ${TEAM_READER_ROLE};
      GRANT UPDATE (head_seq, head_hash) ON erwb.team_case TO ${TEAM_READER_ROLE};
      GRANT UPDATE (holder, token, lease_expires_at) ON erwb.team_converger TO ${TEAM_READER_ROLE};
    `,
  },
  {
    version: 60,
    name: 'row images in parts',
    sql: `
      -- A push's row images are kept in parts of bounded size, numbered from 0, so a case of a
      -- million receipts is published and cloned part by part: one text held all of them, over
      -- what a client's memory, a JavaScript string and a PostgreSQL value can hold. A point says
      -- how many parts it has; a reader holds the parts it got to that count.
      ALTER TABLE erwb.team_rows_point DROP CONSTRAINT team_rows_point_case_id_through_seq_fkey;
      ALTER TABLE erwb.team_rows DROP CONSTRAINT team_rows_pkey;
      ALTER TABLE erwb.team_rows ADD COLUMN part integer NOT NULL DEFAULT 0 CHECK (part >= 0);
      ALTER TABLE erwb.team_rows ADD PRIMARY KEY (case_id, through_seq, part);
      ALTER TABLE erwb.team_rows_point ADD COLUMN parts integer NOT NULL DEFAULT 1 CHECK (parts >= 1);
      ALTER TABLE erwb.team_rows_point ADD FOREIGN KEY (case_id, through_seq) REFERENCES erwb.team_receipt (case_id, seq);
    `,
  },
];

export const TEAM_SCHEMA_VERSION = TEAM_MIGRATIONS[TEAM_MIGRATIONS.length - 1]!.version;
