/**
 * Sign-up from the console, when the operator opened it and a mail server is configured. The account is made on
 * the default plan with a new security key, which only the confirmation mail carries, and it is unusable until
 * the link in that mail is followed. An address that has an account already gets the same answer and a mail
 * saying so (or, not yet confirmed, a fresh confirmation with a new key), so sign-up tells nobody which
 * addresses have accounts. The answer comes once the input is checked; the hashing, the account and the mail
 * follow it (after-answer.ts), so the time taken does not tell either. A confirmation that cannot be mailed
 * removes its account again (nobody could confirm it), and the address can sign up again.
 */
import { randomUUID } from 'node:crypto';
import { checkedEmail, checkNewPassword } from './account-fields.js';
import { alreadyRegisteredMail, confirmationMail } from './account-mails.js';
import type { MailOrigin, SignupStatus } from '../console-service.js';
import { ForbiddenError } from '../errors.js';
import { mailLinkBase, throttleMail } from './mail-throttle.js';
import { issueLinkToken, linkFor } from './one-time-links.js';
import { AccountExistsError, type AccountRecord } from '../ports/index.js';
import { newSecurityKey, sha256Hex } from './secrets.js';
import type { ServiceDeps } from '../service-deps.js';

export async function signUp(
  deps: ServiceDeps,
  input: { email: string; password: string },
  origin: MailOrigin,
): Promise<void> {
  const status = signupStatus(deps);
  if (!status.open) throw new ForbiddenError(status.reason ?? 'sign-up is closed on this server');
  const email = checkedEmail(input.email);
  checkNewPassword(input.password);
  const base = mailLinkBase(deps, origin);
  await throttleMail(deps, email, origin);
  deps.afterAnswer.run('console sign-up failed', () => createAccount(deps, email, input.password, base));
}

async function createAccount(
  deps: ServiceDeps,
  email: string,
  password: string,
  base: string,
): Promise<void> {
  const existing = await deps.accounts.findByEmail(email);
  if (existing) return mailExisting(deps, existing, base);
  const passwordHash = await deps.hasher.hash(password);

  const key = newSecurityKey();
  const now = deps.clock.now().toISOString();
  const record: AccountRecord = {
    id: randomUUID(),
    email,
    passwordHash,
    keyHash: sha256Hex(key),
    plan: deps.settings.plans.defaultPlan,
    subscriptionStart: now,
    createdAt: now,
    emailConfirmedAt: null,
    disabledAt: null,
    passwordChangedAt: null,
    keyCreatedAt: now,
  };
  try {
    await deps.accounts.create(record);
  } catch (error) {
    // Signed up twice at once: the other request made it, and this one is told as any taken address is.
    if (!(error instanceof AccountExistsError)) throw error;
    const winner = await deps.accounts.findByEmail(email);
    if (winner) return mailExisting(deps, winner, base);
    throw error;
  }
  const token = await issueLinkToken(deps, record.id, 'confirm-email');
  try {
    await deps.mailer.send(confirmationMail(email, linkFor(base, 'confirm-email', token), key));
  } catch (error) {
    // Nobody could ever confirm it: the account goes, and the address can sign up again.
    await deps.oneTimeTokens.forgetAccount(record.id);
    await deps.accounts.delete(record.id);
    throw error;
  }
  deps.logger.info({ accountId: record.id }, 'console sign-up: confirmation mail sent');
}

async function mailExisting(deps: ServiceDeps, record: AccountRecord, base: string): Promise<void> {
  if (record.emailConfirmedAt === null && record.disabledAt === null) {
    // Still unconfirmed (the first mail lost?): a new link and a new key; the account has no tokens to lose.
    const key = newSecurityKey();
    const token = await issueLinkToken(deps, record.id, 'confirm-email');
    await deps.mailer.send(confirmationMail(record.email, linkFor(base, 'confirm-email', token), key));
    await deps.accounts.setKeyHash(record.id, sha256Hex(key), deps.clock.now().toISOString());
  } else {
    await deps.mailer.send(
      alreadyRegisteredMail(record.email, `${base}/console/sign-in`, `${base}/console/reset`),
    );
  }
  deps.logger.info({ accountId: record.id }, 'console sign-up for an existing account: mail sent');
}

/** Open only when the operator opened it and mail can be sent (the account is usable only through a mail). */
export function signupStatus(deps: ServiceDeps): SignupStatus {
  if (deps.settings.console.signup !== 'open')
    return { open: false, reason: 'sign-up is closed on this server' };
  if (!deps.mailer.configured) return { open: false, reason: 'no mail server configured' };
  return { open: true };
}
