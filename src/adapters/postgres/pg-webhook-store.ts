/**
 * WebhookStore on PostgreSQL. `claimDue` takes due deliveries with `FOR UPDATE SKIP LOCKED` and moves their next
 * attempt to `holdUntil` in the same statement: two nodes never send the same delivery, and neither waits for the
 * other's rows.
 */
import type {
  WebhookAttemptOutcome,
  WebhookDeliveryRecord,
  WebhookState,
  WebhookStore,
} from '../../service/ports/index.js';
import { iso, type PgDatabase } from './pg-database.js';

interface DeliveryRow {
  job_id: string;
  account_id: string;
  url: string;
  link_base: string | null;
  state: WebhookState;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  ended_at: Date | null;
  next_attempt_at: Date | null;
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
    endedAt: iso(row.ended_at),
    nextAttemptAt: iso(row.next_attempt_at),
  };
}

export class PgWebhookStore implements WebhookStore {
  constructor(private readonly db: PgDatabase) {}

  async setSecret(accountId: string, secret: string, at: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO webhook_secrets (account_id, secret, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (account_id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at`,
      [accountId, secret, at],
    );
  }

  async getSecret(accountId: string): Promise<string | null> {
    const { rows } = await this.db.query<{ secret: string }>(
      'SELECT secret FROM webhook_secrets WHERE account_id = $1',
      [accountId],
    );
    return rows[0]?.secret ?? null;
  }

  async forgetAccount(accountId: string): Promise<void> {
    await this.db.query('DELETE FROM webhook_secrets WHERE account_id = $1', [accountId]);
  }

  async createDelivery(r: WebhookDeliveryRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO webhook_deliveries (job_id, account_id, url, link_base, state, attempts, last_status,
         last_error, ended_at, next_attempt_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
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
      ],
    );
  }

  async getDelivery(jobId: string): Promise<WebhookDeliveryRecord | null> {
    const { rows } = await this.db.query<DeliveryRow>('SELECT * FROM webhook_deliveries WHERE job_id = $1', [
      jobId,
    ]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async listWaiting(limit: number): Promise<WebhookDeliveryRecord[]> {
    const { rows } = await this.db.query<DeliveryRow>(
      `SELECT * FROM webhook_deliveries WHERE state = 'WAITING' LIMIT $1`,
      [limit],
    );
    return rows.map(toRecord);
  }

  async markEnded(jobId: string, at: Date): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE webhook_deliveries SET state = 'DELIVERING', ended_at = $2, next_attempt_at = $2
       WHERE job_id = $1 AND state = 'WAITING'`,
      [jobId, at],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async claimDue(
    now: Date,
    holdUntil: Date,
    limit: number,
    exceptAccounts: readonly string[] = [],
  ): Promise<WebhookDeliveryRecord[]> {
    // RETURNING gives the rows after the update; the records handed out keep the attempt time they were due at.
    const { rows } = await this.db.query<DeliveryRow & { due_at: Date }>(
      `WITH due AS (
         SELECT job_id, next_attempt_at FROM webhook_deliveries
         WHERE state = 'DELIVERING' AND next_attempt_at <= $1 AND NOT (account_id = ANY($4::text[]))
         ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE webhook_deliveries d SET next_attempt_at = $2 FROM due WHERE d.job_id = due.job_id
       RETURNING d.*, due.next_attempt_at AS due_at`,
      [now, holdUntil, limit, [...exceptAccounts]],
    );
    return rows
      .sort((a, b) => a.due_at.getTime() - b.due_at.getTime())
      .map((row) => toRecord({ ...row, next_attempt_at: row.due_at }));
  }

  async recordAttempt(jobId: string, outcome: WebhookAttemptOutcome): Promise<void> {
    await this.db.query(
      `UPDATE webhook_deliveries SET state = $2, attempts = attempts + 1, last_status = $3, last_error = $4,
         next_attempt_at = $5 WHERE job_id = $1`,
      [jobId, outcome.state, outcome.lastStatus, outcome.lastError, outcome.nextAttemptAt],
    );
  }

  async deleteDelivery(jobId: string): Promise<void> {
    await this.db.query('DELETE FROM webhook_deliveries WHERE job_id = $1', [jobId]);
  }
}
