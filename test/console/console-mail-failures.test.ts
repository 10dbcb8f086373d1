/**
 * When the mail server cannot be reached: sign-up answers 202 as always (its mail is sent after the answer) and
 * keeps no half-made account (the address can sign up again later), key rotation answers 503 and keeps the old key, and a reset request still answers 202
 * (another answer would tell which addresses have accounts) with the failure in the log.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { ConsoleVisitor } from '../support/http/console-client.js';

let server: RunningServer;

/** A port nothing listens on: taken from the system, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  server = await startServer({
    overrides: {
      workers: 1,
      mail: {
        smtpUrl: `smtp://127.0.0.1:${await closedPort()}`,
        mailFrom: 'console@deckforge.test',
        signup: 'open',
      },
    },
  });
});
afterAll(async () => {
  await server?.close();
});

describe('console with an unreachable mail server', () => {
  it('answers sign-up as always, logs the failure and keeps no account that could never be confirmed', async () => {
    const visitor = new ConsoleVisitor(server.base);
    await visitor.open();
    const email = `late-${Date.now().toString(36)}@example.test`;
    const answer = await visitor.post('/console/api/sign-up', { email, password: 'long enough' });
    expect(answer.status).toBe(202);
    await server.runtime.settled();
    expect(server.logs.join('')).toContain('console sign-up failed');
    const accounts = await server.runtime.admin.list();
    expect(accounts.map((a) => a.email)).not.toContain(email);
  });

  it('keeps the old key when the new one cannot be mailed', async () => {
    const owner = await server.signUp();
    const visitor = new ConsoleVisitor(server.base);
    await visitor.signIn(owner.email, owner.password);
    const rotated = await visitor.post('/console/api/security-key/rotate');
    expect(rotated.status).toBe(503);
    expect((rotated.body as { detail: string }).detail).toMatch(/the key was not changed/);
    expect((await fetch(`${server.base}/v1.0/usage`, { headers: bearer(owner.token) })).status).toBe(200);
  });

  it('still answers a reset request 202, and logs the failure', async () => {
    const owner = await server.createAccount();
    const visitor = new ConsoleVisitor(server.base);
    await visitor.open();
    const answer = await visitor.post('/console/api/password-reset', { email: owner.email });
    expect(answer.status).toBe(202);
    await server.runtime.settled();
    expect(server.logs.join('')).toContain('password reset mail not sent');
  });
});
