/** Job records in PostgreSQL: every API node and worker sees the same states; moves are conditional updates. */
import type { Warning } from '../../engine/index.js';
import type { JobState } from '../../service/ports/job-store.js';
import type { JobOutcome, JobProgress, JobRecord, JobStore } from '../../service/ports/index.js';
import { isoOf, type PgDatabase } from './pg-database.js';

interface JobRow {
  id: string;
  account_id: string;
  state: JobState;
  created_at: Date;
  updated_at: Date;
  expires_at: Date;
  input_key: string;
  reservation_id: string | null;
  error_message: string | null;
  warnings: Warning[];
  progress: JobProgress | null;
  result_key: string | null;
  result_file_name: string | null;
  slide_count: number | null;
  warning_count: number | null;
}

function toRecord(row: JobRow): JobRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    state: row.state,
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
    expiresAt: isoOf(row.expires_at),
    inputKey: row.input_key,
    reservationId: row.reservation_id,
    errorMessage: row.error_message,
    warnings: row.warnings,
    resultKey: row.result_key,
    resultFileName: row.result_file_name,
    slideCount: row.slide_count,
    progress: row.progress,
    ...(row.warning_count === null ? {} : { warningCount: row.warning_count }),
  };
}

export class PgJobStore implements JobStore {
  constructor(private readonly db: PgDatabase) {}

  async create(job: JobRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO jobs (id, account_id, state, created_at, updated_at, expires_at, input_key, reservation_id,
         error_message, warnings, result_key, result_file_name, slide_count)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        job.id,
        job.accountId,
        job.state,
        job.createdAt,
        job.updatedAt,
        job.expiresAt,
        job.inputKey,
        job.reservationId,
        job.errorMessage,
        JSON.stringify(job.warnings),
        job.resultKey,
        job.resultFileName,
        job.slideCount,
      ],
    );
  }

  async get(id: string): Promise<JobRecord | null> {
    const { rows } = await this.db.query<JobRow>('SELECT * FROM jobs WHERE id = $1', [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async markProcessing(id: string, at: Date): Promise<boolean> {
    return this.transition(id, 'QUEUED', 'PROCESSING', at);
  }

  async markQueued(id: string, at: Date): Promise<boolean> {
    return this.transition(id, 'PROCESSING', 'QUEUED', at);
  }

  async setProgress(id: string, progress: JobProgress): Promise<void> {
    await this.db.query(`UPDATE jobs SET progress = $2 WHERE id = $1 AND state = 'PROCESSING'`, [
      id,
      JSON.stringify(progress),
    ]);
  }

  async markSucceeded(id: string, outcome: JobOutcome, at: Date): Promise<boolean> {
    return this.changed(
      `UPDATE jobs SET state = 'SUCCEEDED', updated_at = $2, result_key = $3, result_file_name = $4,
         slide_count = $5, warnings = $6, warning_count = $7, error_message = NULL
       WHERE id = $1 AND state = 'PROCESSING'`,
      [
        id,
        at,
        outcome.resultKey,
        outcome.resultFileName,
        outcome.slideCount,
        JSON.stringify(outcome.warnings),
        outcome.warningCount,
      ],
    );
  }

  async markFailed(id: string, errorMessage: string, at: Date, warnings: Warning[] = []): Promise<boolean> {
    // From QUEUED too: a job whose every attempt was interrupted, or whose input vanished, ends here.
    return this.changed(
      `UPDATE jobs SET state = 'FAILED', updated_at = $2, error_message = $3, warnings = $4
       WHERE id = $1 AND state IN ('QUEUED', 'PROCESSING')`,
      [id, at, errorMessage, JSON.stringify(warnings)],
    );
  }

  async countByState(): Promise<Record<JobState, number>> {
    const counts: Record<JobState, number> = { QUEUED: 0, PROCESSING: 0, SUCCEEDED: 0, FAILED: 0 };
    const { rows } = await this.db.query<{ state: JobState; n: number }>(
      'SELECT state, COUNT(*)::int AS n FROM jobs GROUP BY state',
    );
    for (const row of rows) counts[row.state] = row.n;
    return counts;
  }

  async listByAccount(accountId: string, limit: number): Promise<JobRecord[]> {
    const { rows } = await this.db.query<JobRow>(
      'SELECT * FROM jobs WHERE account_id = $1 ORDER BY created_at DESC, seq DESC LIMIT $2',
      [accountId, limit],
    );
    return rows.map(toRecord);
  }

  async listExpired(now: Date, limit: number): Promise<JobRecord[]> {
    const { rows } = await this.db.query<JobRow>(
      'SELECT * FROM jobs WHERE expires_at < $1 ORDER BY expires_at LIMIT $2',
      [now, limit],
    );
    return rows.map(toRecord);
  }

  async delete(id: string): Promise<boolean> {
    return this.changed('DELETE FROM jobs WHERE id = $1', [id]);
  }

  private transition(id: string, from: JobState, to: JobState, at: Date): Promise<boolean> {
    return this.changed('UPDATE jobs SET state = $3, updated_at = $4 WHERE id = $1 AND state = $2', [
      id,
      from,
      to,
      at,
    ]);
  }

  private async changed(sql: string, params: unknown[]): Promise<boolean> {
    return ((await this.db.query(sql, params)).rowCount ?? 0) > 0;
  }
}
