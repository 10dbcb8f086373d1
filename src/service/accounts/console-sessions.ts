/**
 * The console's sessions: made anonymous on the first visit (so the sign-in and sign-up forms have a CSRF
 * token), replaced by a fresh one at sign-in (an id planted before sign-in is worth nothing after it), ended at
 * sign-out, after IDLE_MS without a request, and ABSOLUTE_MS after they began whatever happens.
 */
import { randomBytes } from 'node:crypto';
import type { ConsoleAccount, ConsoleSession, NewConsoleSession } from '../console-service.js';
import { clientNetwork } from './client-network.js';
import { TooManyRequestsError, UnauthorizedError } from '../errors.js';
import { accountView } from './issue-token.js';
import type { AccountRecord } from '../ports/index.js';
import { sha256Hex } from './secrets.js';
import type { ServiceDeps } from '../service-deps.js';

export const IDLE_MS = 12 * 60 * 60 * 1000;
export const ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** Activity is written at most this often per session (every request would be a write otherwise). */
const TOUCH_EVERY_MS = 60 * 1000;

export function consoleAccount(record: AccountRecord): ConsoleAccount {
  return { ...accountView(record), emailConfirmed: record.emailConfirmedAt !== null };
}

export async function findSession(
  deps: ServiceDeps,
  sessionId: string | undefined,
): Promise<ConsoleSession | null> {
  if (sessionId === undefined || !/^[A-Za-z0-9_-]{43}$/.test(sessionId)) return null;
  const idHash = sha256Hex(sessionId);
  const stored = await deps.sessions.find(idHash);
  if (!stored) return null;
  const now = deps.clock.now().getTime();
  const lastSeen = new Date(stored.lastSeenAt).getTime();
  if (new Date(stored.expiresAt).getTime() <= now || lastSeen + IDLE_MS <= now) {
    await deps.sessions.delete(idHash);
    return null;
  }
  let account: ConsoleAccount | null = null;
  if (stored.accountId !== null) {
    const record = await deps.accounts.findById(stored.accountId);
    // Deleted or disabled since: the session ends with it.
    if (!record || record.disabledAt !== null) {
      await deps.sessions.delete(idHash);
      return null;
    }
    account = consoleAccount(record);
  }
  if (now - lastSeen >= TOUCH_EVERY_MS) await deps.sessions.touch(idHash, new Date(now).toISOString());
  return { idHash, csrfToken: stored.csrfToken, account };
}

/**
 * A new session; `csrfToken` carries the anonymous session's token over to the signed-in one, so a page that
 * read it before signing in keeps working.
 */
export async function createSession(
  deps: ServiceDeps,
  account: AccountRecord | null,
  csrfToken: string = randomBytes(32).toString('base64url'),
): Promise<NewConsoleSession> {
  const sessionId = randomBytes(32).toString('base64url');
  const idHash = sha256Hex(sessionId);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + ABSOLUTE_MS);
  await deps.sessions.create({
    idHash,
    accountId: account?.id ?? null,
    csrfToken,
    createdAt: now.toISOString(),
    lastSeenAt: now.toISOString(),
    expiresAt: expiresAt.toISOString(),
  });
  return {
    sessionId,
    session: { idHash, csrfToken, account: account ? consoleAccount(account) : null },
    maxAgeSeconds: ABSOLUTE_MS / 1000,
  };
}

export const SESSIONS_PER_NETWORK_PER_MINUTE = 60;

export async function openAnonymousSession(
  deps: ServiceDeps,
  origin: { clientAddress: string | null },
): Promise<NewConsoleSession> {
  if (origin.clientAddress !== null) {
    const decision = await deps.rateLimiter.hit(
      `console-session:${clientNetwork(origin.clientAddress)}`,
      SESSIONS_PER_NETWORK_PER_MINUTE,
    );
    if (!decision.allowed) {
      throw new TooManyRequestsError(
        'too many new console sessions from your address; keep the cookie, or try again in a minute',
        decision.retryAfterSeconds,
        'THROTTLED',
      );
    }
  }
  return createSession(deps, null);
}

export async function endSession(deps: ServiceDeps, session: ConsoleSession): Promise<void> {
  await deps.sessions.delete(session.idHash);
}

/** The account a session is signed in to, or 401. */
export function signedInAccount(session: ConsoleSession): ConsoleAccount {
  if (session.account === null) throw new UnauthorizedError('sign in first: this session is not signed in');
  return session.account;
}
