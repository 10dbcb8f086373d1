/**
 * Slide quota in SQLite. `reserve` reads the period's used + reserved slides and inserts the reservation inside
 * one BEGIN IMMEDIATE transaction: the write lock is held from the read on, so concurrent reservations (from
 * this process or another) are serialised and can never overshoot the allowance.
 */
import { randomUUID } from 'node:crypto';
import type {
  ApiCallCounts,
  Clock,
  DaySlides,
  PeriodUsage,
  ReserveOutcome,
  ReserveRequest,
  UsageLedger,
  UsageWrites,
} from '../../service/ports/index.js';
import { immediate, type SqliteDatabase } from './database.js';

interface ReservationRow {
  id: string;
  account_id: string;
  period_start: string;
  slides: number;
}

export class SqliteUsageLedger implements UsageLedger {
  /** Reservations are stamped on the runtime's clock: releaseStale compares them with that clock's time. */
  constructor(
    private readonly db: SqliteDatabase,
    private readonly clock: Clock,
  ) {}

  async reserve(request: ReserveRequest): Promise<ReserveOutcome> {
    return immediate(this.db, () => {
      const usage = this.readPeriod(request.accountId, request.periodStart);
      const used = usage.usedSlides + usage.reservedSlides;
      if (used + request.slides > request.allowance) return { granted: false, used };
      const id = randomUUID();
      this.db
        .prepare(
          'INSERT INTO reservations (id, account_id, period_start, slides, job_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(
          id,
          request.accountId,
          request.periodStart,
          request.slides,
          request.jobId,
          this.clock.now().toISOString(),
        );
      return { granted: true, reservationId: id };
    });
  }

  async write(batch: UsageWrites): Promise<void> {
    if (batch.settlements.length === 0 && batch.apiCalls.length === 0) return;
    immediate(this.db, () => {
      for (const { reservationId, slides, day } of batch.settlements) {
        const row = this.db.prepare('SELECT * FROM reservations WHERE id = ?').get(reservationId) as
          ReservationRow | undefined;
        if (!row) continue;
        this.db.prepare('DELETE FROM reservations WHERE id = ?').run(reservationId);
        this.ensurePeriod(row.account_id, row.period_start);
        this.db
          .prepare(
            'UPDATE usage_periods SET used_slides = used_slides + ? WHERE account_id = ? AND period_start = ?',
          )
          .run(slides, row.account_id, row.period_start);
        this.db
          .prepare(
            `INSERT INTO usage_days (account_id, period_start, day, slides) VALUES (?, ?, ?, ?)
             ON CONFLICT (account_id, period_start, day) DO UPDATE SET slides = slides + excluded.slides`,
          )
          .run(row.account_id, row.period_start, day ?? this.clock.now().toISOString().slice(0, 10), slides);
      }
      for (const { accountId, periodStart, successful, failed } of batch.apiCalls) {
        this.ensurePeriod(accountId, periodStart);
        this.db
          .prepare(
            `UPDATE usage_periods SET api_total = api_total + ?, api_successful = api_successful + ?,
               api_failed = api_failed + ? WHERE account_id = ? AND period_start = ?`,
          )
          .run(successful + failed, successful, failed, accountId, periodStart);
      }
    });
  }

  async release(reservationId: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM reservations WHERE id = ?').run(reservationId).changes > 0;
  }

  async releaseStale(before: Date): Promise<number> {
    return this.db
      .prepare('DELETE FROM reservations WHERE job_id IS NULL AND created_at < ?')
      .run(before.toISOString()).changes;
  }

  async forgetAccount(accountId: string): Promise<void> {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM reservations WHERE account_id = ?').run(accountId);
      this.db.prepare('DELETE FROM usage_periods WHERE account_id = ?').run(accountId);
      this.db.prepare('DELETE FROM usage_days WHERE account_id = ?').run(accountId);
    })();
  }

  async periodUsage(accountId: string, periodStart: string): Promise<PeriodUsage> {
    return this.readPeriod(accountId, periodStart);
  }

  async dailySlides(accountId: string, periodStart: string): Promise<DaySlides[]> {
    return this.db
      .prepare(
        `SELECT day, slides FROM usage_days WHERE account_id = ? AND period_start = ? AND slides > 0
         ORDER BY day`,
      )
      .all(accountId, periodStart) as DaySlides[];
  }

  async periodApiCalls(accountId: string, periodStart: string): Promise<ApiCallCounts> {
    const row = this.db
      .prepare(
        `SELECT api_total AS total, api_successful AS successful, api_failed AS failed FROM usage_periods
         WHERE account_id = ? AND period_start = ?`,
      )
      .get(accountId, periodStart) as ApiCallCounts | undefined;
    return { total: row?.total ?? 0, successful: row?.successful ?? 0, failed: row?.failed ?? 0 };
  }

  async apiCalls(accountId: string): Promise<ApiCallCounts> {
    const row = this.db
      .prepare(
        `SELECT COALESCE(SUM(api_total), 0) AS total, COALESCE(SUM(api_successful), 0) AS successful,
           COALESCE(SUM(api_failed), 0) AS failed FROM usage_periods WHERE account_id = ?`,
      )
      .get(accountId) as ApiCallCounts;
    return { total: row.total, successful: row.successful, failed: row.failed };
  }

  private readPeriod(accountId: string, periodStart: string): PeriodUsage {
    const used = this.db
      .prepare('SELECT used_slides AS n FROM usage_periods WHERE account_id = ? AND period_start = ?')
      .get(accountId, periodStart) as { n: number } | undefined;
    const reserved = this.db
      .prepare(
        'SELECT COALESCE(SUM(slides), 0) AS n FROM reservations WHERE account_id = ? AND period_start = ?',
      )
      .get(accountId, periodStart) as { n: number };
    return { usedSlides: used?.n ?? 0, reservedSlides: reserved.n };
  }

  private ensurePeriod(accountId: string, periodStart: string): void {
    this.db
      .prepare('INSERT OR IGNORE INTO usage_periods (account_id, period_start) VALUES (?, ?)')
      .run(accountId, periodStart);
  }
}
