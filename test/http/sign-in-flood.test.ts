/**
 * Sign-in under a flood, over HTTP with the real scrypt hasher: 150 concurrent sign-ins from 150
 * addresses, or from one, must not turn the owner away. The server trusts X-Forwarded-For from 127.0.0.1
 * (DECKFORGE_TRUST_PROXY), which is how each request here comes from an address of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScryptPasswordHasher } from '../../src/adapters/crypto/scrypt-password-hasher.js';
import { MAX_IN_FLIGHT_PER_ADDRESS } from '../../src/service/accounts/sign-in-guard.js';
import { startServer, type Credentials, type RunningServer } from '../support/servers/http-harness.js';

let server: RunningServer;
let owner: Credentials;
const OWNER_HOME = '198.51.100.10';

beforeAll(async () => {
  server = await startServer({
    overrides: { trustProxy: ['127.0.0.1'] },
    hasher: new ScryptPasswordHasher(),
  });
  owner = await server.createAccount();
});
afterAll(async () => server.close());

function signIn(from: string, username: string, password: string): Promise<Response> {
  return fetch(`${server.base}/v1.0/token/create`, {
    method: 'POST',
    headers: { 'x-forwarded-for': from },
    body: new URLSearchParams({ username, password, key: owner.key }),
  });
}

/** Starts `count` failing sign-ins at once; `settled()` tells how many have been answered so far. */
function flood(count: number, from: (i: number) => string) {
  let answered = 0;
  const statuses = Array.from({ length: count }, (_, i) =>
    signIn(from(i), `guess${i}@example.test`, 'wrong password').then(async (response) => {
      await response.arrayBuffer();
      answered += 1;
      return response.status;
    }),
  );
  return { statuses: Promise.all(statuses), settled: () => answered };
}

describe('sign-in during a flood of attempts', () => {
  it('150 attempts from 150 addresses: the owner at their usual address still gets in, ahead of the queue', async () => {
    expect((await signIn(OWNER_HOME, owner.email, owner.password)).status).toBe(200);
    const attack = flood(150, (i) => `10.20.${Math.floor(i / 250)}.${i % 250}`);
    await new Promise((resolve) => setTimeout(resolve, 500)); // the flood is in the queue
    const answer = await signIn(OWNER_HOME, owner.email, owner.password);
    const stillWaiting = 150 - attack.settled();
    expect(answer.status).toBe(200);
    expect(stillWaiting).toBeGreaterThan(10); // it did not wait for the queue to drain
    const statuses = await attack.statuses;
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
  }, 180_000);

  it('150 attempts from one address: a few are under way, the rest refused at once; the owner gets in', async () => {
    const attack = flood(150, () => '10.30.0.1');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const answer = await signIn('192.0.2.200', owner.email, owner.password); // not an address she used before
    expect(answer.status).toBe(200);
    const statuses = await attack.statuses;
    // At most MAX_IN_FLIGHT_PER_ADDRESS at a time were checked (more in all as the requests trickle in on a busy
    // machine, never past the address's 30 free failures); the rest were refused without hashing.
    const checked = statuses.filter((s) => s === 401).length;
    expect(checked).toBeGreaterThanOrEqual(MAX_IN_FLIGHT_PER_ADDRESS);
    expect(checked).toBeLessThanOrEqual(31);
    expect(statuses.filter((s) => s === 429)).toHaveLength(150 - checked);
  }, 180_000);
});
