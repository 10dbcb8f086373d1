/**
 * Logger options for Fastify's pino: request ids honoured from and returned in `X-Request-Id`, and nothing
 * secret in a log line (tokens, passwords and keys never reach a log). Download links carry their
 * signature in the URL, so their path is cut.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { DestinationStream } from 'pino';
import { DOWNLOAD_PATH_PREFIX } from '../service/deckforge-service.js';
import { markServerFault } from './client-disconnect.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A client's X-Request-Id is kept when it is short and plain (it ends up in logs and a response header). */
export function requestIdFor(request: IncomingMessage): string {
  const header = request.headers['x-request-id'];
  const candidate = Array.isArray(header) ? header[0] : header;
  return candidate !== undefined && SAFE_REQUEST_ID.test(candidate) ? candidate : randomUUID();
}

/** The URL as logged: download signatures removed, query strings (which may hold anything) elided. */
export function loggableUrl(url: string): string {
  if (url.startsWith(DOWNLOAD_PATH_PREFIX)) return `${DOWNLOAD_PATH_PREFIX}[redacted]`;
  const queryAt = url.indexOf('?');
  return queryAt === -1 ? url : `${url.slice(0, queryAt)}?[redacted]`;
}

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'password',
  'key',
  'token',
  'accessToken',
  'Access_Token',
  '*.password',
  '*.key',
  '*.token',
  '*.accessToken',
  '*.Access_Token',
];

export function loggerOptions(level: string, stream: DestinationStream | undefined) {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: loggableUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
        };
      },
    },
  };
}

/**
 * One log line per request instead of Fastify's two ("incoming request" + "request completed"): the completion
 * line carries the request as well. Halves the logging cost on the hot path.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const entry = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...entry, err: error }, 'request errored');
    else reply.log.info(entry, 'request completed');
  }

  /**
   * A streamed answer (a deck) ended early. A premature close is the client leaving: client-disconnect.ts logs
   * and counts it once. Anything else failed on our side after the headers went out.
   */
  override streamError(
    error: Error & { code?: string },
    _request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    markServerFault(reply);
    reply.log.error({ err: error }, 'response failed after its headers were sent');
  }
}
