import { findPlan, type Plan } from '../config/plans.js';
import { billingPeriod, periodKey } from './billing-period.js';
import { UnauthorizedError } from './errors.js';
import type { AccountRecord } from './ports/index.js';
import type { ServiceDeps } from './service-deps.js';

/** The account's plan; an account whose plan was removed from the configuration falls back to the default. */
export function planOf(deps: ServiceDeps, record: AccountRecord): Plan {
  const catalog = deps.settings.plans;
  const plan = findPlan(catalog, record.plan) ?? findPlan(catalog, catalog.defaultPlan);
  if (!plan) throw new Error(`no plan "${record.plan}" and no default plan configured`);
  return plan;
}

export async function accountRecord(deps: ServiceDeps, accountId: string): Promise<AccountRecord> {
  const record = await deps.accounts.findById(accountId);
  // The account was deleted while its token lived on.
  if (!record) throw new UnauthorizedError('the bearer token belongs to an account that no longer exists');
  return record;
}

export function currentPeriodKey(deps: ServiceDeps, record: AccountRecord): string {
  return periodKey(billingPeriod(new Date(record.subscriptionStart), deps.clock.now()).start);
}
