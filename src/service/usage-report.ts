/** Endpoint 6: the usage response's `result`, every field from the ledger and the account. */
import { accountRecord, planOf } from './account-plans.js';
import { billingPeriod, formatResetDate, periodKey } from './billing-period.js';
import type { Account, UsageReport } from './deckforge-service.js';
import type { ServiceDeps } from './service-deps.js';

export async function usageReport(deps: ServiceDeps, account: Account): Promise<UsageReport> {
  const record = await accountRecord(deps, account.id);
  const plan = planOf(deps, record);
  const period = billingPeriod(new Date(record.subscriptionStart), deps.clock.now());
  const [current, previous, calls] = await Promise.all([
    deps.ledger.periodUsage(record.id, periodKey(period.start)),
    deps.ledger.periodUsage(record.id, periodKey(period.previous)),
    deps.ledger.apiCalls(record.id),
  ]);
  return {
    usedSlideCount: current.usedSlides,
    plan: plan.name,
    allowedSlideCount: plan.allowedSlideCount,
    subscriptions: [{ plan: plan.name, startDate: record.subscriptionStart, status: 'active' }],
    resetDate: formatResetDate(period.next),
    totalApiCallCount: calls.total,
    successfulApiCallCount: calls.successful,
    failedApiCallCount: calls.failed,
    previousMonthUsedSlideCount: previous.usedSlides,
    subscriptionStartDate: record.subscriptionStart,
  };
}
