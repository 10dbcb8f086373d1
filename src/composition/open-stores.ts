/**
 * Picks the stores: PostgreSQL when DECKFORGE_DATABASE_URL is set, else the SQLite file of the data directory.
 * PostgreSQL's schema is never changed here: `ready()` refuses one that is behind and says to run
 * `deckforge migrate`, because with several nodes the operator chooses when the schema moves (one command, run
 * once, before the new release starts), not whichever node happens to start first. SQLite, one machine's file,
 * keeps migrating on open as before.
 *
 * The job queue stays in the data directory's SQLite file in both cases until a shared queue is configured
 * (BullMQ on DECKFORGE_REDIS_URL; docs/operations.md "The shared queue on Redis").
 */
import type { Logger } from 'pino';
import { PgAccountStore } from '../adapters/postgres/pg-account-store.js';
import { PgDatabase } from '../adapters/postgres/pg-database.js';
import { PgIdempotencyKeys } from '../adapters/postgres/pg-idempotency-keys.js';
import { PgJobStore } from '../adapters/postgres/pg-job-store.js';
import { PgOneTimeTokenStore } from '../adapters/postgres/pg-one-time-token-store.js';
import { assertPgSchemaCurrent, SchemaBehindError } from '../adapters/postgres/pg-schema.js';
import { PgSessionStore } from '../adapters/postgres/pg-session-store.js';
import { PgTokenStore } from '../adapters/postgres/pg-token-store.js';
import { PgTemplateStore } from '../adapters/postgres/pg-template-store.js';
import { PgUsageLedger } from '../adapters/postgres/pg-usage-ledger.js';
import { PgWebhookStore } from '../adapters/postgres/pg-webhook-store.js';
import { databasePath, openDatabase, type SqliteDatabase } from '../adapters/sqlite/database.js';
import { SqliteAccountStore } from '../adapters/sqlite/sqlite-account-store.js';
import { SqliteIdempotencyKeys } from '../adapters/sqlite/sqlite-idempotency-keys.js';
import { SqliteJobStore } from '../adapters/sqlite/sqlite-job-store.js';
import { SqliteOneTimeTokenStore } from '../adapters/sqlite/sqlite-one-time-token-store.js';
import { SqliteSessionStore } from '../adapters/sqlite/sqlite-session-store.js';
import { SqliteTemplateStore } from '../adapters/sqlite/sqlite-template-store.js';
import { SqliteTokenStore } from '../adapters/sqlite/sqlite-token-store.js';
import { SqliteUsageLedger } from '../adapters/sqlite/sqlite-usage-ledger.js';
import { SqliteWebhookStore } from '../adapters/sqlite/sqlite-webhook-store.js';
import { redactedDatabaseUrl, type Config } from '../config/index.js';
import type { ServiceDeps } from '../service/service-deps.js';
import { StoreUnavailableError, type Clock } from '../service/ports/index.js';

export type StoreSet = Pick<
  ServiceDeps,
  | 'accounts'
  | 'tokens'
  | 'ledger'
  | 'jobs'
  | 'idempotency'
  | 'webhooks'
  | 'sessions'
  | 'oneTimeTokens'
  | 'templates'
> & {
  /** The data directory's SQLite file: the job queue's home while no shared queue is configured. */
  local: SqliteDatabase;
  /** Where the records are, for the start-up line (no password). */
  description: string;
  /** Resolves when the stores can be used; PostgreSQL: throws SchemaBehindError on a schema that is behind. */
  ready(): Promise<void>;
  close(): Promise<void>;
};

export function openStores(config: Config, clock: Clock, logger?: Logger): StoreSet {
  const file = databasePath(config.dataDir);
  const local = openDatabase(file);
  // Closed after the job queue, which openQueueAndLimiter may keep in this same file.
  const closeLocal = async (): Promise<void> => {
    local.close();
  };
  const settings = config.database;
  if (settings === null) {
    return {
      accounts: new SqliteAccountStore(local),
      tokens: new SqliteTokenStore(local, clock),
      ledger: new SqliteUsageLedger(local, clock),
      jobs: new SqliteJobStore(local, { keepsResults: !config.s3 }),
      idempotency: new SqliteIdempotencyKeys(local),
      webhooks: new SqliteWebhookStore(local),
      sessions: new SqliteSessionStore(local),
      oneTimeTokens: new SqliteOneTimeTokenStore(local),
      templates: new SqliteTemplateStore(local),
      local,
      description: file,
      ready: async () => undefined,
      close: closeLocal,
    };
  }
  const db = new PgDatabase({
    url: settings.url,
    maxConnections: settings.poolSize,
    statementTimeoutMs: settings.statementTimeoutMs,
    onIdleError: (error) =>
      logger?.warn({ err: error }, 'PostgreSQL connection lost while idle; reconnecting on demand'),
  });
  return {
    accounts: new PgAccountStore(db),
    tokens: new PgTokenStore(db, clock),
    ledger: new PgUsageLedger(db, clock),
    jobs: new PgJobStore(db),
    idempotency: new PgIdempotencyKeys(db),
    webhooks: new PgWebhookStore(db),
    sessions: new PgSessionStore(db),
    oneTimeTokens: new PgOneTimeTokenStore(db),
    templates: new PgTemplateStore(db),
    local,
    description: redactedDatabaseUrl(settings.url),
    ready: () => assertPgSchemaCurrent(db),
    async close() {
      await closeLocal();
      await db.close();
    },
  };
}

/** The data directory holds no database yet, where a command expected the one `deckforge serve` uses. */
export class NoDataError extends Error {
  override readonly name = 'NoDataError';
  constructor(dataDir: string) {
    super(
      `no Deckforge database in ${dataDir} (DECKFORGE_DATA_DIR, default ./data of the current folder): ` +
        "run the command where 'deckforge serve' runs, or set DECKFORGE_DATA_DIR to its data directory",
    );
  }
}

/** A start refused for the stores' sake (schema behind, database unreachable, no database yet): its message is for the operator. */
export function isStoreNotReady(error: unknown): error is Error {
  return (
    error instanceof SchemaBehindError ||
    error instanceof StoreUnavailableError ||
    error instanceof NoDataError
  );
}
