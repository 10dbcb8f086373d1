/** One-time links in PostgreSQL; `markUsed` is a conditional update, so of two clicks racing on two nodes one wins. */
import type { OneTimePurpose, OneTimeTokenRecord, OneTimeTokenStore } from '../../service/ports/index.js';
import { iso, isoOf, type PgDatabase } from './pg-database.js';

interface OneTimeTokenRow {
  token_hash: string;
  account_id: string;
  purpose: OneTimePurpose;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export class PgOneTimeTokenStore implements OneTimeTokenStore {
  constructor(private readonly db: PgDatabase) {}

  async create(t: OneTimeTokenRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO one_time_tokens (token_hash, account_id, purpose, created_at, expires_at, used_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [t.tokenHash, t.accountId, t.purpose, t.createdAt, t.expiresAt, t.usedAt],
    );
  }

  async find(tokenHash: string): Promise<OneTimeTokenRecord | null> {
    const { rows } = await this.db.query<OneTimeTokenRow>(
      'SELECT * FROM one_time_tokens WHERE token_hash = $1',
      [tokenHash],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      tokenHash: row.token_hash,
      accountId: row.account_id,
      purpose: row.purpose,
      createdAt: isoOf(row.created_at),
      expiresAt: isoOf(row.expires_at),
      usedAt: iso(row.used_at),
    };
  }

  async markUsed(tokenHash: string, at: string): Promise<boolean> {
    const result = await this.db.query(
      'UPDATE one_time_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL',
      [tokenHash, at],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async forgetAccount(accountId: string): Promise<void> {
    await this.db.query('DELETE FROM one_time_tokens WHERE account_id = $1', [accountId]);
  }

  async deleteExpired(before: Date): Promise<number> {
    return (await this.db.query('DELETE FROM one_time_tokens WHERE expires_at < $1', [before])).rowCount ?? 0;
  }
}
