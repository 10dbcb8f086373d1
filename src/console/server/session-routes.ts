/** `GET /console/api/session`, `POST /console/api/sign-in`, `POST /console/api/sign-out` (console contract). */
import type { FastifyInstance } from 'fastify';
import type { ConsoleAccount, ConsoleService } from '../../service/console-service.js';
import type { ConsoleContext } from './console-context.js';
import { stringField } from './json-body.js';
import { clearSessionCookie, setSessionCookie } from './session-cookie.js';

const ROUTE = { config: { endpoint: 'console', noStore: true } } as const;

export function accountBody(account: ConsoleAccount): {
  email: string;
  plan: string;
  emailConfirmed: boolean;
} {
  return { email: account.email, plan: account.plan, emailConfirmed: account.emailConfirmed };
}

function sessionBody(console: ConsoleService, csrfToken: string, account: ConsoleAccount | null) {
  return {
    signedIn: account !== null,
    csrfToken,
    signup: console.signupStatus(),
    mailConfigured: console.mailConfigured,
    ...(account ? { account: accountBody(account) } : {}),
  };
}

export function registerSessionRoutes(app: FastifyInstance, { console, config }: ConsoleContext): void {
  app.get('/api/session', ROUTE, async (request, reply) => {
    const current = request.consoleSession;
    if (current) return sessionBody(console, current.csrfToken, current.account);
    // First visit (or an ended session): an anonymous one, whose token protects the sign-in and sign-up forms.
    const created = await console.openSession({ clientAddress: request.ip });
    setSessionCookie(request, reply, config, created.sessionId, created.maxAgeSeconds);
    return sessionBody(console, created.session.csrfToken, null);
  });

  app.post('/api/sign-in', ROUTE, async (request, reply) => {
    const email = stringField(request.body, 'email');
    const password = stringField(request.body, 'password');
    const created = await console.signIn(
      request.consoleSession,
      { email, password },
      { clientAddress: request.ip },
    );
    const account = created.session.account;
    setSessionCookie(request, reply, config, created.sessionId, created.maxAgeSeconds);
    return { account: account ? accountBody(account) : null, csrfToken: created.session.csrfToken };
  });

  app.post('/api/sign-out', ROUTE, async (request, reply) => {
    // The CSRF check has made sure there is a session; signed in or not, it ends here.
    if (request.consoleSession) await console.signOut(request.consoleSession);
    clearSessionCookie(request, reply, config);
    return reply.code(204).send();
  });
}
