/** Mounts the web console on the HTTP server: its JSON routes under `/console` and its pages and assets. */
import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../../http/route-context.js';
import { registerConsolePages } from './console-pages.js';
import { consolePlugin } from './console-plugin.js';

export async function mountConsole(app: FastifyInstance, context: RouteContext): Promise<void> {
  await app.register(consolePlugin, { prefix: '/console', ...context, console: context.service.console });
  registerConsolePages(app);
}
