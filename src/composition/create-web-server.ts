/** The server `deckforge serve` runs: the HTTP API with the web console mounted beside it. */
import { mountConsole } from '../console/server/mount-console.js';
import type { HttpConfig } from '../http/http-config.js';
import { createHttpServer, type HttpServer, type HttpServerOptions } from '../http/server.js';
import type { DeckforgeService } from '../service/deckforge-service.js';

export function createWebServer(
  service: DeckforgeService,
  config: HttpConfig,
  options: Omit<HttpServerOptions, 'mount'> = {},
): Promise<HttpServer> {
  return createHttpServer(service, config, { ...options, mount: mountConsole });
}
