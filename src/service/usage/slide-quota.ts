/** Reserving slides from the monthly allowance before any work is done (a 429 before any work). */
import type { Plan } from '../../config/plans.js';
import { slideCountText } from '../../engine/index.js';
import { planOf } from './account-plans.js';
import { billingPeriod, periodKey } from './billing-period.js';
import type { Account } from '../deckforge-service.js';
import { TooManyRequestsError } from '../errors.js';
import type { ServiceDeps } from '../service-deps.js';

export async function reserveSlides(
  deps: ServiceDeps,
  account: Account,
  slides: number,
  jobId: string | null,
): Promise<string> {
  return reserve(
    deps,
    account,
    slides,
    jobId,
    slides,
    (plan, used) =>
      `monthly slide limit exceeded: plan ${plan.name} allows ${slideCountText(plan.allowedSlideCount)}, ` +
      `${used} used, this request needs ${slides}`,
  );
}

/**
 * Refuses, from the request's headers alone, an account that has no slide left this period: every generation
 * needs one at least, so its upload need not be read (docs/http-api.md "Refusals before the upload is read").
 * Counts reserved slides as reserve() does, so both refuse alike.
 */
export async function checkSlidesLeft(deps: ServiceDeps, account: SlideOwner): Promise<void> {
  const plan = planOf(deps, account);
  const now = deps.clock.now();
  const period = billingPeriod(new Date(account.subscriptionStart), now);
  const usage = await deps.ledger.periodUsage(account.id, periodKey(period.start));
  const used = usage.usedSlides + usage.reservedSlides;
  if (used < plan.allowedSlideCount) return;
  throw new TooManyRequestsError(
    `monthly slide limit exceeded: plan ${plan.name} allows ${slideCountText(plan.allowedSlideCount)}, ${used} used`,
    // As every 429 of the allowance: when it resets.
    secondsUntil(period.next, now),
    'QUOTA_EXCEEDED',
  );
}

function secondsUntil(next: Date, now: Date): number {
  return Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 1000));
}

/**
 * Slides the deck has beyond those the request listed (a long table continued on copies of its slide: known
 * only once it is built), reserved on top of the request's own reservation. Never a jobId: a crash before the
 * settlement is written leaves a reservation the retention sweeper releases (the user is not charged).
 */
export async function reserveContinuationSlides(
  deps: ServiceDeps,
  account: SlideOwner,
  extra: number,
  requested: number,
): Promise<string> {
  return reserve(
    deps,
    account,
    extra,
    null,
    requested + extra,
    (plan, used) =>
      `monthly slide limit exceeded: long tables continued on ${extra} more ${extra === 1 ? 'slide' : 'slides'} than the ${requested} ` +
      `requested, ${requested + extra} in all; plan ${plan.name} allows ${slideCountText(plan.allowedSlideCount)}, ` +
      `${used} are used or reserved (these ${requested} included)`,
  );
}

/** What the allowance is judged by: the account, its plan and its billing period. */
type SlideOwner = Pick<Account, 'id' | 'plan' | 'subscriptionStart'>;

async function reserve(
  deps: ServiceDeps,
  account: SlideOwner,
  slides: number,
  jobId: string | null,
  /** The request's slides in all: when more than the plan allows, retrying later will not help. */
  need: number,
  refusal: (plan: Plan, used: number) => string,
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
    // Retry-After is when the allowance resets, as for every 429; a request no month could take says so too.
    const never = need > plan.allowedSlideCount ? ', more than the plan allows in a whole month' : '';
    throw new TooManyRequestsError(
      `${refusal(plan, outcome.used)}${never}`,
      secondsUntil(period.next, now),
      'QUOTA_EXCEEDED',
    );
  }
  return outcome.reservationId;
}
