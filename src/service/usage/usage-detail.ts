/**
 * The console's usage page: the `/v1.0/usage` figures plus this period's API calls, the previous period, and
 * slides per UTC day of the current period. Per-day figures count a deck on the UTC day it was generated, in
 * the period its slides were reserved in, so they add up to `usedSlideCount`.
 */
import { billingPeriod, periodKey } from './billing-period.js';
import type { Account, UsageDetail } from '../deckforge-service.js';
import type { ServiceDeps } from '../service-deps.js';
import { usageReport } from './usage-report.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function usageDetail(deps: ServiceDeps, account: Account): Promise<UsageDetail> {
  const report = await usageReport(deps, account); // flushes pending usage first
  const now = deps.clock.now();
  const period = billingPeriod(new Date(account.subscriptionStart), now);
  const current = periodKey(period.start);
  const previous = periodKey(period.previous);
  const [apiCalls, previousCalls, previousUsage, days] = await Promise.all([
    deps.ledger.periodApiCalls(account.id, current),
    deps.ledger.periodApiCalls(account.id, previous),
    deps.ledger.periodUsage(account.id, previous),
    deps.ledger.dailySlides(account.id, current),
  ]);
  const slidesByDay = new Map(days.map((d) => [d.day, d.slides]));
  const perDay: UsageDetail['perDay'] = [];
  const today = periodKey(now);
  for (let t = Date.parse(current); periodKey(new Date(t)) <= today; t += DAY_MS) {
    const date = periodKey(new Date(t));
    perDay.push({ date, slides: slidesByDay.get(date) ?? 0 });
    slidesByDay.delete(date);
  }
  // A day outside that range (a clock set back) still counts: listed rather than lost.
  for (const [date, slides] of slidesByDay) perDay.push({ date, slides });
  perDay.sort((a, b) => a.date.localeCompare(b.date));
  return {
    ...report,
    apiCalls,
    previousPeriod: {
      start: period.previous.toISOString(),
      end: period.start.toISOString(),
      usedSlideCount: previousUsage.usedSlides,
      apiCalls: previousCalls,
    },
    perDay,
  };
}
