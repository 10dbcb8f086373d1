import type { Warning } from '../../engine/index.js';
import type { JobState } from '../../service/ports/job-store.js';
import type { JobOutcome, JobProgress, JobRecord, JobStore } from '../../service/ports/index.js';
import { immediate, type SqliteDatabase } from './database.js';

interface JobRow {
  id: string;
  account_id: string;
  state: JobState;
  created_at: string;
  updated_at: string;
  expires_at: string;
  input_key: string;
  reservation_id: string | null;
  error_message: string | null;
  warnings: string;
  result_key: string | null;
  result_file_name: string | null;
  slide_count: number | null;
  progress: string | null;
  warning_count: number | null;
}

function toRecord(row: JobRow): JobRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    state: row.state,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
    inputKey: row.input_key,
    reservationId: row.reservation_id,
    errorMessage: row.error_message,
    warnings: JSON.parse(row.warnings) as Warning[],
    resultKey: row.result_key,
    resultFileName: row.result_file_name,
    slideCount: row.slide_count,
    progress: row.progress === null ? null : (JSON.parse(row.progress) as JobProgress),
    ...(row.warning_count === null ? {} : { warningCount: row.warning_count }),
  };
}

export interface SqliteJobStoreOptions {
  /**
   * Keep small finished decks in `job_results`, beside the job (JobStore.keepsResults): only when the blobs are
   * in the data directory too, whose links come back to this server (docs/operations.md, "The data directory").
   */
  keepsResults?: boolean;
}

export class SqliteJobStore implements JobStore {
  readonly keepsResults: boolean;

  constructor(
    private readonly db: SqliteDatabase,
    options: SqliteJobStoreOptions = {},
  ) {
    this.keepsResults = options.keepsResults ?? false;
  }

  async create(job: JobRecord): Promise<void> {
    this.insert(job);
  }

  async createWithResult(job: JobRecord, result: Uint8Array): Promise<void> {
    // One transaction: the job is never there without its deck, nor the deck without its job.
    immediate(this.db, () => {
      this.insert(job);
      const bytes = Buffer.isBuffer(result)
        ? result
        : Buffer.from(result.buffer, result.byteOffset, result.byteLength);
      this.db.prepare('INSERT INTO job_results (job_id, bytes) VALUES (?, ?)').run(job.id, bytes);
    });
  }

  async getResult(id: string): Promise<Uint8Array | null> {
    const row = this.db.prepare('SELECT bytes FROM job_results WHERE job_id = ?').get(id) as
      { bytes: Buffer } | undefined;
    return row ? new Uint8Array(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength) : null;
  }

  private insert(job: JobRecord): void {
    this.db
      .prepare(
        `INSERT INTO jobs (id, account_id, state, created_at, updated_at, expires_at, input_key, reservation_id,
           error_message, warnings, result_key, result_file_name, slide_count)
         VALUES (@id, @accountId, @state, @createdAt, @updatedAt, @expiresAt, @inputKey, @reservationId,
           @errorMessage, @warnings, @resultKey, @resultFileName, @slideCount)`,
      )
      .run({ ...job, warnings: JSON.stringify(job.warnings) });
  }

  async get(id: string): Promise<JobRecord | null> {
    const row = this.db.prepare('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
    return row ? toRecord(row) : null;
  }

  async markProcessing(id: string, at: Date): Promise<boolean> {
    return this.transition(id, 'QUEUED', 'PROCESSING', at);
  }

  async markQueued(id: string, at: Date): Promise<boolean> {
    return this.transition(id, 'PROCESSING', 'QUEUED', at);
  }

  async setProgress(id: string, progress: JobProgress): Promise<void> {
    this.db
      .prepare(`UPDATE jobs SET progress = ? WHERE id = ? AND state = 'PROCESSING'`)
      .run(JSON.stringify(progress), id);
  }

  async markSucceeded(id: string, outcome: JobOutcome, at: Date): Promise<boolean> {
    return (
      this.db
        .prepare(
          `UPDATE jobs SET state = 'SUCCEEDED', updated_at = ?, result_key = ?, result_file_name = ?,
             slide_count = ?, warnings = ?, warning_count = ?, error_message = NULL
           WHERE id = ? AND state = 'PROCESSING'`,
        )
        .run(
          at.toISOString(),
          outcome.resultKey,
          outcome.resultFileName,
          outcome.slideCount,
          JSON.stringify(outcome.warnings),
          outcome.warningCount,
          id,
        ).changes > 0
    );
  }

  async markFailed(id: string, errorMessage: string, at: Date, warnings: Warning[] = []): Promise<boolean> {
    // From QUEUED too: a job whose every attempt was interrupted, or whose input vanished, ends here.
    return (
      this.db
        .prepare(
          `UPDATE jobs SET state = 'FAILED', updated_at = ?, error_message = ?, warnings = ?
           WHERE id = ? AND state IN ('QUEUED', 'PROCESSING')`,
        )
        .run(at.toISOString(), errorMessage, JSON.stringify(warnings), id).changes > 0
    );
  }

  async countByState(): Promise<Record<JobState, number>> {
    const counts: Record<JobState, number> = { QUEUED: 0, PROCESSING: 0, SUCCEEDED: 0, FAILED: 0 };
    const rows = this.db.prepare('SELECT state, COUNT(*) AS n FROM jobs GROUP BY state').all() as {
      state: JobState;
      n: number;
    }[];
    for (const row of rows) counts[row.state] = row.n;
    return counts;
  }

  async listByAccount(accountId: string, limit: number): Promise<JobRecord[]> {
    const rows = this.db
      .prepare('SELECT * FROM jobs WHERE account_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?')
      .all(accountId, limit) as JobRow[];
    return rows.map(toRecord);
  }

  async listExpired(now: Date, limit: number): Promise<JobRecord[]> {
    const rows = this.db
      .prepare('SELECT * FROM jobs WHERE expires_at < ? ORDER BY expires_at LIMIT ?')
      .all(now.toISOString(), limit) as JobRow[];
    return rows.map(toRecord);
  }

  async delete(id: string): Promise<boolean> {
    return immediate(this.db, () => {
      this.db.prepare('DELETE FROM job_results WHERE job_id = ?').run(id);
      return this.db.prepare('DELETE FROM jobs WHERE id = ?').run(id).changes > 0;
    });
  }

  private transition(id: string, from: JobState, to: JobState, at: Date): boolean {
    return (
      this.db
        .prepare('UPDATE jobs SET state = ?, updated_at = ? WHERE id = ? AND state = ?')
        .run(to, at.toISOString(), id, from).changes > 0
    );
  }
}
