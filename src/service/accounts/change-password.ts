/**
 * Changing the password from a signed-in console session: the current password is required (checked through the
 * sign-in guard, so a borrowed session cannot be used to guess it), and every other session of the account ends.
 */
import { checkNewPassword } from './account-fields.js';
import type { ConsoleSession } from '../console-service.js';
import { signedInAccount } from './console-sessions.js';
import { InvalidInputError, UnauthorizedError } from '../errors.js';
import type { ServiceDeps } from '../service-deps.js';
import type { SignInGuard } from './sign-in-guard.js';

export async function changePassword(
  deps: ServiceDeps,
  guard: SignInGuard,
  session: ConsoleSession,
  input: { currentPassword: string; newPassword: string },
  origin: { clientAddress: string | null },
): Promise<void> {
  const account = signedInAccount(session);
  checkNewPassword(input.newPassword, 'newPassword');
  const record = await deps.accounts.findById(account.id);
  if (!record) throw new UnauthorizedError('sign in first: this account no longer exists');
  const valid = await guard.check({ email: record.email, clientAddress: origin.clientAddress }, () =>
    deps.hasher.verify(input.currentPassword, record.passwordHash),
  );
  if (!valid) throw new InvalidInputError('currentPassword: this is not the current password');
  const now = deps.clock.now().toISOString();
  await deps.accounts.setPasswordHash(record.id, await deps.hasher.hash(input.newPassword), now);
  const ended = await deps.sessions.deleteForAccount(record.id, session.idHash);
  deps.logger.info({ accountId: record.id, endedSessions: ended }, 'password changed');
}
