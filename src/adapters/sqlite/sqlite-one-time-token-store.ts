import type { OneTimePurpose, OneTimeTokenRecord, OneTimeTokenStore } from '../../service/ports/index.js';
import type { SqliteDatabase } from './database.js';

interface OneTimeTokenRow {
  token_hash: string;
  account_id: string;
  purpose: OneTimePurpose;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export class SqliteOneTimeTokenStore implements OneTimeTokenStore {
  constructor(private readonly db: SqliteDatabase) {}

  async create(token: OneTimeTokenRecord): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO one_time_tokens (token_hash, account_id, purpose, created_at, expires_at, used_at)
         VALUES (@tokenHash, @accountId, @purpose, @createdAt, @expiresAt, @usedAt)`,
      )
      .run(token);
  }

  async find(tokenHash: string): Promise<OneTimeTokenRecord | null> {
    const row = this.db.prepare('SELECT * FROM one_time_tokens WHERE token_hash = ?').get(tokenHash) as
      OneTimeTokenRow | undefined;
    if (!row) return null;
    return {
      tokenHash: row.token_hash,
      accountId: row.account_id,
      purpose: row.purpose,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      usedAt: row.used_at,
    };
  }

  async markUsed(tokenHash: string, at: string): Promise<boolean> {
    return (
      this.db
        .prepare('UPDATE one_time_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL')
        .run(at, tokenHash).changes > 0
    );
  }

  async forgetAccount(accountId: string): Promise<void> {
    this.db.prepare('DELETE FROM one_time_tokens WHERE account_id = ?').run(accountId);
  }

  async deleteExpired(before: Date): Promise<number> {
    return this.db.prepare('DELETE FROM one_time_tokens WHERE expires_at < ?').run(before.toISOString())
      .changes;
  }
}
