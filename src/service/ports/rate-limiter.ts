/** Per-account request rate. The one-machine adapter keeps a fixed one-minute window in memory. */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  hit(key: string, limitPerMinute: number): Promise<RateDecision>;
}
