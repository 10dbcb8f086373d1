/**
 * Request rates and sign-in attempts. The one-machine adapter keeps both in memory; a shared store replaces
 * it when several nodes serve one account base.
 */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** How failed sign-in attempts under one key slow down, then lock (docs/security.md). */
export interface AttemptPolicy {
  /** Failures that cost nothing. */
  freeFailures: number;
  /** The wait after the first failure beyond those; it doubles with each further failure, up to lockSeconds. */
  firstDelaySeconds: number;
  /** From this many failures on, each attempt waits lockSeconds after the previous one. */
  lockAfterFailures: number;
  lockSeconds: number;
  /** Failures are forgotten once this long has passed since the last one. */
  forgetAfterSeconds: number;
}

export interface RateLimiter {
  /** One request of `key` against a per-minute limit. */
  hit(key: string, limitPerMinute: number): Promise<RateDecision>;
  /**
   * One sign-in attempt under `key` (an e-mail address, a client address), if the key's failures allow one
   * now. An allowed attempt is counted as a failure at once, so attempts made together all count; `forgive`
   * takes it back when it succeeds.
   */
  attempt(key: string, policy: AttemptPolicy): Promise<RateDecision>;
  /** The attempt succeeded: forget every failure of `key` (`all`) or only the one this attempt counted. */
  forgive(key: string, scope: 'all' | 'one'): Promise<void>;
  /** Keeps `key` (an account and an address it signed in from) known for `seconds` from now. */
  remember(key: string, seconds: number): Promise<void>;
  /** Whether `key` was remembered and has not expired since. */
  remembers(key: string): Promise<boolean>;
}
