/**
 * Answers to requests refused before their body was read to the end: a 401 for an upload with a
 * stale token, a 429, a 404, a 400 for a part over the upload limit. Closing the connection at once makes the
 * kernel reset it while the client is still writing, and a client that reads its answer only after writing
 * (Node's fetch) sees EPIPE instead of the status. So the rest of the body is read and thrown away, within a
 * bound, and the connection stays usable — the lingering close of nginx and Go's net/http. A client that asked
 * `Expect: 100-continue` has sent no body yet: it gets the final status instead of 100 Continue.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface DiscardBounds {
  /** Body bytes thrown away at most; past that the connection is closed. */
  maxBytes: number;
  /** How long the rest of the body may take to arrive. */
  maxMs: number;
}

/** "A few seconds": long enough for a few MB on a slow link, short enough not to hold a socket for long. */
export const DISCARD_MS = 5_000;
/** After our half-close, how long a client still writing may go on before the socket is dropped. */
const CLOSE_GRACE_MS = 2_000;

const continued = new WeakSet<IncomingMessage>();

function expectsContinue(request: IncomingMessage): boolean {
  return (request.headers.expect ?? '').toLowerCase() === '100-continue';
}

/**
 * Node answers `Expect: 100-continue` with 100 before any route runs. With this listener the request goes to
 * Fastify unanswered, and 100 Continue is sent once the onRequest hooks (authentication, rate, allowance) have
 * passed: a request they refuse gets its final status before the client sends the body.
 */
export function registerExpectContinue(app: FastifyInstance): void {
  app.server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    app.server.emit('request', request, response);
  });
  app.addHook('onRequest', async (request, reply) => {
    if (expectsContinue(request.raw) && !reply.raw.headersSent) {
      continued.add(request.raw);
      reply.raw.writeContinue();
    }
  });
}

/**
 * Called by the error and not-found handlers before they answer. Nothing to do when the body was read whole.
 * Otherwise the body is discarded as it arrives; past the bounds the connection is closed once the answer is out.
 */
export function discardUnreadBody(request: FastifyRequest, reply: FastifyReply, bounds: DiscardBounds): void {
  const raw = request.raw;
  if (raw.complete || raw.destroyed) return;
  if (expectsContinue(raw) && !continued.has(raw)) {
    // The client waits for 100 before sending the body and now will not send it (RFC 9110 § 10.1.1): the
    // connection cannot carry another request, since the parser would take whatever comes next for the body.
    reply.header('connection', 'close');
    return;
  }
  // The body's reader (the multipart parser, a body parser) stopped at the refusal: the rest is ours to drop.
  // Taken now: Node detaches the socket from the response once the answer is written.
  const socket = raw.socket;
  raw.unpipe();
  raw.removeAllListeners('data');
  let discarded = 0;
  const giveUp = () => {
    clearTimeout(timer);
    raw.removeListener('data', count);
    closeAfterAnswer(reply.raw, socket);
  };
  const count = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > bounds.maxBytes) giveUp();
  };
  const timer = setTimeout(giveUp, bounds.maxMs);
  timer.unref();
  raw.on('data', count);
  raw.once('end', () => clearTimeout(timer));
  raw.once('close', () => clearTimeout(timer));
  raw.resume();
}

/**
 * Half-closes once the answer is written (the client reads it, then sees the end), keeps reading what the
 * client still sends for a moment so the kernel does not reset the connection under the answer, then drops it.
 */
function closeAfterAnswer(response: ServerResponse, socket: Socket): void {
  if (socket.destroyed) return;
  const close = () => {
    socket.end();
    socket.resume();
    setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
  };
  if (response.writableFinished) close();
  else response.once('finish', close);
}
