/**
 * Password reset by mail. Asking always gets the same answer, in the same time, whether the address has an
 * account or not (the caller says 202): the account is looked up, and the link made and mailed, after the answer
 * (after-answer.ts). Only an existing, enabled account gets a mail, with a link that works once within an hour.
 * A mail that cannot be sent is logged, not reported: reporting it would tell which addresses have accounts.
 * Completing sets the password, confirms the address (the link proved it is the owner's) and ends every session;
 * a disabled account's link sets nothing.
 */
import { checkedEmail, checkNewPassword } from './account-fields.js';
import { passwordResetMail } from './account-mails.js';
import type { MailOrigin } from '../console-service.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import { mailLinkBase, throttleMail } from './mail-throttle.js';
import { issueLinkToken, linkFor, redeemLinkToken } from './one-time-links.js';
import type { ServiceDeps } from '../service-deps.js';

export async function requestPasswordReset(
  deps: ServiceDeps,
  rawEmail: string,
  origin: MailOrigin,
): Promise<void> {
  if (!deps.mailer.configured) {
    throw new ForbiddenError(
      'no mail server configured: ask the operator of this server to reset your password',
    );
  }
  const email = checkedEmail(rawEmail);
  const base = mailLinkBase(deps, origin);
  await throttleMail(deps, email, origin);
  deps.afterAnswer.run('password reset mail not sent', async () => {
    const record = await deps.accounts.findByEmail(email);
    if (!record || record.disabledAt !== null) return;
    const token = await issueLinkToken(deps, record.id, 'reset-password');
    await deps.mailer.send(passwordResetMail(record.email, linkFor(base, 'reset-password', token)));
    deps.logger.info({ accountId: record.id }, 'password reset mail sent');
  });
}

export async function completePasswordReset(
  deps: ServiceDeps,
  token: string,
  newPassword: string,
): Promise<void> {
  checkNewPassword(newPassword, 'newPassword');
  const link = await redeemLinkToken(deps, token, 'reset-password');
  const record = await deps.accounts.findById(link.accountId);
  if (!record) throw new NotFoundError('the account of this link no longer exists');
  if (record.disabledAt !== null) throw new ForbiddenError('this account is disabled; ask the operator');
  const now = deps.clock.now().toISOString();
  await deps.accounts.setPasswordHash(record.id, await deps.hasher.hash(newPassword), now);
  await deps.accounts.confirmEmail(record.id, now);
  const ended = await deps.sessions.deleteForAccount(record.id);
  deps.logger.info({ accountId: record.id, endedSessions: ended }, 'password reset');
}
