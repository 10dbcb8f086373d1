/**
 * Requests refused before any route runs (docs/security.md): Node's HTTP parser (headers too large, a
 * malformed request line, header or chunked body) and Fastify's router (a URL that does not decode, an
 * over-long path parameter). Fastify would answer these with bodies of its own; they get the interface's
 * shapes from the one mapper instead.
 */
import { maxHeaderSize, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { mapUnroutedError, type UnroutedError } from './error-mapper.js';
import { BASELINE_HEADERS } from '../security-headers.js';

const REASONS: Record<number, string> = { 400: 'Bad Request', 404: 'Not Found' };

/** Fastify's `frameworkErrors` option: the router refused the URL; no hook has run, so headers are set here. */
export function onFrameworkError(error: UnroutedError, request: FastifyRequest, reply: FastifyReply): void {
  const mapped = mapUnroutedError(error, maxHeaderSize);
  request.log.info({ status: mapped.statusCode, reason: error.code }, 'request refused before routing');
  void reply
    .code(mapped.statusCode)
    .headers({ ...BASELINE_HEADERS, ...mapped.headers })
    .send(mapped.body);
}

/**
 * Fastify's `clientErrorHandler` option (Node's `clientError` event): the parser gave up on the connection. The
 * answer is written on the socket itself, unless a response is already under way on it.
 */
export function onClientError(error: UnroutedError, socket: Socket, log: FastifyBaseLogger): void {
  {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const mapped = mapUnroutedError(error, maxHeaderSize);
    log.info({ status: mapped.statusCode, reason: error.code }, 'request refused by the HTTP parser');
    const inProgress = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (socket.writable && !inProgress?.headersSent) {
      const body = JSON.stringify(mapped.body);
      const headers = {
        ...BASELINE_HEADERS,
        ...mapped.headers,
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        connection: 'close',
      };
      const head = Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(`HTTP/1.1 ${mapped.statusCode} ${REASONS[mapped.statusCode] ?? ''}\r\n${head}\r\n${body}`);
    }
    socket.destroy();
  }
}
