/** WebhookStore on SQLite: the secrets and deliveries tables of migration 3. */
import type {
  WebhookAttemptOutcome,
  WebhookDeliveryRecord,
  WebhookState,
  WebhookStore,
} from '../../service/ports/index.js';
import type { SqliteDatabase } from './database.js';

interface DeliveryRow {
  job_id: string;
  account_id: string;
  url: string;
  link_base: string | null;
  state: WebhookState;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  ended_at: string | null;
  next_attempt_at: string | null;
}

function toRecord(row: DeliveryRow): WebhookDeliveryRecord {
  return {
    jobId: row.job_id,
    accountId: row.account_id,
    url: row.url,
    linkBase: row.link_base,
    state: row.state,
    attempts: row.attempts,
    lastStatus: row.last_status,
    lastError: row.last_error,
    endedAt: row.ended_at,
    nextAttemptAt: row.next_attempt_at,
  };
}

export class SqliteWebhookStore implements WebhookStore {
  constructor(private readonly db: SqliteDatabase) {}

  async setSecret(accountId: string, secret: string, at: Date): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO webhook_secrets (account_id, secret, created_at) VALUES (?, ?, ?)
         ON CONFLICT (account_id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at`,
      )
      .run(accountId, secret, at.toISOString());
  }

  async forgetAccount(accountId: string): Promise<void> {
    this.db.prepare('DELETE FROM webhook_secrets WHERE account_id = ?').run(accountId);
  }

  async getSecret(accountId: string): Promise<string | null> {
    const row = this.db.prepare('SELECT secret FROM webhook_secrets WHERE account_id = ?').get(accountId) as
      { secret: string } | undefined;
    return row?.secret ?? null;
  }

  async createDelivery(r: WebhookDeliveryRecord): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO webhook_deliveries (job_id, account_id, url, link_base, state, attempts, last_status,
           last_error, ended_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        r.jobId,
        r.accountId,
        r.url,
        r.linkBase,
        r.state,
        r.attempts,
        r.lastStatus,
        r.lastError,
        r.endedAt,
        r.nextAttemptAt,
      );
  }

  async getDelivery(jobId: string): Promise<WebhookDeliveryRecord | null> {
    const row = this.db.prepare('SELECT * FROM webhook_deliveries WHERE job_id = ?').get(jobId) as
      DeliveryRow | undefined;
    return row ? toRecord(row) : null;
  }

  async listWaiting(limit: number): Promise<WebhookDeliveryRecord[]> {
    const rows = this.db
      .prepare(`SELECT * FROM webhook_deliveries WHERE state = 'WAITING' LIMIT ?`)
      .all(limit) as DeliveryRow[];
    return rows.map(toRecord);
  }

  async markEnded(jobId: string, at: Date): Promise<boolean> {
    const when = at.toISOString();
    const result = this.db
      .prepare(
        `UPDATE webhook_deliveries SET state = 'DELIVERING', ended_at = ?, next_attempt_at = ?
         WHERE job_id = ? AND state = 'WAITING'`,
      )
      .run(when, when, jobId);
    return result.changes > 0;
  }

  async claimDue(
    now: Date,
    holdUntil: Date,
    limit: number,
    exceptAccounts: readonly string[] = [],
  ): Promise<WebhookDeliveryRecord[]> {
    // One transaction: two processes on the same database never claim the same delivery.
    const claim = this.db.transaction(() => {
      const rows = this.db
        .prepare(
          `SELECT * FROM webhook_deliveries WHERE state = 'DELIVERING' AND next_attempt_at <= ?
           AND account_id NOT IN (SELECT value FROM json_each(?))
           ORDER BY next_attempt_at LIMIT ?`,
        )
        .all(now.toISOString(), JSON.stringify(exceptAccounts), limit) as DeliveryRow[];
      const hold = this.db.prepare('UPDATE webhook_deliveries SET next_attempt_at = ? WHERE job_id = ?');
      for (const row of rows) hold.run(holdUntil.toISOString(), row.job_id);
      return rows.map(toRecord);
    });
    return claim.immediate();
  }

  async recordAttempt(jobId: string, outcome: WebhookAttemptOutcome): Promise<void> {
    this.db
      .prepare(
        `UPDATE webhook_deliveries SET state = ?, attempts = attempts + 1, last_status = ?, last_error = ?,
           next_attempt_at = ? WHERE job_id = ?`,
      )
      .run(outcome.state, outcome.lastStatus, outcome.lastError, outcome.nextAttemptAt, jobId);
  }

  async deleteDelivery(jobId: string): Promise<void> {
    this.db.prepare('DELETE FROM webhook_deliveries WHERE job_id = ?').run(jobId);
  }
}
