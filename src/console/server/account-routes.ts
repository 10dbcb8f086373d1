/**
 * The console's account endpoints (console contract): sign-up, address confirmation, password change and reset,
 * the security key. Mail links point at DECKFORGE_PUBLIC_URL, or at this request's origin when its Host is trusted.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { trustedLinkBase } from '../../http/link-base.js';
import type { HttpConfig } from '../../http/http-config.js';
import type { MailOrigin } from '../../service/console-service.js';
import type { ConsoleContext } from './console-context.js';
import { requireSession } from './console-session.js';
import { stringField } from './json-body.js';

const ROUTE = { config: { endpoint: 'console', noStore: true } } as const;

function mailOrigin(request: FastifyRequest, config: HttpConfig): MailOrigin {
  return { requestBase: trustedLinkBase(request, config), clientAddress: request.ip };
}

export function registerAccountRoutes(app: FastifyInstance, { console, config }: ConsoleContext): void {
  app.post('/api/sign-up', ROUTE, async (request, reply) => {
    const email = stringField(request.body, 'email');
    const password = stringField(request.body, 'password');
    await console.signUp({ email, password }, mailOrigin(request, config));
    return reply.code(202).send({
      message: `If ${email.trim()} can receive mail, a message is on its way: follow its link to confirm the address.`,
    });
  });

  app.post('/api/confirm', ROUTE, async (request) => {
    return console.confirmEmail(stringField(request.body, 'token'));
  });

  app.post('/api/password', ROUTE, async (request, reply) => {
    const { session } = requireSession(request);
    await console.changePassword(
      session,
      {
        currentPassword: stringField(request.body, 'currentPassword'),
        newPassword: stringField(request.body, 'newPassword'),
      },
      { clientAddress: request.ip },
    );
    return reply.code(204).send();
  });

  app.post('/api/password-reset', ROUTE, async (request, reply) => {
    const email = stringField(request.body, 'email');
    await console.requestPasswordReset(email, mailOrigin(request, config));
    return reply.code(202).send({
      message: `If ${email.trim()} has an account here, a message with a reset link is on its way.`,
    });
  });

  app.post('/api/password-reset/complete', ROUTE, async (request, reply) => {
    await console.completePasswordReset(
      stringField(request.body, 'token'),
      stringField(request.body, 'newPassword'),
    );
    return reply.code(204).send();
  });

  app.get('/api/security-key', ROUTE, async (request) => {
    return console.securityKey(requireSession(request).session);
  });

  app.post('/api/security-key/rotate', ROUTE, async (request) => {
    return console.rotateSecurityKey(requireSession(request).session);
  });
}
