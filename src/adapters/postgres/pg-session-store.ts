/** The console's sessions in PostgreSQL: a session opened on one node is found by every other. */
import type { SessionRecord, SessionStore } from '../../service/ports/index.js';
import { isoOf, type PgDatabase } from './pg-database.js';

interface SessionRow {
  id_hash: string;
  account_id: string | null;
  csrf_token: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
}

export class PgSessionStore implements SessionStore {
  constructor(private readonly db: PgDatabase) {}

  async create(s: SessionRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO console_sessions (id_hash, account_id, csrf_token, created_at, last_seen_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [s.idHash, s.accountId, s.csrfToken, s.createdAt, s.lastSeenAt, s.expiresAt],
    );
  }

  async find(idHash: string): Promise<SessionRecord | null> {
    const { rows } = await this.db.query<SessionRow>('SELECT * FROM console_sessions WHERE id_hash = $1', [
      idHash,
    ]);
    const row = rows[0];
    if (!row) return null;
    return {
      idHash: row.id_hash,
      accountId: row.account_id,
      csrfToken: row.csrf_token,
      createdAt: isoOf(row.created_at),
      lastSeenAt: isoOf(row.last_seen_at),
      expiresAt: isoOf(row.expires_at),
    };
  }

  async touch(idHash: string, lastSeenAt: string): Promise<void> {
    await this.db.query('UPDATE console_sessions SET last_seen_at = $2 WHERE id_hash = $1', [
      idHash,
      lastSeenAt,
    ]);
  }

  async delete(idHash: string): Promise<void> {
    await this.db.query('DELETE FROM console_sessions WHERE id_hash = $1', [idHash]);
  }

  async deleteForAccount(accountId: string, exceptIdHash?: string): Promise<number> {
    const result = await this.db.query(
      'DELETE FROM console_sessions WHERE account_id = $1 AND id_hash <> $2',
      [accountId, exceptIdHash ?? ''],
    );
    return result.rowCount ?? 0;
  }

  async deleteExpired(now: Date, idleBefore: Date): Promise<number> {
    const result = await this.db.query(
      'DELETE FROM console_sessions WHERE expires_at <= $1 OR last_seen_at < $2',
      [now, idleBefore],
    );
    return result.rowCount ?? 0;
  }
}
