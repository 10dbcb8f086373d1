/**
 * A TCP relay for outage tests: what sits between a client and its server, and can fail like a network. Given a
 * function instead of one server, it asks it where each new connection goes (the local cluster's balancer).
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

/** A TCP relay to the server that can be taken down (connections cut, port closed) and brought back on the same port. */
export async function startTcpRelay(
  target: URL | (() => URL | undefined),
): Promise<{ port: number; down(): Promise<void>; up(): Promise<void> }> {
  const pick = typeof target === 'function' ? target : () => target;
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const up = async (): Promise<void> => {
    if (server) return;
    const s = createServer((client) => {
      const to = pick();
      if (!to) return client.destroy();
      const upstream = connect(Number(to.port || 5432), to.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', resolve);
    });
    port = (s.address() as { port: number }).port;
    server = s;
  };
  const down = async (): Promise<void> => {
    const s = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    if (s) await new Promise((resolve) => s.close(resolve));
  };
  await up();
  return {
    get port() {
      return port;
    },
    down,
    up,
  };
}
