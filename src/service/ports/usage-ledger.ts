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

/** A reservation to turn into used slides, with the number of slides actually generated. */
export interface Settlement {
  reservationId: string;
  slides: number;
  /**
   * The UTC day (YYYY-MM-DD) the slides were generated, for the per-day figures; the ledger's own clock when
   * absent. The slides count in the reservation's period whatever the day.
   */
  day?: string;
}

/** Settled slides of one account on one UTC day, within one period. */
export interface DaySlides {
  day: string;
  slides: number;
}

/** What the service writes in batches (usage-writer.ts). */
export interface UsageWrites {
  settlements: readonly Settlement[];
  apiCalls: readonly ApiCallIncrement[];
}

export interface UsageLedger {
  /** Atomic check-and-reserve: concurrent callers never overshoot `allowance`. */
  reserve(request: ReserveRequest): Promise<ReserveOutcome>;
  /**
   * One transaction: each settlement turns its reservation into used slides (an unknown id is skipped, so
   * settling twice is a no-op), and the API-call increments are added.
   */
  write(batch: UsageWrites): Promise<void>;
  /** Gives a reservation back. Unknown id: no-op, returns false. */
  release(reservationId: string): Promise<boolean>;
  /** Releases synchronous reservations (no job) made before `before`: left behind by a crashed process. */
  releaseStale(before: Date): Promise<number>;
  periodUsage(accountId: string, periodStart: string): Promise<PeriodUsage>;
  /** The period's settled slides per UTC day, days without any left out, oldest first. */
  dailySlides(accountId: string, periodStart: string): Promise<DaySlides[]>;
  /** API calls counted in one period. */
  periodApiCalls(accountId: string, periodStart: string): Promise<ApiCallCounts>;
  /** The account is being deleted: its periods, counts and reservations go. */
  forgetAccount(accountId: string): Promise<void>;
  /** All-time counters of the account. */
  apiCalls(accountId: string): Promise<ApiCallCounts>;
}
