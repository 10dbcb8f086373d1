/** Bearer tokens in PostgreSQL: every node reads the same rows, so a revocation holds on all of them at once. */
import type { Clock, TokenRecord, TokenStore } from '../../service/ports/index.js';
import { iso, isoOf, type PgDatabase } from './pg-database.js';

interface TokenRow {
  id: string;
  name: string | null;
  token_hash: string;
  account_id: string;
  issued_at: Date;
  expires_at: Date;
  last_used_at: Date | null;
}

function toRecord(row: TokenRow): TokenRecord {
  return {
    id: row.id,
    name: row.name,
    tokenHash: row.token_hash,
    accountId: row.account_id,
    issuedAt: isoOf(row.issued_at),
    expiresAt: isoOf(row.expires_at),
    lastUsedAt: iso(row.last_used_at),
  };
}

export class PgTokenStore implements TokenStore {
  constructor(
    private readonly db: PgDatabase,
    private readonly clock: Clock,
  ) {}

  async save(t: TokenRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO tokens (id, name, token_hash, account_id, issued_at, expires_at, last_used_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [t.id, t.name, t.tokenHash, t.accountId, t.issuedAt, t.expiresAt, t.lastUsedAt],
    );
  }

  async find(tokenHash: string): Promise<TokenRecord | null> {
    const { rows } = await this.db.query<TokenRow>(
      'SELECT * FROM tokens WHERE token_hash = $1 AND revoked_at IS NULL',
      [tokenHash],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async listLive(accountId: string, now: Date): Promise<TokenRecord[]> {
    const { rows } = await this.db.query<TokenRow>(
      `SELECT * FROM tokens WHERE account_id = $1 AND revoked_at IS NULL AND expires_at > $2
       ORDER BY issued_at DESC, id`,
      [accountId, now],
    );
    return rows.map(toRecord);
  }

  async revoke(accountId: string, id: string): Promise<boolean> {
    const result = await this.db.query(
      'UPDATE tokens SET revoked_at = $3 WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL',
      [id, accountId, this.clock.now()],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async touch(tokenHash: string, at: Date, unlessSince: Date): Promise<void> {
    await this.db.query(
      `UPDATE tokens SET last_used_at = $2 WHERE token_hash = $1
         AND (last_used_at IS NULL OR last_used_at < $3)`,
      [tokenHash, at, unlessSince],
    );
  }

  async revokeAll(accountId: string): Promise<number> {
    const result = await this.db.query(
      'UPDATE tokens SET revoked_at = $2 WHERE account_id = $1 AND revoked_at IS NULL',
      [accountId, this.clock.now()],
    );
    return result.rowCount ?? 0;
  }

  async forgetAccount(accountId: string): Promise<void> {
    await this.db.query('DELETE FROM tokens WHERE account_id = $1', [accountId]);
  }

  async deleteExpired(before: Date): Promise<number> {
    return (await this.db.query('DELETE FROM tokens WHERE expires_at < $1', [before])).rowCount ?? 0;
  }
}
