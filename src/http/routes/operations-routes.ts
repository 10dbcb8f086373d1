/** `/healthz`, `/metrics`, `/openapi.json` and `/docs`: unauthenticated operational endpoints. */
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { renderDocsPage } from '../docs-page.js';
import { buildOpenApiDocument } from '../openapi-document.js';
import type { RouteContext } from './route-context.js';

// Same relative position from src/http/routes and dist/http/routes.
const packageVersion = (createRequire(import.meta.url)('../../../package.json') as { version: string })
  .version;

export function registerOperationsRoutes(app: FastifyInstance, { service, metrics }: RouteContext): void {
  const document = buildOpenApiDocument(packageVersion);
  const docsPage = renderDocsPage(document);
  const config = { endpoint: 'operations' as const };

  app.get('/healthz', { config }, async (_request, reply) => {
    const health = await service.health();
    return reply
      .code(health.ok ? 200 : 503)
      .send({ status: health.ok ? 'ok' : 'unavailable', checks: health.checks });
  });

  app.get('/metrics', { config }, async (_request, reply) => {
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(body);
  });

  app.get('/openapi.json', { config }, async () => document);

  app.get('/docs', { config }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(docsPage),
  );
}
