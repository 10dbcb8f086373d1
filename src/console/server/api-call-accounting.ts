/**
 * The console's playground and inspector calls are API calls of the signed-in account, counted and limited
 * exactly as their `/v1.0` twins: the request rate of the plan, the slide allowance checked before the upload is
 * read, and the call counted (successful or failed) by the server's own onSend hook (http/bearer-auth.ts), which
 * counts every request that carries an account. Page reads (tokens, usage, the job list) are not API calls.
 */
import type { FastifyInstance } from 'fastify';
import type { DeckforgeService } from '../../service/deckforge-service.js';
import { requireSession } from './console-session.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A console route that stands for an API call: its account is counted, rate-limited and (drawsSlides) checked. */
    consoleApiCall?: boolean;
  }
}

/** Registered after the session hook, in the console's context: the session is known when it runs. */
export function registerApiCallAccounting(app: FastifyInstance, service: DeckforgeService): void {
  app.addHook('onRequest', async (request) => {
    const { consoleApiCall, rateLimited, drawsSlides } = request.routeOptions.config;
    if (!consoleApiCall) return;
    const { account } = requireSession(request);
    request.account = account;
    if (rateLimited) await service.checkRateLimit(account);
    if (drawsSlides) await service.checkSlidesLeft(account);
  });
}
