/** Whether an account may be used at all, whatever the door (console sign-in, token/create). */
import { ForbiddenError } from '../errors.js';
import type { AccountRecord } from '../ports/index.js';

/**
 * What an account with the right password may still not do (sign in, create tokens): being disabled by an
 * operator, or not having confirmed its address yet. Checked after the password, so it reveals nothing to a
 * guesser.
 */
export function assertUsable(record: AccountRecord): void {
  if (record.disabledAt !== null) {
    throw new ForbiddenError('this account is disabled: ask the operator of this server');
  }
  if (record.emailConfirmedAt === null) {
    throw new ForbiddenError(
      'this e-mail address is not confirmed yet: follow the link in the confirmation e-mail first',
    );
  }
}
