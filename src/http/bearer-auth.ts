/**
 * Bearer authentication for every endpoint but token creation and the signed download (interface
 * § Authentication), the per-account rate limit, and API-call counting for usage (`totalApiCallCount` …).
 * Runs at onRequest, before any body is read, so an unauthenticated upload costs no parsing.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Account, DeckforgeService } from '../service/deckforge-service.js';
import type { EndpointKind } from './errors/error-shapes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which row of the error table applies (error-mapper.ts). */
    endpoint?: EndpointKind;
    /** Requires `Authorization: Bearer <token>`. */
    bearer?: boolean;
    /** Subject to the per-account request rate (the endpoints whose error row lists 429). */
    rateLimited?: boolean;
    /** Draws on the slide allowance: an account with none left is refused before its upload is read. */
    drawsSlides?: boolean;
  }
  interface FastifyRequest {
    account: Account | null;
  }
}

/** `Bearer <token>` (scheme case-insensitive, RFC 9110 § 11.1); anything else is no token at all. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

export function registerBearerAuth(app: FastifyInstance, service: DeckforgeService): void {
  app.decorateRequest('account', null);

  app.addHook('onRequest', async (request) => {
    const { bearer, rateLimited, drawsSlides } = request.routeOptions.config;
    if (!bearer) return;
    const account = await service.authenticate(bearerToken(request));
    request.account = account;
    if (rateLimited) await service.checkRateLimit(account);
    // A keyed request may be the retry of one already answered and charged: it gets that answer even when the
    // allowance is now spent (idempotency.ts), so only the service, once it knows, may refuse it.
    if (drawsSlides && request.headers['idempotency-key'] === undefined)
      await service.checkSlidesLeft(account);
  });

  // onSend, not onResponse: the call is counted before the client sees the answer, so a usage call that
  // follows includes it (the service writes counts in batches and flushes them before reading usage).
  app.addHook('onSend', async (request, reply, payload) => {
    const account = request.account;
    if (account === null) return payload;
    try {
      await service.recordApiCall(account, reply.statusCode < 400);
    } catch (error) {
      // Counting must not turn a delivered answer into a failure; the log keeps the trace.
      request.log.error({ err: error }, 'could not record the API call');
    }
    return payload;
  });
}

/** The authenticated account of a bearer route (set by the onRequest hook above). */
export function accountOf(request: FastifyRequest): Account {
  if (request.account === null) {
    // Only reachable if a route forgot `config.bearer`: a programming error, hence a 500.
    throw new Error(
      `route ${request.routeOptions.url ?? request.url} reads an account but is not bearer-protected`,
    );
  }
  return request.account;
}
