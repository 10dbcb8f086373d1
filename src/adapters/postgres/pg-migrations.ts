/**
 * The PostgreSQL schema, version by version (its own numbering: PostgreSQL starts at what SQLite reached in six
 * steps). Never edit a shipped migration: add the next one. Times are timestamptz; `period_start` and `day` are the
 * ledger's names of periods and days (YYYY-MM-DD text), as in SQLite.
 */
export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

export const PG_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    name: 'accounts, tokens, usage, jobs, webhooks, idempotency keys',
    sql: `
      CREATE TABLE accounts (
        id text PRIMARY KEY,
        email text NOT NULL UNIQUE,
        password_hash text NOT NULL,
        key_hash text NOT NULL,
        plan text NOT NULL,
        subscription_start timestamptz NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE TABLE tokens (
        token_hash text PRIMARY KEY,
        account_id text NOT NULL,
        issued_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz
      );
      CREATE INDEX tokens_by_account ON tokens (account_id);
      CREATE INDEX tokens_by_expiry ON tokens (expires_at);
      CREATE TABLE usage_periods (
        account_id text NOT NULL,
        period_start text NOT NULL,
        used_slides bigint NOT NULL DEFAULT 0,
        api_total bigint NOT NULL DEFAULT 0,
        api_successful bigint NOT NULL DEFAULT 0,
        api_failed bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (account_id, period_start)
      );
      CREATE TABLE reservations (
        id text PRIMARY KEY,
        account_id text NOT NULL,
        period_start text NOT NULL,
        slides integer NOT NULL,
        job_id text,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX reservations_by_period ON reservations (account_id, period_start);
      CREATE INDEX reservations_stale ON reservations (created_at) WHERE job_id IS NULL;
      CREATE TABLE jobs (
        id text PRIMARY KEY,
        seq bigserial NOT NULL,
        account_id text NOT NULL,
        state text NOT NULL CHECK (state IN ('QUEUED', 'PROCESSING', 'SUCCEEDED', 'FAILED')),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        input_key text NOT NULL,
        reservation_id text,
        error_message text,
        warnings jsonb NOT NULL DEFAULT '[]',
        result_key text,
        result_file_name text,
        slide_count integer
      );
      CREATE INDEX jobs_by_expiry ON jobs (expires_at);
      CREATE INDEX jobs_by_state ON jobs (state);
      CREATE TABLE webhook_secrets (
        account_id text PRIMARY KEY,
        secret text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE TABLE webhook_deliveries (
        job_id text PRIMARY KEY,
        account_id text NOT NULL,
        url text NOT NULL,
        link_base text,
        state text NOT NULL CHECK (state IN ('WAITING', 'DELIVERING', 'DELIVERED', 'GAVE_UP')),
        attempts integer NOT NULL DEFAULT 0,
        last_status integer,
        last_error text,
        ended_at timestamptz,
        next_attempt_at timestamptz
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);
      CREATE TABLE idempotency_keys (
        account_id text NOT NULL,
        key text NOT NULL,
        endpoint text NOT NULL,
        fingerprint text NOT NULL,
        job_id text,
        claim_id text NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (account_id, key)
      );
    `,
  },
  {
    version: 2,
    name: 'console: account states, sessions, one-time links, token ids and last use, slides per day, jobs by account',
    sql: `
      ALTER TABLE accounts ADD COLUMN email_confirmed_at timestamptz, ADD COLUMN disabled_at timestamptz,
        ADD COLUMN password_changed_at timestamptz, ADD COLUMN key_created_at timestamptz;
      UPDATE accounts SET email_confirmed_at = created_at, key_created_at = created_at;
      CREATE TABLE console_sessions (
        id_hash text PRIMARY KEY,
        account_id text,
        csrf_token text NOT NULL,
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX console_sessions_by_account ON console_sessions (account_id);
      CREATE INDEX console_sessions_by_expiry ON console_sessions (expires_at);
      CREATE TABLE one_time_tokens (
        token_hash text PRIMARY KEY,
        account_id text NOT NULL,
        purpose text NOT NULL CHECK (purpose IN ('confirm-email', 'reset-password')),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      );
      CREATE INDEX one_time_tokens_by_account ON one_time_tokens (account_id);
      ALTER TABLE tokens ADD COLUMN id text, ADD COLUMN last_used_at timestamptz;
      UPDATE tokens SET id = substr(md5(random()::text || token_hash), 1, 18) WHERE id IS NULL;
      CREATE UNIQUE INDEX tokens_by_id ON tokens (id);
      CREATE TABLE usage_days (
        account_id text NOT NULL,
        period_start text NOT NULL,
        day text NOT NULL,
        slides bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (account_id, period_start, day)
      );
      CREATE INDEX jobs_by_account ON jobs (account_id, created_at DESC, seq DESC);
    `,
  },
  {
    version: 3,
    name: 'console: a name for each token',
    sql: `
      ALTER TABLE tokens ADD COLUMN name text;
    `,
  },
  {
    version: 4,
    name: 'stored templates: one row per version of a named template, the bytes on the blob store',
    sql: `
      CREATE TABLE templates (
        id text PRIMARY KEY,
        account_id text NOT NULL,
        name text NOT NULL,
        version integer NOT NULL,
        sha256 text NOT NULL,
        bytes bigint NOT NULL,
        slides integer NOT NULL,
        created_at timestamptz NOT NULL,
        UNIQUE (account_id, name, version)
      );
      CREATE INDEX templates_by_content ON templates (account_id, sha256);
    `,
  },
  {
    version: 5,
    name: 'how far a running job is',
    sql: `
      ALTER TABLE jobs ADD COLUMN progress jsonb;
    `,
  },
  {
    version: 6,
    name: "a job's warnings counted: the record keeps the first of them",
    sql: `
      ALTER TABLE jobs ADD COLUMN warning_count integer;
    `,
  },
];
