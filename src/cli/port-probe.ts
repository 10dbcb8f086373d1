/**
 * Whether `serve` can have its port, asked before anything is created or printed: a second `npm start` must not
 * make a data directory, create an account and print its password, and only then find the port taken.
 */
import { createServer } from 'node:net';

/** Null when the port can be bound on `host`; otherwise the reason, with the setting that changes it. */
export function portProblem(host: string, port: number): Promise<string | null> {
  if (port === 0) return Promise.resolve(null); // any free port
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      const where = `port ${port} on ${host}`;
      if (error.code === 'EADDRINUSE')
        resolve(
          `${where} is already in use (another Deckforge, or another program); set PORT to a free port, e.g. PORT=${port + 1}`,
        );
      else if (error.code === 'EACCES')
        resolve(`${where} needs privileges this process does not have; set PORT to a port above 1023`);
      else if (error.code === 'EADDRNOTAVAIL')
        resolve(`${host} is not an address of this machine; set HOST (e.g. 127.0.0.1 or 0.0.0.0)`);
      else resolve(`${where} cannot be bound (${error.code ?? error.message}); check PORT and HOST`);
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(null)));
  });
}
