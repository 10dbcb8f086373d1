/** Following the confirmation link: the address is confirmed and the account can sign in and create tokens. */
import { NotFoundError } from '../errors.js';
import { redeemLinkToken } from './one-time-links.js';
import type { ServiceDeps } from '../service-deps.js';

export async function confirmEmail(deps: ServiceDeps, token: string): Promise<{ email: string }> {
  const record = await redeemLinkToken(deps, token, 'confirm-email');
  const account = await deps.accounts.findById(record.accountId);
  if (!account) throw new NotFoundError('the account of this link no longer exists');
  await deps.accounts.confirmEmail(account.id, deps.clock.now().toISOString());
  deps.logger.info({ accountId: account.id }, 'e-mail address confirmed');
  return { email: account.email };
}
