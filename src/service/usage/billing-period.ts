/**
 * The monthly usage period: it starts on the subscription's day of the month (clamped to the month's length,
 * so a subscription on the 31st resets on 30 April and 28/29 February) at the subscription's time of day, UTC.
 */
export interface BillingPeriod {
  start: Date;
  /** Start of the next period: the reset date. */
  next: Date;
  /** Start of the previous period. */
  previous: Date;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The anniversary in month `monthIndex` (may be out of 0..11; normalised) of `anchor`. */
function anniversary(anchor: Date, year: number, monthIndex: number): Date {
  const normalised = new Date(Date.UTC(year, monthIndex, 1));
  const y = normalised.getUTCFullYear();
  const m = normalised.getUTCMonth();
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(anchor.getUTCDate(), lastDay);
  return new Date(
    Date.UTC(
      y,
      m,
      day,
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

export function billingPeriod(subscriptionStart: Date, now: Date): BillingPeriod {
  const year = now.getUTCFullYear();
  let month = now.getUTCMonth();
  let start = anniversary(subscriptionStart, year, month);
  if (start.getTime() > now.getTime()) {
    month -= 1;
    start = anniversary(subscriptionStart, year, month);
  }
  // Before the subscription began there is no earlier period: the first one starts at the subscription.
  if (start.getTime() < subscriptionStart.getTime()) start = new Date(subscriptionStart.getTime());
  return {
    start,
    next: anniversary(subscriptionStart, year, month + 1),
    previous: anniversary(subscriptionStart, year, month - 1),
  };
}

/** The ledger's name for a period: its start date, `YYYY-MM-DD`. */
export function periodKey(start: Date): string {
  return start.toISOString().slice(0, 10);
}

/** "21 December 2026", as the usage response's `resetDate`. */
export function formatResetDate(date: Date): string {
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}
