/**
 * The web console at `/console` (docs/console.md), a Fastify plugin that mount-console.ts registers
 * on the HTTP server under that prefix. Its
 * hooks (session, CSRF) apply to its own routes only; its errors go through the server's error handler and so the
 * one error mapper (`config.endpoint: 'console'`). It calls the service's use cases, never the stores.
 */
import type { FastifyInstance } from 'fastify';
import { registerAccountRoutes } from './account-routes.js';
import type { ConsoleContext } from './console-context.js';
import { registerConsoleSessions } from './console-session.js';
import { registerSessionRoutes } from './session-routes.js';
import { registerActivityRoutes } from './activity-routes.js';
import { registerApiCallAccounting } from './api-call-accounting.js';
import { registerPlaygroundRoutes } from './playground-routes.js';
import { registerTemplateRoutes } from './template-routes.js';
import { registerTokenRoutes } from './token-routes.js';

export async function consolePlugin(app: FastifyInstance, context: ConsoleContext): Promise<void> {
  registerConsoleSessions(app, context.console, context.config);
  // After the session hook: it reads the session that hook resolved.
  registerApiCallAccounting(app, context.service);
  registerSessionRoutes(app, context);
  registerAccountRoutes(app, context);
  registerTokenRoutes(app, context);
  registerActivityRoutes(app, context);
  registerPlaygroundRoutes(app, context);
  registerTemplateRoutes(app, context);
}
