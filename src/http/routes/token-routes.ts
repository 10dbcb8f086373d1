/** `POST /v1.0/token/create` (docs/http-api.md "Authentication"). Errors: error-mapper.ts, token shape. */
import type { FastifyInstance } from 'fastify';
import { readCredentials } from '../forms/request-form.js';
import type { RouteContext } from '../route-context.js';

export function registerTokenRoutes(app: FastifyInstance, { service, limits }: RouteContext): void {
  app.post('/v1.0/token/create', { config: { endpoint: 'token', noStore: true } }, async (request) => {
    // request.ip: the connection's address, or the client's as trusted proxies report it (DECKFORGE_TRUST_PROXY).
    const issued = await service.issueToken(await readCredentials(request, limits), {
      clientAddress: request.ip,
    });
    return {
      isSuccess: true,
      Message: null,
      Result: {
        Access_Token: issued.accessToken,
        Username: issued.username,
        hasSubscription: issued.hasSubscription,
      },
    };
  });
}
