/**
 * The security key: replaced (by `deckforge accounts rotate-key` or from the console) with every token of the
 * account revoked, in one place so both doors do exactly the same. From the console the new key is mailed, or,
 * without a mail server, shown once in the answer.
 */
import { newKeyMail } from './account-mails.js';
import type { ConsoleSession, RotatedKey } from '../console-service.js';
import { signedInAccount } from './console-sessions.js';
import { ServiceUnavailableError, UnauthorizedError } from '../errors.js';
import { MailDeliveryError, type AccountStore, type Clock, type TokenStore } from '../ports/index.js';
import { newSecurityKey, sha256Hex } from './secrets.js';
import type { ServiceDeps } from '../service-deps.js';

/** Stores `key` as the account's key and revokes its tokens; returns how many were revoked. */
export async function replaceSecurityKey(
  deps: { accounts: AccountStore; tokens: TokenStore; clock: Clock },
  accountId: string,
  key: string,
): Promise<number> {
  await deps.accounts.setKeyHash(accountId, sha256Hex(key), deps.clock.now().toISOString());
  return deps.tokens.revokeAll(accountId);
}

export async function securityKeyInfo(
  deps: ServiceDeps,
  session: ConsoleSession,
): Promise<{ exists: true; createdAt: string | null }> {
  const record = await deps.accounts.findById(signedInAccount(session).id);
  if (!record) throw new UnauthorizedError('sign in first: this account no longer exists');
  return { exists: true, createdAt: record.keyCreatedAt };
}

export async function rotateSecurityKey(deps: ServiceDeps, session: ConsoleSession): Promise<RotatedKey> {
  const account = signedInAccount(session);
  const key = newSecurityKey();
  if (deps.mailer.configured) {
    // Mailed first: if the mail cannot go, the old key stays and nothing is lost.
    try {
      await deps.mailer.send(newKeyMail(account.email, key));
    } catch (error) {
      if (!(error instanceof MailDeliveryError)) throw error;
      deps.logger.error({ err: error }, 'new key mail not sent');
      throw new ServiceUnavailableError('the mail server could not be reached; the key was not changed');
    }
  }
  const revoked = await replaceSecurityKey(deps, account.id, key);
  deps.logger.info(
    { accountId: account.id, revokedTokens: revoked },
    'security key rotated from the console',
  );
  return deps.mailer.configured ? { emailed: true } : { emailed: false, securityKey: key };
}
