/** Builds the ConsoleService from the same deps, and the same SignInGuard, as the API's use cases. */
import type { ConsoleService } from './console-service.js';
import { endSession, findSession, openAnonymousSession } from './accounts/console-sessions.js';
import { signIn } from './accounts/console-sign-in.js';
import { changePassword } from './accounts/change-password.js';
import { confirmEmail } from './accounts/confirm-email.js';
import { completePasswordReset, requestPasswordReset } from './accounts/password-reset.js';
import { rotateSecurityKey, securityKeyInfo } from './accounts/security-key.js';
import { signUp, signupStatus } from './accounts/sign-up.js';
import type { ServiceDeps } from './service-deps.js';
import type { SignInGuard } from './accounts/sign-in-guard.js';

export function createConsoleService(deps: ServiceDeps, guard: SignInGuard): ConsoleService {
  return {
    mailConfigured: deps.mailer.configured,
    signupStatus: () => signupStatus(deps),
    session: (sessionId) => findSession(deps, sessionId),
    openSession: (origin) => openAnonymousSession(deps, origin),
    signIn: (current, credentials, origin) => signIn(deps, guard, current, credentials, origin),
    signOut: (session) => endSession(deps, session),
    signUp: (input, origin) => signUp(deps, input, origin),
    confirmEmail: (token) => confirmEmail(deps, token),
    changePassword: (session, input, origin) => changePassword(deps, guard, session, input, origin),
    requestPasswordReset: (email, origin) => requestPasswordReset(deps, email, origin),
    completePasswordReset: (token, newPassword) => completePasswordReset(deps, token, newPassword),
    securityKey: (session) => securityKeyInfo(deps, session),
    rotateSecurityKey: (session) => rotateSecurityKey(deps, session),
  };
}
