/**
 * Settlements of synchronous requests and API-call counts, kept in memory and written to the ledger in one
 * transaction per flush instead of one write transaction each on the path of every request (two per
 * synchronous generation). Flushed every `flushEveryMs`, before any usage report is read (a usage call on
 * this process sees everything answered before it) and at close.
 *
 * The allowance stays exact meanwhile: a reservation counts against it until its settlement is written. A
 * crash loses at most the last interval: unwritten settlements leave their reservations behind, which the
 * retention sweeper releases as stale (the user is not charged for those decks), and unwritten API calls are
 * not counted.
 */
import type { ApiCallIncrement, ServiceLogger, Settlement, UsageLedger } from './ports/index.js';

export const USAGE_FLUSH_MS = 100;

export class UsageWriter {
  private settlements: Settlement[] = [];
  private apiCalls = new Map<string, ApiCallIncrement>();
  private writing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly ledger: UsageLedger,
    private readonly logger: ServiceLogger,
    flushEveryMs = USAGE_FLUSH_MS,
  ) {
    this.timer = setInterval(() => {
      this.flush().catch((error: unknown) => {
        this.logger.error({ err: error }, 'could not write usage; it is kept for the next try');
      });
    }, flushEveryMs);
    this.timer.unref();
  }

  /** Turns the reservation into `slides` used slides at the next flush, counted on the UTC day of `at`. */
  settle(reservationId: string, slides: number, at: Date): void {
    this.settlements.push({ reservationId, slides, day: at.toISOString().slice(0, 10) });
  }

  countApiCall(accountId: string, periodStart: string, succeeded: boolean): void {
    this.addApiCalls({ accountId, periodStart, successful: succeeded ? 1 : 0, failed: succeeded ? 0 : 1 });
  }

  /** Writes what is pending; flushes run one after another, and a failed write keeps what it held. */
  flush(): Promise<void> {
    const result = this.writing.then(async () => {
      if (this.settlements.length === 0 && this.apiCalls.size === 0) return;
      const settlements = this.settlements;
      const apiCalls = [...this.apiCalls.values()];
      this.settlements = [];
      this.apiCalls = new Map();
      try {
        await this.ledger.write({ settlements, apiCalls });
      } catch (error) {
        this.settlements = [...settlements, ...this.settlements]; // kept first, as they came
        for (const increment of apiCalls) this.addApiCalls(increment);
        throw error;
      }
    });
    // The chain must outlive a failed write, or every later flush would fail with it.
    this.writing = result.catch(() => undefined);
    return result;
  }

  /** Stops the timer and writes what is pending; a failed last write is logged, not thrown (shutdown goes on). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush().catch((error: unknown) => {
      this.logger.error({ err: error }, 'could not write the last usage at shutdown');
    });
  }

  private addApiCalls(increment: ApiCallIncrement): void {
    const key = `${increment.accountId}\0${increment.periodStart}`;
    const entry = this.apiCalls.get(key);
    if (entry) {
      entry.successful += increment.successful;
      entry.failed += increment.failed;
    } else this.apiCalls.set(key, { ...increment });
  }
}
