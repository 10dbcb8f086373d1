/** Builds the ConsoleService from the same deps, and the same SignInGuard, as the API's use cases. */
import type { ConsoleService, SignupStatus } from './console-service.js';
import { createSession, endSession, findSession } from './console-sessions.js';
import { signIn } from './console-sign-in.js';
import type { ServiceDeps } from './service-deps.js';
import type { SignInGuard } from './sign-in-guard.js';

export function createConsoleService(deps: ServiceDeps, guard: SignInGuard): ConsoleService {
  const notYet = (): never => {
    throw new Error('not built yet');
  };
  return {
    mailConfigured: deps.mailer.configured,
    signupStatus: () => signupStatus(deps),
    session: (sessionId) => findSession(deps, sessionId),
    openSession: () => createSession(deps, null),
    signIn: (current, credentials, origin) => signIn(deps, guard, current, credentials, origin),
    signOut: (session) => endSession(deps, session),
    signUp: async () => notYet(),
    confirmEmail: async () => notYet(),
    changePassword: async () => notYet(),
    requestPasswordReset: async () => notYet(),
    completePasswordReset: async () => notYet(),
    securityKey: async () => notYet(),
    rotateSecurityKey: async () => notYet(),
  };
}

export function signupStatus(deps: ServiceDeps): SignupStatus {
  if (deps.settings.console.signup !== 'open')
    return { open: false, reason: 'sign-up is closed on this server' };
  if (!deps.mailer.configured) return { open: false, reason: 'no mail server configured' };
  return { open: true };
}
