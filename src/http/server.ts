/**
 * The HTTP server: Fastify wired to the service facade, with the API's routes, its hooks and the one error
 * handler. Fastify is known here and in the console's server side, which this server mounts beside the API
 * without knowing it (`options.mount`; src/composition/create-web-server.ts passes the console).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { DeckforgeService } from '../service/deckforge-service.js';
import { NotFoundError, ServiceUnavailableError } from '../service/errors.js';
import { registerBearerAuth } from './bearer-auth.js';
import { registerBodyParsers } from './forms/body-parsers.js';
import { clientGone, markServerFault, registerDisconnectAccounting } from './client-disconnect.js';
import {
  DISCARD_MS,
  discardUnreadBody,
  registerExpectContinue,
  type DiscardBounds,
} from './early-refusals.js';
import { mapError, type ErrorMapperLimits } from './errors/error-mapper.js';
import type { HttpConfig } from './http-config.js';
import { createHttpMetrics } from './metrics.js';
import { loggerOptions, OneLinePerRequest, requestIdFor } from './request-logging.js';
import { registerGeneratorRoutes } from './routes/generator-routes.js';
import { registerInspectRoutes } from './routes/inspect-routes.js';
import { registerJobRoutes } from './routes/job-routes.js';
import { registerMcpRoutes } from './routes/mcp-routes.js';
import { registerOperationsRoutes } from './routes/operations-routes.js';
import { registerRenderRoutes } from './routes/render-routes.js';
import type { RouteContext } from './route-context.js';
import { registerTemplateRoutes } from './routes/template-routes.js';
import { registerTokenRoutes } from './routes/token-routes.js';
import { registerUsageRoutes } from './routes/usage-routes.js';
import { registerSecurityHeaders } from './security-headers.js';
import { onClientError, onFrameworkError } from './errors/transport-errors.js';

export interface HttpServer {
  /** Binds `config.host:config.port`; resolves to the base URL (`http://127.0.0.1:41234`). */
  listen(): Promise<string>;
  close(): Promise<void>;
  /** Drops every open connection, also those mid-request (a bounded shutdown's last resort). */
  closeConnections(): void;
  app: FastifyInstance;
}

export interface HttpServerOptions {
  /** Where log lines go (tests read them to prove secrets stay out); stdout by default. */
  logStream?: DestinationStream;
  /** Registers more routes after the API's, with the same context; their errors go through this server's handler. */
  mount?: (app: FastifyInstance, context: RouteContext) => Promise<void>;
}

export async function createHttpServer(
  service: DeckforgeService,
  config: HttpConfig,
  options: HttpServerOptions = {},
): Promise<HttpServer> {
  const limits: ErrorMapperLimits = {
    maxUploadBytes: config.limits.maxUploadBytes,
    maxFilesPerRequest: config.limits.maxFilesPerRequest,
  };
  const app: FastifyInstance = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream),
    genReqId: requestIdFor,
    logController: new OneLinePerRequest(),
    bodyLimit: limits.maxUploadBytes,
    // Sync generation of a large deck may take minutes; the interface recommends async for those.
    requestTimeout: 0,
    trustProxy: proxyTrust(config.trustProxy),
    // Fastify would answer requests arriving during close() with a body of its own; the hook below does.
    return503OnClosing: false,
    frameworkErrors: onFrameworkError,
    clientErrorHandler: (error, socket) => onClientError(error, socket, app.log),
  });
  const metrics = createHttpMetrics(service);
  const context: RouteContext = { service, config, limits, metrics };

  await registerSecurityHeaders(app);
  await registerBodyParsers(app, limits);

  let closing = false;
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (closing) throw new ServiceUnavailableError('The server is shutting down; retry in a few seconds.');
  });
  // An answer finished while closing ends its connection: close() need not wait for keep-alive to time out.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: reply.statusCode },
      reply.elapsedTime / 1000,
    );
  });
  registerDisconnectAccounting(app, metrics);
  registerBearerAuth(app, service);
  // After authentication and the allowance check: a request they refuse never gets 100 Continue.
  registerExpectContinue(app);
  const discardBounds: DiscardBounds = { maxBytes: limits.maxUploadBytes, maxMs: DISCARD_MS };

  app.setErrorHandler(async (error, request, reply) => {
    if (clientGone(request, reply) || reply.raw.headersSent) {
      // No answer can be sent: the client left (logged and counted once where the response closes), or a
      // stream already started, whose body cannot be replaced by an error body.
      if (!clientGone(request, reply)) {
        markServerFault(reply);
        request.log.error({ err: error }, 'request failed after its answer had started');
      }
      reply.hijack();
      reply.raw.destroy();
      return reply;
    }
    const mapped = mapError(error, request.routeOptions.config.endpoint ?? 'operations', limits);
    if (mapped.serverFault) request.log.error({ err: error }, 'request failed');
    else
      request.log.info(
        { status: mapped.statusCode, reason: error instanceof Error ? error.name : 'error' },
        'request refused',
      );
    // Refused before its body was read to the end (a 401 before the upload, a part over the limit).
    discardUnreadBody(request, reply, discardBounds);
    return reply.code(mapped.statusCode).headers(mapped.headers).send(mapped.body);
  });
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    const mapped = mapError(new NotFoundError(`No endpoint ${request.method} ${path}`), 'operations', limits);
    discardUnreadBody(request, reply, discardBounds);
    // A 404 is cacheable by default (RFC 9111 §4.2.2); an unknown route should not stay unknown in a cache.
    return reply
      .code(mapped.statusCode)
      .headers(mapped.headers)
      .header('cache-control', 'no-store')
      .send(mapped.body);
  });

  registerTokenRoutes(app, context);
  registerGeneratorRoutes(app, context);
  registerJobRoutes(app, context);
  registerUsageRoutes(app, context);
  registerInspectRoutes(app, context);
  registerTemplateRoutes(app, context);
  registerRenderRoutes(app, context);
  registerOperationsRoutes(app, context);
  registerMcpRoutes(app, context);
  await options.mount?.(app, context);

  return {
    app,
    async listen() {
      return app.listen({ port: config.port, host: config.host });
    },
    async close() {
      closing = true;
      await app.close();
    },
    closeConnections() {
      app.server.closeAllConnections();
    },
  };
}

/** DECKFORGE_TRUST_PROXY in Fastify's terms; a hop count becomes proxy-addr's trust function. */
function proxyTrust(
  setting: HttpConfig['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return typeof setting === 'boolean' ? setting : [...setting];
}
