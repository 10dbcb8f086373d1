/** Reserving slides from the monthly allowance before any work is done (issue 3: "a 429 before any work"). */
import { planOf } from './account-plans.js';
import { billingPeriod, periodKey } from './billing-period.js';
import type { Account } from './deckforge-service.js';
import { TooManyRequestsError } from './errors.js';
import type { ServiceDeps } from './service-deps.js';

export async function reserveSlides(
  deps: ServiceDeps,
  account: Account,
  slides: number,
  jobId: string | null,
): Promise<string> {
  const plan = planOf(deps, account);
  const now = deps.clock.now();
  const period = billingPeriod(new Date(account.subscriptionStart), now);
  const outcome = await deps.ledger.reserve({
    accountId: account.id,
    periodStart: periodKey(period.start),
    slides,
    allowance: plan.allowedSlideCount,
    jobId,
  });
  if (!outcome.granted) {
    throw new TooManyRequestsError(
      `monthly slide limit exceeded: plan ${plan.name} allows ${plan.allowedSlideCount} slides, ` +
        `${outcome.used} used, this request needs ${slides}`,
      // Retry-After: when the allowance resets, unless the request could never fit the plan.
      slides > plan.allowedSlideCount
        ? null
        : Math.max(1, Math.ceil((period.next.getTime() - now.getTime()) / 1000)),
    );
  }
  return outcome.reservationId;
}
