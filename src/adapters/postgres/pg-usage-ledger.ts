/**
 * Slide quota in PostgreSQL, exact across nodes. `reserve` locks the period's row (`SELECT … FOR UPDATE`), then
 * sums what is used and reserved, and inserts the reservation in the same transaction: reservations of one account
 * and period are serialised whichever node makes them, and never overshoot the allowance. Batched writes lock the
 * periods they touch in one fixed order (account, period), so two nodes' batches never deadlock each other.
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
import type { PgDatabase, Queryable } from './pg-database.js';

interface PeriodDelta {
  accountId: string;
  periodStart: string;
  slides: number;
  successful: number;
  failed: number;
  days: Map<string, number>;
}

const COUNTS = `COALESCE(SUM(api_total), 0)::int AS total, COALESCE(SUM(api_successful), 0)::int AS successful,
  COALESCE(SUM(api_failed), 0)::int AS failed`;

export class PgUsageLedger implements UsageLedger {
  /** Reservations are stamped on the runtime's clock: releaseStale compares them with that clock's time. */
  constructor(
    private readonly db: PgDatabase,
    private readonly clock: Clock,
  ) {}

  async reserve(request: ReserveRequest): Promise<ReserveOutcome> {
    return this.db.transaction(async (q) => {
      await ensurePeriod(q, request.accountId, request.periodStart);
      // First the lock, then the sums, in a statement of their own: under READ COMMITTED each statement reads a
      // fresh snapshot, so the sums include every reservation committed by whoever held the lock before. (A sum
      // in the locking statement would read the snapshot taken before waiting for the lock, and overshoot.)
      await q.query('SELECT 1 FROM usage_periods WHERE account_id = $1 AND period_start = $2 FOR UPDATE', [
        request.accountId,
        request.periodStart,
      ]);
      const { rows } = await q.query<{ used: number; reserved: number }>(
        `SELECT p.used_slides::int AS used,
           (SELECT COALESCE(SUM(slides), 0)::int FROM reservations r
            WHERE r.account_id = p.account_id AND r.period_start = p.period_start) AS reserved
         FROM usage_periods p WHERE p.account_id = $1 AND p.period_start = $2`,
        [request.accountId, request.periodStart],
      );
      const used = (rows[0]?.used ?? 0) + (rows[0]?.reserved ?? 0);
      if (used + request.slides > request.allowance) return { granted: false, used };
      const id = randomUUID();
      await q.query(
        `INSERT INTO reservations (id, account_id, period_start, slides, job_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [id, request.accountId, request.periodStart, request.slides, request.jobId, this.clock.now()],
      );
      return { granted: true, reservationId: id };
    });
  }

  async write(batch: UsageWrites): Promise<void> {
    if (batch.settlements.length === 0 && batch.apiCalls.length === 0) return;
    await this.db.transaction(async (q) => {
      const deltas = new Map<string, PeriodDelta>();
      const delta = (accountId: string, periodStart: string): PeriodDelta => {
        const key = `${accountId}\u0000${periodStart}`;
        let d = deltas.get(key);
        if (!d)
          deltas.set(
            key,
            (d = { accountId, periodStart, slides: 0, successful: 0, failed: 0, days: new Map() }),
          );
        return d;
      };
      if (batch.settlements.length > 0) {
        // Deleting the reservation is the settlement: a second settlement of the same id finds nothing.
        const { rows } = await q.query<{ id: string; account_id: string; period_start: string }>(
          'DELETE FROM reservations WHERE id = ANY($1::text[]) RETURNING id, account_id, period_start',
          [batch.settlements.map((s) => s.reservationId)],
        );
        const today = this.clock.now().toISOString().slice(0, 10);
        const byId = new Map(batch.settlements.map((s) => [s.reservationId, s]));
        for (const row of rows) {
          const settlement = byId.get(row.id)!;
          const d = delta(row.account_id, row.period_start);
          d.slides += settlement.slides;
          const day = settlement.day ?? today;
          d.days.set(day, (d.days.get(day) ?? 0) + settlement.slides);
        }
      }
      for (const call of batch.apiCalls) {
        const d = delta(call.accountId, call.periodStart);
        d.successful += call.successful;
        d.failed += call.failed;
      }
      const ordered = [...deltas.values()].sort((a, b) =>
        a.accountId === b.accountId ? cmp(a.periodStart, b.periodStart) : cmp(a.accountId, b.accountId),
      );
      for (const d of ordered) {
        await q.query(
          `INSERT INTO usage_periods AS p (account_id, period_start, used_slides, api_total, api_successful, api_failed)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (account_id, period_start) DO UPDATE SET used_slides = p.used_slides + excluded.used_slides,
             api_total = p.api_total + excluded.api_total, api_successful = p.api_successful + excluded.api_successful,
             api_failed = p.api_failed + excluded.api_failed`,
          [d.accountId, d.periodStart, d.slides, d.successful + d.failed, d.successful, d.failed],
        );
        for (const [day, slides] of [...d.days].sort(([a], [b]) => cmp(a, b))) {
          await q.query(
            `INSERT INTO usage_days AS u (account_id, period_start, day, slides) VALUES ($1, $2, $3, $4)
             ON CONFLICT (account_id, period_start, day) DO UPDATE SET slides = u.slides + excluded.slides`,
            [d.accountId, d.periodStart, day, slides],
          );
        }
      }
    });
  }

  async release(reservationId: string): Promise<boolean> {
    return (
      ((await this.db.query('DELETE FROM reservations WHERE id = $1', [reservationId])).rowCount ?? 0) > 0
    );
  }

  async releaseStale(before: Date): Promise<number> {
    const result = await this.db.query('DELETE FROM reservations WHERE job_id IS NULL AND created_at < $1', [
      before,
    ]);
    return result.rowCount ?? 0;
  }

  async forgetAccount(accountId: string): Promise<void> {
    await this.db.transaction(async (q) => {
      for (const table of ['reservations', 'usage_periods', 'usage_days']) {
        await q.query(`DELETE FROM ${table} WHERE account_id = $1`, [accountId]);
      }
    });
  }

  async periodUsage(accountId: string, periodStart: string): Promise<PeriodUsage> {
    const { rows } = await this.db.query<{ used: number; reserved: number }>(
      `SELECT (SELECT COALESCE(SUM(used_slides), 0)::int FROM usage_periods WHERE account_id = $1 AND period_start = $2) AS used,
         (SELECT COALESCE(SUM(slides), 0)::int FROM reservations WHERE account_id = $1 AND period_start = $2) AS reserved`,
      [accountId, periodStart],
    );
    return { usedSlides: rows[0]?.used ?? 0, reservedSlides: rows[0]?.reserved ?? 0 };
  }

  async dailySlides(accountId: string, periodStart: string): Promise<DaySlides[]> {
    const { rows } = await this.db.query<DaySlides>(
      `SELECT day, slides::int AS slides FROM usage_days
       WHERE account_id = $1 AND period_start = $2 AND slides > 0 ORDER BY day`,
      [accountId, periodStart],
    );
    return rows;
  }

  async periodApiCalls(accountId: string, periodStart: string): Promise<ApiCallCounts> {
    const { rows } = await this.db.query<ApiCallCounts>(
      `SELECT ${COUNTS} FROM usage_periods WHERE account_id = $1 AND period_start = $2`,
      [accountId, periodStart],
    );
    return counts(rows[0]);
  }

  async apiCalls(accountId: string): Promise<ApiCallCounts> {
    const { rows } = await this.db.query<ApiCallCounts>(
      `SELECT ${COUNTS} FROM usage_periods WHERE account_id = $1`,
      [accountId],
    );
    return counts(rows[0]);
  }
}

async function ensurePeriod(q: Queryable, accountId: string, periodStart: string): Promise<void> {
  await q.query(
    'INSERT INTO usage_periods (account_id, period_start) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    [accountId, periodStart],
  );
}

function counts(row: ApiCallCounts | undefined): ApiCallCounts {
  return { total: row?.total ?? 0, successful: row?.successful ?? 0, failed: row?.failed ?? 0 };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
