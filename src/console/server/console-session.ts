/**
 * The session of every `/console/api/*` request, resolved from its cookie before the route runs (two session
 * cookies are a 400, session-cookie.ts), and the CSRF check: a request that is not GET or HEAD must carry
 * `X-CSRF-Token` equal to its session's token, or it is refused with 403 before its body is read. Routes call
 * `requireSession(request)` for the signed-in account (401 otherwise) and query by its id only.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConsoleAccount, ConsoleService, ConsoleSession } from '../../service/console-service.js';
import { ForbiddenError, UnauthorizedError } from '../../service/errors.js';
import { sessionCookie, type CookieSecurity } from './session-cookie.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The console session of this request's cookie (null: none, or it ended); set for /console/api/* only. */
    consoleSession: ConsoleSession | null;
  }
}

export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function registerConsoleSessions(
  app: FastifyInstance,
  console: ConsoleService,
  cookies: CookieSecurity,
): void {
  app.decorateRequest('consoleSession', null);
  app.addHook('onRequest', async (request) => {
    // Pages and assets need no session (they read it through the API): no database read for each of them.
    if (!request.url.startsWith('/console/api/')) return;
    request.consoleSession = await console.session(sessionCookie(request, cookies));
    if (SAFE_METHODS.has(request.method)) return;
    const session = request.consoleSession;
    if (session === null) {
      throw new ForbiddenError(
        'no console session: load the console (GET /console/api/session) and send its csrfToken as X-CSRF-Token',
      );
    }
    const sent = request.headers[CSRF_HEADER];
    if (typeof sent !== 'string' || !sameText(sent, session.csrfToken)) {
      throw new ForbiddenError('the X-CSRF-Token header is missing or does not match this session');
    }
  });
}

export interface SignedIn {
  accountId: string;
  /** The account as of this request (plan, e-mail); pass it to the DeckforgeService use cases. */
  account: ConsoleAccount;
  session: ConsoleSession;
}

/** The signed-in account of a console request, or UnauthorizedError (401). */
export function requireSession(request: FastifyRequest): SignedIn {
  const session = request.consoleSession;
  if (session === null || session.account === null) {
    throw new UnauthorizedError('sign in first: this console session is not signed in');
  }
  return { accountId: session.account.id, account: session.account, session };
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
