/**
 * API-call counters (usage `totalApiCallCount` …) kept in memory and written to the ledger in one transaction
 * per flush, instead of one write transaction on the path of every API call. Flushed every `flushEveryMs`,
 * before any usage report is read (so a usage call on this process sees every call answered before it) and
 * at close. What a crash loses is at most the last interval's counts; the slide allowance never goes through
 * here and stays exact.
 */
import type { ApiCallIncrement, ServiceLogger, UsageLedger } from './ports/index.js';

export const API_CALL_FLUSH_MS = 250;

export class ApiCallTally {
  private pending = new Map<string, ApiCallIncrement>();
  private writing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly ledger: UsageLedger,
    private readonly logger: ServiceLogger,
    flushEveryMs = API_CALL_FLUSH_MS,
  ) {
    this.timer = setInterval(() => {
      this.flush().catch((error: unknown) => {
        this.logger.error({ err: error }, 'could not write API call counts; they are kept for the next try');
      });
    }, flushEveryMs);
    this.timer.unref();
  }

  count(accountId: string, periodStart: string, succeeded: boolean): void {
    this.add({ accountId, periodStart, successful: succeeded ? 1 : 0, failed: succeeded ? 0 : 1 });
  }

  /** Writes what is pending; flushes run one after another, and a failed write keeps its counts. */
  flush(): Promise<void> {
    this.writing = this.writing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = [...this.pending.values()];
      this.pending = new Map();
      try {
        await this.ledger.addApiCalls(batch);
      } catch (error) {
        for (const entry of batch) this.add(entry);
        throw error;
      }
    });
    // The chain must survive a failed write, or every later flush would fail with it.
    const result = this.writing;
    this.writing = result.catch(() => undefined);
    return result;
  }

  private add(increment: ApiCallIncrement): void {
    const key = `${increment.accountId}\0${increment.periodStart}`;
    const entry = this.pending.get(key);
    if (entry) {
      entry.successful += increment.successful;
      entry.failed += increment.failed;
    } else this.pending.set(key, { ...increment });
  }

  /** Stops the timer and writes what is pending; a failed last write is logged, not thrown (shutdown goes on). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush().catch((error: unknown) => {
      this.logger.error({ err: error }, 'could not write the last API call counts at shutdown');
    });
  }
}
