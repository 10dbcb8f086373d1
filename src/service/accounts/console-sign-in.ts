/**
 * Signing in to the console with e-mail and password. The same SignInGuard as `POST /v1.0/token/create`
 * (issue-token.ts) counts the failures, so a guesser cannot spread attempts over the two doors: the console
 * and the API lock one account, and one address, together.
 */
import type { ConsoleSession, NewConsoleSession } from '../console-service.js';
import { createSession, endSession } from './console-sessions.js';
import { assertUsable } from './account-standing.js';
import { InvalidCredentialsError, InvalidInputError } from '../errors.js';
import { DUMMY_HASH } from './issue-token.js';
import type { ServiceDeps } from '../service-deps.js';
import type { SignInGuard } from './sign-in-guard.js';

export async function signIn(
  deps: ServiceDeps,
  guard: SignInGuard,
  current: ConsoleSession | null,
  credentials: { email: string; password: string },
  origin: { clientAddress: string | null },
): Promise<NewConsoleSession> {
  const email = credentials.email.trim().toLowerCase();
  if (email === '') throw new InvalidInputError('email: enter the e-mail address of your account');
  if (credentials.password === '') throw new InvalidInputError('password: enter your password');
  const record = await deps.accounts.findByEmail(email);
  const valid = await guard.check({ email, clientAddress: origin.clientAddress }, async () => {
    const ok = await deps.hasher.verify(credentials.password, record?.passwordHash ?? DUMMY_HASH);
    return record !== null && ok;
  });
  if (!record || !valid) throw new InvalidCredentialsError('the e-mail address or the password is wrong');
  assertUsable(record);
  if (current) await endSession(deps, current);
  const created = await createSession(deps, record, current?.csrfToken);
  deps.logger.info({ accountId: record.id }, 'console sign-in');
  return created;
}
