import type { Clock, TokenRecord, TokenStore } from '../../service/ports/index.js';
import type { SqliteDatabase } from './database.js';

interface TokenRow {
  id: string;
  name: string | null;
  token_hash: string;
  account_id: string;
  issued_at: string;
  expires_at: string;
  last_used_at: string | null;
}

function toRecord(row: TokenRow): TokenRecord {
  return {
    id: row.id,
    name: row.name,
    tokenHash: row.token_hash,
    accountId: row.account_id,
    issuedAt: row.issued_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
  };
}

export class SqliteTokenStore implements TokenStore {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly clock: Clock,
  ) {}

  async save(token: TokenRecord): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO tokens (id, name, token_hash, account_id, issued_at, expires_at, last_used_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        token.id,
        token.name,
        token.tokenHash,
        token.accountId,
        token.issuedAt,
        token.expiresAt,
        token.lastUsedAt,
      );
  }

  async find(tokenHash: string): Promise<TokenRecord | null> {
    const row = this.db
      .prepare('SELECT * FROM tokens WHERE token_hash = ? AND revoked_at IS NULL')
      .get(tokenHash) as TokenRow | undefined;
    return row ? toRecord(row) : null;
  }

  async listLive(accountId: string, now: Date): Promise<TokenRecord[]> {
    const rows = this.db
      .prepare(
        `SELECT * FROM tokens WHERE account_id = ? AND revoked_at IS NULL AND expires_at > ?
         ORDER BY issued_at DESC, id`,
      )
      .all(accountId, now.toISOString()) as TokenRow[];
    return rows.map(toRecord);
  }

  async revoke(accountId: string, id: string): Promise<boolean> {
    return (
      this.db
        .prepare('UPDATE tokens SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL')
        .run(this.clock.now().toISOString(), id, accountId).changes > 0
    );
  }

  async touch(tokenHash: string, at: Date, unlessSince: Date): Promise<void> {
    this.db
      .prepare(
        `UPDATE tokens SET last_used_at = ? WHERE token_hash = ?
           AND (last_used_at IS NULL OR last_used_at < ?)`,
      )
      .run(at.toISOString(), tokenHash, unlessSince.toISOString());
  }

  async revokeAll(accountId: string): Promise<number> {
    return this.db
      .prepare('UPDATE tokens SET revoked_at = ? WHERE account_id = ? AND revoked_at IS NULL')
      .run(this.clock.now().toISOString(), accountId).changes;
  }

  async forgetAccount(accountId: string): Promise<void> {
    this.db.prepare('DELETE FROM tokens WHERE account_id = ?').run(accountId);
  }

  async deleteExpired(before: Date): Promise<number> {
    return this.db.prepare('DELETE FROM tokens WHERE expires_at < ?').run(before.toISOString()).changes;
  }
}
