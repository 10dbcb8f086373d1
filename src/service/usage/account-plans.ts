import { findPlan, type Plan } from '../../config/plans.js';
import { billingPeriod, periodKey } from './billing-period.js';
import type { AccountRecord } from '../ports/index.js';
import type { ServiceDeps } from '../service-deps.js';

/** The account's plan; an account whose plan was removed from the configuration falls back to the default. */
export function planOf(deps: ServiceDeps, record: Pick<AccountRecord, 'plan'>): Plan {
  const catalog = deps.settings.plans;
  const plan = findPlan(catalog, record.plan) ?? findPlan(catalog, catalog.defaultPlan);
  if (!plan) throw new Error(`no plan "${record.plan}" and no default plan configured`);
  return plan;
}

export function currentPeriodKey(
  deps: ServiceDeps,
  record: Pick<AccountRecord, 'subscriptionStart'>,
): string {
  return periodKey(billingPeriod(new Date(record.subscriptionStart), deps.clock.now()).start);
}
