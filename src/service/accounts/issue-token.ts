/** `POST /v1.0/token/create` and bearer authentication, both verified against the stores (any node can verify). */
import { timingSafeEqual } from 'node:crypto';
import { assertUsable } from './account-standing.js';
import type { Account, IssuedToken } from '../deckforge-service.js';
import { InvalidCredentialsError, MissingCredentialsError, UnauthorizedError } from '../errors.js';
import type { AccountRecord } from '../ports/index.js';
import { newAccessToken, newTokenId, sha256Hex, statedTokenExpiry } from './secrets.js';
import { TOKEN_VALIDITY_MS, type ServiceDeps } from '../service-deps.js';
import type { SignInGuard } from './sign-in-guard.js';

const EXPIRED_MESSAGE = 'Bearer token has expired: request a new one from /v1.0/token/create.';

/** Checked when the e-mail is unknown, so both failures take the same time (no account enumeration). */
export const DUMMY_HASH =
  'scrypt$32768$8$3$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export function accountView(record: AccountRecord): Account {
  return {
    id: record.id,
    email: record.email,
    plan: record.plan,
    subscriptionStart: record.subscriptionStart,
    hasSubscription: true,
  };
}

export async function issueToken(
  deps: ServiceDeps,
  guard: SignInGuard,
  credentials: { username?: string; password?: string; key?: string },
  origin: { clientAddress?: string } = {},
): Promise<IssuedToken> {
  const username = credentials.username?.trim() ?? '';
  const password = credentials.password ?? '';
  const key = credentials.key?.trim() ?? '';
  const missing = [
    ...(username === '' ? ['username'] : []),
    ...(password === '' ? ['password'] : []),
    ...(key === '' ? ['key'] : []),
  ];
  if (missing.length > 0) {
    throw new MissingCredentialsError(`Required form fields are missing: ${missing.join(', ')}.`);
  }
  const record = await deps.accounts.findByEmail(username);
  const attempt = { email: username, clientAddress: origin.clientAddress ?? null };
  const valid = await guard.check(attempt, async () => {
    const passwordOk = await deps.hasher.verify(password, record?.passwordHash ?? DUMMY_HASH);
    return record !== null && passwordOk && constantTimeEqual(sha256Hex(key), record.keyHash);
  });
  if (!record || !valid) {
    throw new InvalidCredentialsError('The e-mail/password/key combination is invalid.');
  }
  assertUsable(record);
  const { token } = await mintToken(deps, record.id);
  deps.logger.info({ accountId: record.id }, 'token issued');
  return { accessToken: token, username: record.email, hasSubscription: true };
}

/** A new token of the account, the same kind whether asked for by `token/create` or in the console. */
export async function mintToken(
  deps: ServiceDeps,
  accountId: string,
  name: string | null = null,
): Promise<{ id: string; token: string; expiresAt: Date }> {
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + TOKEN_VALIDITY_MS);
  const token = newAccessToken(expiresAt);
  const id = newTokenId();
  await deps.tokens.save({
    id,
    name,
    tokenHash: sha256Hex(token),
    accountId,
    issuedAt: now.toISOString(),
    expiresAt: expiresAt.toISOString(),
    lastUsedAt: null,
  });
  return { id, token, expiresAt };
}

/** Last use is written at most this often per token, so a busy token is not one write per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export async function authenticate(deps: ServiceDeps, token: string | undefined): Promise<Account> {
  const value = token?.trim() ?? '';
  if (value === '')
    throw new UnauthorizedError('Bearer token is missing: send Authorization: Bearer <ACCESS_TOKEN>.');
  const stored = await deps.tokens.find(sha256Hex(value));
  const now = deps.clock.now().getTime();
  // The sweeper deletes a token a day after it expires; the expiry the token states still says what happened.
  const expiry = stored ? new Date(stored.expiresAt) : statedTokenExpiry(value);
  if (expiry && expiry.getTime() <= now) throw new UnauthorizedError(EXPIRED_MESSAGE);
  if (!stored) throw new UnauthorizedError('Bearer token is invalid or has been revoked.');
  const record = await deps.accounts.findById(stored.accountId);
  if (!record) throw new UnauthorizedError('Bearer token is invalid: its account no longer exists.');
  if (record.disabledAt !== null)
    throw new UnauthorizedError('Bearer token refused: its account is disabled.');
  const stale = now - LAST_USED_RESOLUTION_MS;
  if (stored.lastUsedAt === null || Date.parse(stored.lastUsedAt) < stale) {
    await deps.tokens.touch(stored.tokenHash, new Date(now), new Date(stale));
  }
  return accountView(record);
}

function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
