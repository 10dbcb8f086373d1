/**
 * `GET /v1.0/usage` (docs/http-api.md "Usage"): the response's `result`, every field from the ledger and the
 * account.
 */
import { planOf } from './account-plans.js';
import { billingPeriod, formatResetDate, periodKey } from './billing-period.js';
import type { Account, UsageReport } from '../deckforge-service.js';
import type { ServiceDeps } from '../service-deps.js';

export async function usageReport(deps: ServiceDeps, account: Account): Promise<UsageReport> {
  await deps.usage.flush(); // settlements and API calls answered before this call are in the figures
  const plan = planOf(deps, account);
  const period = billingPeriod(new Date(account.subscriptionStart), deps.clock.now());
  const [current, previous, calls] = await Promise.all([
    deps.ledger.periodUsage(account.id, periodKey(period.start)),
    deps.ledger.periodUsage(account.id, periodKey(period.previous)),
    deps.ledger.apiCalls(account.id),
  ]);
  return {
    usedSlideCount: current.usedSlides,
    plan: plan.name,
    allowedSlideCount: plan.allowedSlideCount,
    subscriptions: [{ plan: plan.name, startDate: account.subscriptionStart, status: 'active' }],
    resetDate: formatResetDate(period.next),
    totalApiCallCount: calls.total,
    successfulApiCallCount: calls.successful,
    failedApiCallCount: calls.failed,
    previousMonthUsedSlideCount: previous.usedSlides,
    subscriptionStartDate: account.subscriptionStart,
  };
}
