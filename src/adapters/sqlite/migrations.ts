/**
 * Schema versions, applied in order inside one transaction each and recorded in `schema_migrations`.
 * Never edit a shipped migration: add the next one.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, tokens, usage, jobs, queue',
    sql: `
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        key_hash TEXT NOT NULL,
        plan TEXT NOT NULL,
        subscription_start TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE tokens (
        token_hash TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        issued_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE INDEX tokens_by_account ON tokens(account_id);
      CREATE TABLE usage_periods (
        account_id TEXT NOT NULL,
        period_start TEXT NOT NULL,
        used_slides INTEGER NOT NULL DEFAULT 0,
        api_total INTEGER NOT NULL DEFAULT 0,
        api_successful INTEGER NOT NULL DEFAULT 0,
        api_failed INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (account_id, period_start)
      );
      CREATE TABLE reservations (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        period_start TEXT NOT NULL,
        slides INTEGER NOT NULL,
        job_id TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX reservations_by_period ON reservations(account_id, period_start);
      CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('QUEUED', 'PROCESSING', 'SUCCEEDED', 'FAILED')),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        input_key TEXT NOT NULL,
        reservation_id TEXT,
        error_message TEXT,
        warnings TEXT NOT NULL DEFAULT '[]',
        result_key TEXT,
        result_file_name TEXT,
        slide_count INTEGER
      );
      CREATE INDEX jobs_by_expiry ON jobs(expires_at);
      CREATE INDEX jobs_by_state ON jobs(state);
      CREATE TABLE job_queue (
        job_id TEXT PRIMARY KEY,
        enqueued_seq INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        lease_until INTEGER,
        owner_host TEXT,
        owner_pid INTEGER
      );
      CREATE INDEX job_queue_waiting ON job_queue(lease_until, enqueued_seq);
    `,
  },
  {
    version: 2,
    name: 'job_queue.owner_instance: tell a dead earlier incarnation from a live one under the same pid',
    sql: `ALTER TABLE job_queue ADD COLUMN owner_instance TEXT;`,
  },
  {
    version: 3,
    name: 'webhooks: per-account signing secrets, one delivery per job with a callback_url',
    sql: `
      CREATE TABLE webhook_secrets (
        account_id TEXT PRIMARY KEY,
        secret TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE webhook_deliveries (
        job_id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        url TEXT NOT NULL,
        link_base TEXT,
        state TEXT NOT NULL CHECK (state IN ('WAITING', 'DELIVERING', 'DELIVERED', 'GAVE_UP')),
        attempts INTEGER NOT NULL DEFAULT 0,
        last_status INTEGER,
        last_error TEXT,
        ended_at TEXT,
        next_attempt_at TEXT
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_attempt_at);
    `,
  },
  {
    version: 4,
    name: 'idempotency_keys: retries with an Idempotency-Key get the first answer',
    sql: `
      CREATE TABLE idempotency_keys (
        account_id TEXT NOT NULL,
        key TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        job_id TEXT,
        claim_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (account_id, key)
      );
    `,
  },
  {
    version: 5,
    name: 'console: account states, sessions, one-time links',
    // Accounts that exist already were made by an operator (CLI or first start): their address counts as
    // confirmed and their key as made when the account was.
    sql: `
      ALTER TABLE accounts ADD COLUMN email_confirmed_at TEXT;
      ALTER TABLE accounts ADD COLUMN disabled_at TEXT;
      ALTER TABLE accounts ADD COLUMN password_changed_at TEXT;
      ALTER TABLE accounts ADD COLUMN key_created_at TEXT;
      UPDATE accounts SET email_confirmed_at = created_at, key_created_at = created_at;
      CREATE TABLE console_sessions (
        id_hash TEXT PRIMARY KEY,
        account_id TEXT,
        csrf_token TEXT NOT NULL,
        created_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      );
      CREATE INDEX console_sessions_by_account ON console_sessions(account_id);
      CREATE INDEX console_sessions_by_expiry ON console_sessions(expires_at);
      CREATE TABLE one_time_tokens (
        token_hash TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        purpose TEXT NOT NULL CHECK (purpose IN ('confirm-email', 'reset-password')),
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        used_at TEXT
      );
      CREATE INDEX one_time_tokens_by_account ON one_time_tokens(account_id);
    `,
  },
  {
    version: 6,
    name: 'console data: token ids and last use, slides per UTC day, jobs by account',
    sql: `
      ALTER TABLE tokens ADD COLUMN id TEXT;
      ALTER TABLE tokens ADD COLUMN last_used_at TEXT;
      UPDATE tokens SET id = lower(hex(randomblob(9))) WHERE id IS NULL;
      CREATE UNIQUE INDEX tokens_by_id ON tokens(id);
      CREATE TABLE usage_days (
        account_id TEXT NOT NULL,
        period_start TEXT NOT NULL,
        day TEXT NOT NULL,
        slides INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (account_id, period_start, day)
      );
      CREATE INDEX jobs_by_account ON jobs(account_id, created_at);
    `,
  },
  {
    version: 7,
    name: 'console: a name for each token',
    sql: `
      ALTER TABLE tokens ADD COLUMN name TEXT;
    `,
  },
  {
    version: 8,
    name: 'stored templates: one row per version of a named template, the bytes on the blob store',
    sql: `
      CREATE TABLE templates (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        name TEXT NOT NULL,
        version INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        slides INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (account_id, name, version)
      );
      CREATE INDEX templates_by_content ON templates(account_id, sha256);
    `,
  },
  {
    version: 9,
    name: 'how far a running job is',
    sql: `
      ALTER TABLE jobs ADD COLUMN progress TEXT;
    `,
  },
  {
    version: 10,
    name: "a job's warnings counted: the record keeps the first of them",
    sql: `
      ALTER TABLE jobs ADD COLUMN warning_count INTEGER;
    `,
  },
  {
    version: 11,
    name: 'a finished deck kept beside its job (generate_deck), instead of a file in blobs/',
    sql: `
      CREATE TABLE job_results (
        job_id TEXT PRIMARY KEY,
        bytes BLOB NOT NULL
      );
    `,
  },
];
