/** The plan's request rate, checked before a call's work, and the API call counts that usage reports. */
import type { Account } from '../deckforge-service.js';
import { TooManyRequestsError } from '../errors.js';
import type { ServiceDeps } from '../service-deps.js';
import { currentPeriodKey, planOf } from './account-plans.js';

export async function checkRateLimit(deps: ServiceDeps, account: Account): Promise<void> {
  const plan = planOf(deps, account);
  const decision = await deps.rateLimiter.hit(account.id, plan.requestsPerMinute);
  if (!decision.allowed) {
    throw new TooManyRequestsError(
      `request rate limit exceeded: plan ${plan.name} allows ${plan.requestsPerMinute} requests per minute`,
      decision.retryAfterSeconds,
      'RATE_LIMITED',
    );
  }
}

export function recordApiCall(deps: ServiceDeps, account: Account, succeeded: boolean): void {
  deps.usage.countApiCall(account.id, currentPeriodKey(deps, account), succeeded);
}
