/** Idempotency keys in SQLite: one row per account and key; claims are read-then-write under the write lock. */
import type { IdempotencyEntry, IdempotencyKeys } from '../../service/ports/index.js';
import { immediate, type SqliteDatabase } from './database.js';

interface KeyRow {
  account_id: string;
  key: string;
  endpoint: IdempotencyEntry['endpoint'];
  fingerprint: string;
  job_id: string | null;
  claim_id: string;
  created_at: string;
}

const toEntry = (row: KeyRow): IdempotencyEntry => ({
  accountId: row.account_id,
  key: row.key,
  endpoint: row.endpoint,
  fingerprint: row.fingerprint,
  jobId: row.job_id,
  claimId: row.claim_id,
  createdAt: row.created_at,
});

export class SqliteIdempotencyKeys implements IdempotencyKeys {
  constructor(private readonly db: SqliteDatabase) {}

  async claim(entry: IdempotencyEntry, notBefore: Date): Promise<IdempotencyEntry | null> {
    return immediate(this.db, () => {
      const holder = this.row(entry.accountId, entry.key);
      if (holder && holder.created_at >= notBefore.toISOString()) return toEntry(holder);
      if (holder) {
        this.db
          .prepare('DELETE FROM idempotency_keys WHERE account_id = ? AND key = ?')
          .run(entry.accountId, entry.key);
      }
      this.insert(entry);
      return null;
    });
  }

  async forgetAccount(accountId: string): Promise<void> {
    this.db.prepare('DELETE FROM idempotency_keys WHERE account_id = ?').run(accountId);
  }

  async get(accountId: string, key: string): Promise<IdempotencyEntry | null> {
    const row = this.row(accountId, key);
    return row ? toEntry(row) : null;
  }

  async release(accountId: string, key: string, claimId: string): Promise<void> {
    this.db
      .prepare('DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND claim_id = ?')
      .run(accountId, key, claimId);
  }

  async takeOver(entry: IdempotencyEntry, staleClaimId: string): Promise<boolean> {
    return immediate(this.db, () => {
      const removed = this.db
        .prepare('DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND claim_id = ?')
        .run(entry.accountId, entry.key, staleClaimId).changes;
      if (removed === 0) return false;
      this.insert(entry);
      return true;
    });
  }

  private row(accountId: string, key: string): KeyRow | undefined {
    return this.db
      .prepare('SELECT * FROM idempotency_keys WHERE account_id = ? AND key = ?')
      .get(accountId, key) as KeyRow | undefined;
  }

  private insert(entry: IdempotencyEntry): void {
    this.db
      .prepare(
        `INSERT INTO idempotency_keys (account_id, key, endpoint, fingerprint, job_id, claim_id, created_at)
         VALUES (@accountId, @key, @endpoint, @fingerprint, @jobId, @claimId, @createdAt)`,
      )
      .run(entry);
  }
}
