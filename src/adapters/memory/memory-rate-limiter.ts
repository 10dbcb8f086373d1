/**
 * Request rates and sign-in attempts, one machine, in memory (a restart forgets them, which is acceptable for a
 * rate limit; a Redis-backed limiter replaces it for several nodes). Request rates: a fixed one-minute window
 * per key. Sign-in attempts: per key, the failures and when the last one was, from which the next allowed
 * attempt follows (AttemptPolicy). Remembered keys: when each expires (only a successful sign-in adds one).
 */
import type { AttemptPolicy, Clock, RateDecision, RateLimiter } from '../../service/ports/index.js';

interface Window {
  startMs: number;
  count: number;
}

interface Failures {
  count: number;
  lastMs: number;
}

const WINDOW_MS = 60_000;
/** Past this many keys, expired ones are swept before another is added (a spray of made-up e-mails). */
const SWEEP_ABOVE = 10_000;

/** Milliseconds after the last failure before another attempt is allowed, for `count` failures. */
function waitAfter(count: number, policy: AttemptPolicy): number {
  if (count >= policy.lockAfterFailures) return policy.lockSeconds * 1000;
  if (count <= policy.freeFailures) return 0;
  const doubled = policy.firstDelaySeconds * 2 ** (count - policy.freeFailures - 1);
  return Math.min(doubled, policy.lockSeconds) * 1000;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly failures = new Map<string, Failures>();
  private readonly remembered = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  async hit(key: string, limitPerMinute: number): Promise<RateDecision> {
    const now = this.clock.now().getTime();
    const startMs = now - (now % WINDOW_MS);
    let window = this.windows.get(key);
    if (!window || window.startMs !== startMs) {
      if (this.windows.size > SWEEP_ABOVE) this.forgetOld(startMs);
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

  async attempt(key: string, policy: AttemptPolicy): Promise<RateDecision> {
    const now = this.clock.now().getTime();
    let entry = this.failures.get(key);
    if (entry && now - entry.lastMs >= policy.forgetAfterSeconds * 1000) entry = undefined;
    if (entry) {
      const nextMs = entry.lastMs + waitAfter(entry.count, policy);
      if (now < nextMs)
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((nextMs - now) / 1000)) };
    } else {
      if (this.failures.size > SWEEP_ABOVE) this.forgetFailures(now, policy);
      entry = { count: 0, lastMs: now };
      this.failures.set(key, entry);
    }
    entry.count += 1;
    entry.lastMs = now;
    return { allowed: true };
  }

  async forgive(key: string, scope: 'all' | 'one'): Promise<void> {
    const entry = this.failures.get(key);
    if (!entry) return;
    if (scope === 'all' || entry.count <= 1) this.failures.delete(key);
    else entry.count -= 1;
  }

  async remember(key: string, seconds: number): Promise<void> {
    const now = this.clock.now().getTime();
    if (this.remembered.size > SWEEP_ABOVE)
      for (const [known, untilMs] of this.remembered) if (untilMs <= now) this.remembered.delete(known);
    this.remembered.set(key, now + seconds * 1000);
  }

  async remembers(key: string): Promise<boolean> {
    return (this.remembered.get(key) ?? 0) > this.clock.now().getTime();
  }

  private forgetOld(currentStart: number): void {
    for (const [key, window] of this.windows) if (window.startMs !== currentStart) this.windows.delete(key);
  }

  private forgetFailures(now: number, policy: AttemptPolicy): void {
    const horizon = policy.forgetAfterSeconds * 1000;
    for (const [key, entry] of this.failures) if (now - entry.lastMs >= horizon) this.failures.delete(key);
  }
}
