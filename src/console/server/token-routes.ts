/**
 * The console's token page (console contract): `GET /console/api/tokens` lists the account's live tokens (never
 * a token itself), `POST` makes one — the same kind as `POST /v1.0/token/create`, with an optional `name` — shown once, `DELETE …/:id`
 * revokes one, refused at once on every endpoint.
 */
import type { FastifyInstance } from 'fastify';
import type { ConsoleContext } from './console-context.js';
import { requireSession } from './console-session.js';
import { optionalField } from './json-body.js';

const ROUTE = { config: { endpoint: 'console', noStore: true } } as const;

export function registerTokenRoutes(app: FastifyInstance, { service }: ConsoleContext): void {
  app.get('/api/tokens', ROUTE, async (request) => {
    const { account } = requireSession(request);
    return { tokens: await service.listTokens(account) };
  });

  app.post('/api/tokens', ROUTE, async (request, reply) => {
    const { account } = requireSession(request);
    const created = await service.createToken(account, optionalField(request.body, 'name'));
    return reply.code(201).send({ id: created.id, token: created.token, expiresAt: created.expiresAt });
  });

  app.delete<{ Params: { id: string } }>('/api/tokens/:id', ROUTE, async (request, reply) => {
    const { account } = requireSession(request);
    await service.revokeToken(account, request.params.id);
    return reply.code(204).send();
  });
}
