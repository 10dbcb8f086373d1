/**
 * Slide quota and API call counters per account and period. `periodStart` is an ISO date (YYYY-MM-DD) that
 * names the period; the service computes it from the subscription start (billing-period.ts).
 */
export interface ReserveRequest {
  accountId: string;
  periodStart: string;
  slides: number;
  allowance: number;
  /** The job holding the reservation, when async; null for a synchronous request. */
  jobId: string | null;
}

export type ReserveOutcome =
  | { granted: true; reservationId: string }
  /** `used` counts settled and still reserved slides of the period. */
  | { granted: false; used: number };

export interface PeriodUsage {
  usedSlides: number;
  reservedSlides: number;
}

export interface ApiCallCounts {
  total: number;
  successful: number;
  failed: number;
}

/** API calls of one account in one period, counted since the last write. */
export interface ApiCallIncrement {
  accountId: string;
  periodStart: string;
  successful: number;
  failed: number;
}

export interface UsageLedger {
  /** Atomic check-and-reserve: concurrent callers never overshoot `allowance`. */
  reserve(request: ReserveRequest): Promise<ReserveOutcome>;
  /** Turns a reservation into used slides (the actual count generated). Unknown id: no-op, returns false. */
  settle(reservationId: string, actualSlides: number): Promise<boolean>;
  /** Gives a reservation back. Unknown id: no-op, returns false. */
  release(reservationId: string): Promise<boolean>;
  /** Releases synchronous reservations (no job) made before `before`: left behind by a crashed process. */
  releaseStale(before: Date): Promise<number>;
  periodUsage(accountId: string, periodStart: string): Promise<PeriodUsage>;
  /** Adds counted API calls, all in one transaction (the service batches them: api-call-tally.ts). */
  addApiCalls(increments: readonly ApiCallIncrement[]): Promise<void>;
  /** All-time counters of the account. */
  apiCalls(accountId: string): Promise<ApiCallCounts>;
}
