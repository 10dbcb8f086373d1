/**
 * Per-account request rate, one machine: a fixed one-minute window per key, kept in memory (a restart forgets
 * the current minute, which is acceptable for a rate limit; a Redis-backed limiter replaces it for several nodes).
 */
import type { Clock, RateDecision, RateLimiter } from '../../service/ports/index.js';

interface Window {
  startMs: number;
  count: number;
}

const WINDOW_MS = 60_000;

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly clock: Clock) {}

  async hit(key: string, limitPerMinute: number): Promise<RateDecision> {
    const now = this.clock.now().getTime();
    const startMs = now - (now % WINDOW_MS);
    let window = this.windows.get(key);
    if (!window || window.startMs !== startMs) {
      if (this.windows.size > 10_000) this.forgetOld(startMs);
      window = { startMs, count: 0 };
      this.windows.set(key, window);
    }
    if (window.count >= limitPerMinute) {
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((startMs + WINDOW_MS - now) / 1000)),
      };
    }
    window.count += 1;
    return { allowed: true };
  }

  private forgetOld(currentStart: number): void {
    for (const [key, window] of this.windows) if (window.startMs !== currentStart) this.windows.delete(key);
  }
}
