/**
 * `/healthz`, `/metrics`, `/openapi.json`, `/docs`, the favicon and `/` (which sends a browser to the console):
 * unauthenticated operational endpoints.
 */
import { timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NotFoundError, UnauthorizedError } from '../../service/errors.js';
import { bearerToken } from '../bearer-auth.js';
import { loadGuides } from '../docs-site/docs-guides.js';
import { llmsText } from '../docs-site/llms-txt.js';
import { FAVICON_PATH, FAVICON_SVG } from '../docs-site/favicon.js';
import { renderDocsPage } from '../docs-site/docs-page.js';
import { buildOpenApiDocument } from '../openapi/openapi-document.js';
import type { RouteContext } from '../route-context.js';

// Same relative position from src/http/routes and dist/http/routes.
const packageVersion = (createRequire(import.meta.url)('../../../package.json') as { version: string })
  .version;

/** DECKFORGE_METRICS_TOKEN, when set, must come as `Authorization: Bearer <token>` (compared in constant time). */
function checkMetricsToken(request: FastifyRequest, expected: string | null): void {
  if (expected === null) return;
  const given = Buffer.from(bearerToken(request) ?? '', 'utf8');
  const wanted = Buffer.from(expected, 'utf8');
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
    throw new UnauthorizedError(
      '/metrics wants the metrics token: send Authorization: Bearer <DECKFORGE_METRICS_TOKEN>.',
    );
  }
}

export function registerOperationsRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const { service, metrics, config: settings } = ctx;
  const document = buildOpenApiDocument(packageVersion);
  const guides = loadGuides();
  const docsPage = renderDocsPage(document, guides);
  const guideByName = new Map(guides.map((g) => [g.name, g]));
  const config = { endpoint: 'operations' as const };

  // Whoever opens the server's address in a browser lands in the console, which links to /docs.
  app.get('/', { config }, async (_request, reply) => reply.redirect('/console', 302));

  for (const path of [FAVICON_PATH, '/favicon.ico']) {
    app.get(path, { config }, async (_request, reply) =>
      reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(FAVICON_SVG),
    );
  }

  app.get('/healthz', { config }, async (_request, reply) => {
    const health = await service.health();
    return reply.code(health.status === 'ok' ? 200 : 503).send(health);
  });

  app.get('/metrics', { config }, async (request, reply) => {
    checkMetricsToken(request, settings.metricsToken);
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(body);
  });

  app.get('/openapi.json', { config }, async () => document);

  app.get('/docs', { config }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(docsPage),
  );

  app.get<{ Params: { name: string } }>('/docs/:name', { config }, async (request, reply) => {
    // `/docs/<page>.md`: the page's Markdown, as agents read documentation (llms-txt.ts).
    const markdown = request.params.name.endsWith('.md');
    const name = markdown ? request.params.name.slice(0, -3) : request.params.name;
    const guide = guideByName.get(name);
    if (!guide) throw new NotFoundError(`no guide named "${name}"`);
    if (markdown) return reply.type('text/markdown; charset=utf-8').send(guide.markdown);
    return reply.type('text/html; charset=utf-8').send(guide.html);
  });

  const llms = llmsText(guides);
  app.get('/llms.txt', { config }, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').send(llms),
  );
}
