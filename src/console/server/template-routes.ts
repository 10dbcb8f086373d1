/**
 * The console's templates page (console contract): `GET /console/api/templates` (the latest version of each),
 * `POST /console/api/templates` (multipart `file` and an optional `name`, as `POST /v1.0/templates`: 201, or 200
 * for bytes already stored; `created` says which), `GET /console/api/templates/:id` (its versions and inspect
 * result) and `DELETE /console/api/templates/:id`. The same use cases as docs/http-api.md "Stored templates", for the signed-in
 * account, with the plan's limits and errors. Uploading, reading one (an inspection) and deleting are API calls
 * (api-call-accounting.ts), rate-limited and counted as their `/v1.0` twins; the list is a page read.
 */
import type { FastifyInstance } from 'fastify';
import { readTemplateUpload } from '../../http/forms/request-form.js';
import type { Account } from '../../service/deckforge-service.js';
import type { ConsoleContext } from './console-context.js';
import { requireSession } from './console-session.js';

const PAGE_READ = { config: { endpoint: 'templates', noStore: true } } as const;
const API_CALL = {
  config: { endpoint: 'templates', consoleApiCall: true, rateLimited: true, noStore: true },
} as const;

function accountOf(request: { account: Account | null }): Account {
  // Set by api-call-accounting.ts for every consoleApiCall route; its absence is a programming error.
  if (request.account === null) throw new Error('a console API call without its account');
  return request.account;
}

export function registerTemplateRoutes(app: FastifyInstance, { service, limits }: ConsoleContext): void {
  app.get('/api/templates', PAGE_READ, async (request) => {
    const { account } = requireSession(request);
    return { templates: await service.templates.list(account) };
  });

  app.post('/api/templates', API_CALL, async (request, reply) => {
    const { template, created } = await service.templates.upload(
      accountOf(request),
      await readTemplateUpload(request, limits),
    );
    return reply.code(created ? 201 : 200).send({ ...template, created });
  });

  app.get<{ Params: { id: string } }>('/api/templates/:id', API_CALL, async (request) =>
    service.templates.get(accountOf(request), request.params.id),
  );

  app.delete<{ Params: { id: string } }>('/api/templates/:id', API_CALL, async (request) =>
    service.templates.delete(accountOf(request), request.params.id),
  );
}
