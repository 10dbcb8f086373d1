/**
 * The shared validator's process (validator-service.ts starts it): an HTTP server on a Unix socket that
 * validates the package each request carries (`POST /pptx`, `POST /xlsx`, the bytes as the body) and answers with
 * the validator's results as JSON, or with 500 and the validator's own error message when it throws. Requests are
 * taken one at a time, as the validator takes them. The validator boots on the first request.
 * Usage: node --import tsx validator-server.ts SOCKET_PATH
 */
import { createServer } from 'node:http';
import { validateInProcess } from './validator.js';

const socketPath = process.argv[2];
if (!socketPath) throw new Error('usage: validator-server.ts SOCKET_PATH');

// One validation at a time (the runtime is not re-entrant), in the order the requests came.
let queue: Promise<unknown> = Promise.resolve();

// No deadlines: a request may wait behind minutes of others' validations (a 40 000-category chart takes over a
// minute), and the server must not close its connection meanwhile.
const server = createServer(
  { requestTimeout: 0, headersTimeout: 0, keepAliveTimeout: 0 },
  (request, response) => {
    const kind = request.url === '/xlsx' ? 'xlsx' : request.url === '/pptx' ? 'pptx' : null;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || !kind) {
        response.writeHead(404).end();
        return;
      }
      const validation = queue.then(() => validateInProcess(Buffer.concat(chunks), kind));
      queue = validation.catch(() => undefined);
      validation.then(
        (results) =>
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(results)),
        (error: unknown) =>
          response
            .writeHead(500, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: String((error as Error).message ?? error) })),
      );
    });
  },
);
server.listen(socketPath, () => process.send?.('listening'));
process.on('disconnect', () => process.exit(0));
