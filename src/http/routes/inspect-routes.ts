/**
 * `POST /v1.0/template/inspect` (beyond the interface; docs/http-api.md "Inspecting a template"): what
 * `deckforge inspect --json` prints, so users can find shape names without PowerPoint's selection pane.
 */
import type { FastifyInstance } from 'fastify';
import { readInspectSource } from '../forms/request-form.js';
import { accountOf } from '../bearer-auth.js';
import type { RouteContext } from '../route-context.js';

export function registerInspectRoutes(app: FastifyInstance, { service, limits }: RouteContext): void {
  app.post(
    '/v1.0/template/inspect',
    { config: { endpoint: 'inspect', bearer: true, rateLimited: true } },
    async (request) => service.inspectTemplate(accountOf(request), await readInspectSource(request, limits)),
  );
}
