/**
 * How many synchronous generations one account may have in progress at once (issue 21): without a bound, two
 * slow requests of one account take every generation thread and every other account waits behind them. One
 * over the bound is refused at once with a 429 rather than queued, so the client learns it and backs off.
 */
import { TooManyRequestsError } from './errors.js';

/** A generation usually ends within seconds: a retry soon after is likely to get in. */
const RETRY_AFTER_SECONDS = 2;

export class PerAccountLimit {
  private readonly inProgress = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Counts one more for `accountId` (or throws TooManyRequestsError); call the returned function when done. */
  enter(accountId: string): () => void {
    const now = this.inProgress.get(accountId) ?? 0;
    if (now >= this.limit) {
      throw new TooManyRequestsError(
        `this account already has ${now} presentation${now === 1 ? '' : 's'} generating, the most it may have ` +
          `at once (DECKFORGE_SYNC_GENERATIONS_PER_ACCOUNT=${this.limit}): wait for ${now === 1 ? 'it' : 'one'} ` +
          'to finish, or use POST /v2.0/generator/create-async',
        RETRY_AFTER_SECONDS,
      );
    }
    this.inProgress.set(accountId, now + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const remaining = (this.inProgress.get(accountId) ?? 1) - 1;
      if (remaining > 0) this.inProgress.set(accountId, remaining);
      else this.inProgress.delete(accountId);
    };
  }
}
