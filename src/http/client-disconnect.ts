/**
 * A client that goes away before its answer is out (a closed tab, a timeout on its side, a load run ending) is
 * normal, not a server fault: one info line, counted in /metrics under status 499 (nginx's "client
 * closed request") rather than as a 5xx, and no attempt to send a body on a connection that is gone.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HttpMetrics } from './metrics.js';

/** The status /metrics records for a request whose client left before the answer was written. */
export const CLIENT_CLOSED_STATUS = 499;

/** Responses cut off by a failure on our side (a deck file that cannot be read mid-stream): a 500, not a 499. */
const serverFaults = new WeakSet<FastifyReply['raw']>();

export function markServerFault(reply: FastifyReply): void {
  serverFaults.add(reply.raw);
}

/** Whether nothing more can reach the client: the response or its socket is closed. */
export function clientGone(request: FastifyRequest, reply: FastifyReply): boolean {
  // Strict comparisons: an injected request (app.inject, tests) has a stand-in socket without these fields.
  const socket = request.raw.socket as Partial<FastifyRequest['raw']['socket']> | null;
  return reply.raw.destroyed || socket?.destroyed === true || socket?.writable === false;
}

/**
 * Watches each response: one that closes before it finished is logged and counted here, once, whatever noticed
 * it first (the deck's file stream, the error handler, a generation still running).
 */
export function registerDisconnectAccounting(app: FastifyInstance, metrics: HttpMetrics): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.raw.once('close', () => {
      if (reply.raw.writableFinished) return;
      const route = request.routeOptions.url ?? 'unmatched';
      const seconds = reply.elapsedTime / 1000;
      if (serverFaults.has(reply.raw)) {
        metrics.observeRequest({ method: request.method, route, status: 500 }, seconds);
        return;
      }
      request.log.info(
        { status: CLIENT_CLOSED_STATUS, headersSent: reply.raw.headersSent, responseTime: reply.elapsedTime },
        'client disconnected before the answer was sent',
      );
      metrics.observeRequest({ method: request.method, route, status: CLIENT_CLOSED_STATUS }, seconds);
    });
  });
}
