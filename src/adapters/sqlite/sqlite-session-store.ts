import type { SessionRecord, SessionStore } from '../../service/ports/index.js';
import type { SqliteDatabase } from './database.js';

interface SessionRow {
  id_hash: string;
  account_id: string | null;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export class SqliteSessionStore implements SessionStore {
  constructor(private readonly db: SqliteDatabase) {}

  async create(session: SessionRecord): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO console_sessions (id_hash, account_id, csrf_token, created_at, last_seen_at, expires_at)
         VALUES (@idHash, @accountId, @csrfToken, @createdAt, @lastSeenAt, @expiresAt)`,
      )
      .run(session);
  }

  async find(idHash: string): Promise<SessionRecord | null> {
    const row = this.db.prepare('SELECT * FROM console_sessions WHERE id_hash = ?').get(idHash) as
      SessionRow | undefined;
    if (!row) return null;
    return {
      idHash: row.id_hash,
      accountId: row.account_id,
      csrfToken: row.csrf_token,
      createdAt: row.created_at,
      lastSeenAt: row.last_seen_at,
      expiresAt: row.expires_at,
    };
  }

  async touch(idHash: string, lastSeenAt: string): Promise<void> {
    this.db.prepare('UPDATE console_sessions SET last_seen_at = ? WHERE id_hash = ?').run(lastSeenAt, idHash);
  }

  async delete(idHash: string): Promise<void> {
    this.db.prepare('DELETE FROM console_sessions WHERE id_hash = ?').run(idHash);
  }

  async deleteForAccount(accountId: string, exceptIdHash?: string): Promise<number> {
    return this.db
      .prepare('DELETE FROM console_sessions WHERE account_id = ? AND id_hash <> ?')
      .run(accountId, exceptIdHash ?? '').changes;
  }

  async deleteExpired(now: Date, idleBefore: Date): Promise<number> {
    return this.db
      .prepare('DELETE FROM console_sessions WHERE expires_at <= ? OR last_seen_at < ?')
      .run(now.toISOString(), idleBefore.toISOString()).changes;
  }
}
