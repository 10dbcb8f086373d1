/** The SQLite adapters against the port contracts, on real database files in temporary directories. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  databasePath,
  migrate,
  openDatabase,
  schemaVersion,
  type SqliteDatabase,
} from '../../../src/adapters/sqlite/database.js';
import { SQLITE_DRIVER } from '../../../src/adapters/sqlite/driver.js';
import { MIGRATIONS } from '../../../src/adapters/sqlite/migrations.js';
import { SystemClock } from '../../../src/adapters/clock/system-clock.js';
import { SqliteAccountStore } from '../../../src/adapters/sqlite/sqlite-account-store.js';
import { SqliteIdempotencyKeys } from '../../../src/adapters/sqlite/sqlite-idempotency-keys.js';
import { SqliteOneTimeTokenStore } from '../../../src/adapters/sqlite/sqlite-one-time-token-store.js';
import { SqliteSessionStore } from '../../../src/adapters/sqlite/sqlite-session-store.js';
import { SqliteWebhookStore } from '../../../src/adapters/sqlite/sqlite-webhook-store.js';
import { SqliteTemplateStore } from '../../../src/adapters/sqlite/sqlite-template-store.js';
import { SqliteJobQueue } from '../../../src/adapters/sqlite/sqlite-job-queue.js';
import { SqliteJobStore } from '../../../src/adapters/sqlite/sqlite-job-store.js';
import { SqliteTokenStore } from '../../../src/adapters/sqlite/sqlite-token-store.js';
import { SqliteUsageLedger } from '../../../src/adapters/sqlite/sqlite-usage-ledger.js';
import { describeAccountStoreContract } from '../contracts/account-token-contract.js';
import { describeConsoleStoresContract } from '../contracts/console-stores-contract.js';
import { describeIdempotencyKeysContract } from '../contracts/idempotency-keys-contract.js';
import { describeJobContract, describeJobStoreContract, jobRecord } from '../contracts/job-store-contract.js';
import { describeWebhookStoreContract } from '../contracts/webhook-store-contract.js';
import { describeTemplateStoreContract } from '../contracts/template-store-contract.js';
import { describeUsageLedgerContract } from '../contracts/usage-ledger-contract.js';
import { tempDir } from '../../support/servers/temp-dir.js';
import type { AccountRecord } from '../../../src/service/ports/index.js';

/** These contracts compare the adapters' own stamps with times built from the system clock. */
const SYSTEM_CLOCK = new SystemClock();

function openTemp(): {
  file: string;
  db: SqliteDatabase;
  handles: SqliteDatabase[];
  cleanup(): Promise<void>;
} {
  const dir = tempDir();
  const file = databasePath(dir.path);
  const db = openDatabase(file);
  const handles = [db];
  return {
    file,
    db,
    handles,
    async cleanup() {
      for (const h of handles) if (h.open) h.close();
      dir.remove();
    },
  };
}

describeUsageLedgerContract('SQLite', async () => {
  const t = openTemp();
  return {
    ledger: new SqliteUsageLedger(t.db, SYSTEM_CLOCK),
    openSecond: () => {
      const second = openDatabase(t.file);
      t.handles.push(second);
      return new SqliteUsageLedger(second, SYSTEM_CLOCK);
    },
    close: t.cleanup,
  };
});

describeAccountStoreContract('SQLite', async () => {
  const t = openTemp();
  return {
    accounts: new SqliteAccountStore(t.db),
    tokens: new SqliteTokenStore(t.db, SYSTEM_CLOCK),
    close: t.cleanup,
  };
});

describeJobStoreContract('SQLite', async () => {
  const t = openTemp();
  return { jobs: new SqliteJobStore(t.db), close: t.cleanup };
});

describeIdempotencyKeysContract('SQLite', async () => {
  const t = openTemp();
  return {
    keys: new SqliteIdempotencyKeys(t.db),
    openSecond: () => {
      const second = openDatabase(t.file);
      t.handles.push(second);
      return new SqliteIdempotencyKeys(second);
    },
    close: t.cleanup,
  };
});

describeWebhookStoreContract('SQLite', async () => {
  const t = openTemp();
  return {
    webhooks: new SqliteWebhookStore(t.db),
    openSecond: () => {
      const second = openDatabase(t.file);
      t.handles.push(second);
      return new SqliteWebhookStore(second);
    },
    close: t.cleanup,
  };
});

describeTemplateStoreContract('SQLite', async () => {
  const t = openTemp();
  return {
    templates: new SqliteTemplateStore(t.db),
    openSecond: () => {
      const second = openDatabase(t.file);
      t.handles.push(second);
      return new SqliteTemplateStore(second);
    },
    close: t.cleanup,
  };
});

describeConsoleStoresContract('SQLite', async () => {
  const t = openTemp();
  return {
    accounts: new SqliteAccountStore(t.db),
    tokens: new SqliteTokenStore(t.db, SYSTEM_CLOCK),
    sessions: new SqliteSessionStore(t.db),
    oneTimeTokens: new SqliteOneTimeTokenStore(t.db),
    close: t.cleanup,
  };
});

describeJobContract('SQLite', async (time) => {
  const t = openTemp();
  const clock = { now: () => new Date(time.now) };
  let db = t.db;
  return {
    jobs: new SqliteJobStore(db),
    queue: new SqliteJobQueue(db, clock),
    async restart() {
      // The old queue instance is not closed: a crash gives no chance to. Its lease tells.
      db.close();
      db = openDatabase(t.file);
      t.handles.push(db);
      return { jobs: new SqliteJobStore(db), queue: new SqliteJobQueue(db, clock) };
    },
    consumer: () => new SqliteJobQueue(db, clock),
    close: t.cleanup,
  };
});

describe('SQLite job store: a finished deck kept beside its job', () => {
  const finished = (id: string) =>
    jobRecord(id, {
      state: 'SUCCEEDED',
      resultKey: `jobs/${id}/result.pptx`,
      resultFileName: 'deck.pptx',
      slideCount: 1,
    });

  it('is written with the job, read back whole, and deleted with it', async () => {
    const t = openTemp();
    try {
      const jobs = new SqliteJobStore(t.db, { keepsResults: true });
      expect(jobs.keepsResults).toBe(true);
      const bytes = new Uint8Array([80, 75, 3, 4, 0, 255]);
      await jobs.createWithResult(finished('a'), bytes);
      expect(await jobs.get('a')).toMatchObject({ state: 'SUCCEEDED', resultKey: 'jobs/a/result.pptx' });
      expect(await jobs.getResult('a')).toEqual(bytes);
      await jobs.create(finished('b'));
      expect(await jobs.getResult('b')).toBeNull(); // its result is in the blob store
      expect(await jobs.delete('a')).toBe(true);
      expect(await jobs.getResult('a')).toBeNull();
      expect(await jobs.get('b')).not.toBeNull();
    } finally {
      await t.cleanup();
    }
  });

  it('keeps neither when the job cannot be written (one transaction)', async () => {
    const t = openTemp();
    try {
      const jobs = new SqliteJobStore(t.db, { keepsResults: true });
      await jobs.create(finished('a'));
      await expect(jobs.createWithResult(finished('a'), new Uint8Array([1]))).rejects.toThrow();
      expect(await jobs.getResult('a')).toBeNull();
    } finally {
      await t.cleanup();
    }
  });

  it('is off unless asked for (beside S3 the deck must be in the bucket its links point at)', () => {
    const t = openTemp();
    try {
      expect(new SqliteJobStore(t.db).keepsResults).toBe(false);
    } finally {
      void t.cleanup();
    }
  });
});

describe('SQLite job queue ownership', () => {
  it('a claim of a closed instance in this process is recovered at once; a live one keeps it', async () => {
    const t = openTemp();
    try {
      const first = new SqliteJobQueue(t.db, SYSTEM_CLOCK);
      const second = new SqliteJobQueue(t.db, SYSTEM_CLOCK);
      await first.enqueue('a');
      await first.enqueue('b');
      expect(await first.claim(60_000)).toMatchObject({ jobId: 'a', attempt: 1 });
      expect(await second.claim(60_000)).toMatchObject({ jobId: 'b', attempt: 1 });
      await first.close(); // e.g. the runtime restarted inside a pid-1 container
      expect(await second.recoverInterrupted(2)).toEqual({ requeued: ['a'], abandoned: [] });
      await second.close();
    } finally {
      await t.cleanup();
    }
  });
});

describe('SQLite database file', () => {
  it('migration 5 counts accounts made before the console as confirmed, their key as made with them', async () => {
    const dir = tempDir('deckforge-sqlite-');
    try {
      const db = openDatabase(join(dir.path, 'deckforge.sqlite'), { migrate: false });
      migrate(
        db,
        MIGRATIONS.filter((m) => m.version < 5),
      );
      db.prepare(
        `INSERT INTO accounts (id, email, password_hash, key_hash, plan, subscription_start, created_at)
         VALUES ('old', 'old@example.test', 'h', 'k', 'Free', '2025-01-02T03:04:05.000Z', '2025-01-02T03:04:05.000Z')`,
      ).run();
      expect(migrate(db).applied).toHaveLength(MIGRATIONS.length - 4);
      expect(await new SqliteAccountStore(db).findById('old')).toMatchObject({
        emailConfirmedAt: '2025-01-02T03:04:05.000Z',
        keyCreatedAt: '2025-01-02T03:04:05.000Z',
        disabledAt: null,
        passwordChangedAt: null,
      });
      db.close();
    } finally {
      dir.remove();
    }
  });

  it('is in WAL mode with a busy timeout, so a CLI command and the server can share it', async () => {
    const t = openTemp();
    try {
      expect(t.db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(Number(t.db.pragma('busy_timeout', { simple: true }))).toBeGreaterThanOrEqual(5000);
    } finally {
      await t.cleanup();
    }
  });

  it('applies migrations once, records the version, and a second open changes nothing', async () => {
    const dir = tempDir();
    try {
      const file = join(dir.path, 'nested', 'deckforge.sqlite');
      const db = openDatabase(file, { migrate: false });
      expect(schemaVersion(db)).toBe(0);
      const first = migrate(db);
      expect(first.from).toBe(0);
      expect(first.to).toBeGreaterThanOrEqual(1);
      expect(migrate(db).applied).toEqual([]);
      db.close();
      const again = openDatabase(file);
      expect(schemaVersion(again)).toBe(first.to);
      again.close();
    } finally {
      dir.remove();
    }
  });

  it('migration 6 gives tokens issued before it an id of their own, so they can be listed and revoked', async () => {
    const dir = tempDir();
    try {
      const db = openDatabase(databasePath(dir.path), { migrate: false });
      migrate(
        db,
        MIGRATIONS.filter((m) => m.version < 6),
      );
      const insert = db.prepare(
        "INSERT INTO tokens (token_hash, account_id, issued_at, expires_at) VALUES (?, 'a1', ?, '2999-01-01T00:00:00.000Z')",
      );
      insert.run('h1', '2026-11-21T08:00:00.000Z');
      insert.run('h2', '2026-11-21T09:00:00.000Z');
      expect(migrate(db).applied.map((name) => name.split(' ')[0])).toContain('6');
      const tokens = new SqliteTokenStore(db, SYSTEM_CLOCK);
      const live = await tokens.listLive('a1', new Date('2026-11-22T00:00:00.000Z'));
      expect(live.map((t) => t.tokenHash)).toEqual(['h2', 'h1']);
      const ids = live.map((t) => t.id);
      expect(ids.every((id) => /^[0-9a-f]{18}$/.test(id))).toBe(true);
      expect(new Set(ids).size).toBe(2);
      expect(await tokens.revoke('a1', ids[0]!)).toBe(true);
      expect(await tokens.find('h2')).toBeNull();
      db.close();
    } finally {
      dir.remove();
    }
  });

  it('a write from another process waits for its write transaction instead of failing', async () => {
    const t = openTemp();
    try {
      // Another process takes the write lock, writes, holds it 400 ms, commits.
      const child = spawn(
        process.execPath,
        [
          '-e',
          `const D = require('${SQLITE_DRIVER}'); const db = new D(process.argv[1]);
           db.exec('BEGIN IMMEDIATE');
           db.prepare("INSERT INTO accounts (id, email, password_hash, key_hash, plan, subscription_start, created_at) VALUES ('c', 'c@example.test', 'h', 'k', 'Free', 'x', 'x')").run();
           process.stdout.write('locked');
           setTimeout(() => { db.exec('COMMIT'); db.close(); }, 400);`,
          t.file,
        ],
        { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
      );
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      const store = new SqliteAccountStore(t.db);
      const started = Date.now();
      await store.create(account('p@example.test'));
      expect(Date.now() - started).toBeGreaterThan(100); // it waited for the lock…
      expect(await store.count()).toBe(2); // …and both writes are there
      await new Promise((resolve) => child.once('exit', resolve));
    } finally {
      await t.cleanup();
    }
  });
});

function account(email: string): AccountRecord {
  const now = new Date().toISOString();
  return {
    id: email,
    email,
    passwordHash: 'h',
    keyHash: 'k',
    plan: 'Free',
    subscriptionStart: now,
    createdAt: now,
    emailConfirmedAt: now,
    disabledAt: null,
    passwordChangedAt: null,
    keyCreatedAt: now,
  };
}
