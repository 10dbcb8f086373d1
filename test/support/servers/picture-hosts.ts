/**
 * Picture servers on 127.0.0.1 that misbehave on purpose: one that accepts connections and never
 * answers, one that streams large bodies without announcing their size and counts what it managed to send, and
 * one that holds each answer until the test releases it.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface PictureHost {
  base: string;
  /** Requests received so far. */
  requests: number;
  /** Body bytes written to clients so far (the large-body host). */
  bytesSent: number;
  close(): Promise<void>;
}

async function listen(server: Server, host: PictureHost): Promise<PictureHost> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  host.close = () => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return host;
}

function newHost(): PictureHost {
  return { base: '', requests: 0, bytesSent: 0, close: async () => undefined };
}

/** Accepts every connection and request, and never answers. */
export function hostSilentPictures(): Promise<PictureHost> {
  const host = newHost();
  return listen(
    createServer(() => {
      host.requests += 1;
    }),
    host,
  );
}

/**
 * `/<megabytes>mb/<anything>`: that many MB of bytes, chunked (no Content-Length, so only the bytes themselves
 * can tell the client it is too large), in 64 KB pieces as fast as the client reads them.
 */
export function hostLargePictures(): Promise<PictureHost> {
  const host = newHost();
  const server = createServer((request, response) => {
    host.requests += 1;
    const megabytes = Number(/^\/(\d+)mb\//.exec(request.url ?? '')?.[1] ?? NaN);
    if (!Number.isFinite(megabytes)) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'image/png' });
    stream(response, megabytes * 1024 * 1024, host);
  });
  return listen(server, host);
}

function stream(response: ServerResponse, total: number, host: PictureHost): void {
  const piece = Buffer.alloc(64 * 1024, 7);
  let left = total;
  const more = (): void => {
    while (left > 0 && !response.destroyed) {
      const size = Math.min(piece.length, left);
      left -= size;
      host.bytesSent += size;
      if (!response.write(size === piece.length ? piece : piece.subarray(0, size))) {
        response.once('drain', more);
        return;
      }
    }
    if (left === 0) response.end();
  };
  more();
}

export interface GatedPictureHost extends PictureHost {
  /** Resolves when the first request has arrived. */
  requested: Promise<void>;
  /** Answers every held request (and later ones at once) with `bytes`. */
  release(bytes: Uint8Array): void;
}

export async function hostGatedPicture(): Promise<GatedPictureHost> {
  let arrived = (): void => undefined;
  let answer: ((bytes: Uint8Array) => void) | null = null;
  const released = new Promise<Uint8Array>((resolve) => (answer = resolve));
  const host: GatedPictureHost = {
    ...newHost(),
    requested: new Promise<void>((resolve) => (arrived = resolve)),
    release: (bytes) => answer?.(bytes),
  };
  const server = createServer((_request, response) => {
    host.requests += 1;
    arrived();
    void released.then((bytes) => {
      host.bytesSent += bytes.byteLength;
      response.writeHead(200, { 'content-type': 'image/png' }).end(bytes);
    });
  });
  await listen(server, host);
  return host;
}
