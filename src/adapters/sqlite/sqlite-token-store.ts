import type { Clock, TokenRecord, TokenStore } from '../../service/ports/index.js';
import type { SqliteDatabase } from './database.js';

interface TokenRow {
  token_hash: string;
  account_id: string;
  issued_at: string;
  expires_at: string;
}

export class SqliteTokenStore implements TokenStore {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly clock: Clock,
  ) {}

  async save(token: TokenRecord): Promise<void> {
    this.db
      .prepare('INSERT INTO tokens (token_hash, account_id, issued_at, expires_at) VALUES (?, ?, ?, ?)')
      .run(token.tokenHash, token.accountId, token.issuedAt, token.expiresAt);
  }

  async find(tokenHash: string): Promise<TokenRecord | null> {
    const row = this.db
      .prepare('SELECT * FROM tokens WHERE token_hash = ? AND revoked_at IS NULL')
      .get(tokenHash) as TokenRow | undefined;
    if (!row) return null;
    return {
      tokenHash: row.token_hash,
      accountId: row.account_id,
      issuedAt: row.issued_at,
      expiresAt: row.expires_at,
    };
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
