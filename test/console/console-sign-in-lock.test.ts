/**
 * Failed sign-ins slow down and then lock, per account and per client address, and the console and the API's
 * `POST /v1.0/token/create` count together (one SignInGuard): a guesser gains nothing by switching doors. The
 * server's test clock stands in for the waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Credentials, type RunningServer } from '../support/servers/http-harness.js';
import { ConsoleVisitor } from '../support/http/console-client.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ overrides: { workers: 1 } });
});
afterAll(async () => {
  await server?.close();
});

interface Outcome {
  status: number;
  retryAfter: number | null;
}

/** One browser for every console attempt, as a guesser keeps its cookie (new sessions are rationed). */
let browser: ConsoleVisitor;

async function consoleAttempt(email: string, password: string): Promise<Outcome> {
  browser ??= new ConsoleVisitor(server.base);
  const answer = await browser.signIn(email, password);
  const header = answer.headers.get('retry-after');
  return { status: answer.status, retryAfter: header === null ? null : Number(header) };
}

async function apiAttempt(credentials: Credentials, password: string): Promise<Outcome> {
  const response = await fetch(`${server.base}/v1.0/token/create`, {
    method: 'POST',
    body: new URLSearchParams({ username: credentials.email, password, key: credentials.key }),
  });
  await response.arrayBuffer();
  const header = response.headers.get('retry-after');
  return { status: response.status, retryAfter: header === null ? null : Number(header) };
}

describe('sign-in throttling shared by the console and token/create', () => {
  it('slows then locks one account, whichever door the wrong passwords come through', async () => {
    const owner = await server.createAccount();
    const failures: number[] = [];
    // Wrong passwords, alternately through the console and the API.
    for (let i = 0; i < 6; i++) {
      const outcome =
        i % 2 === 0 ? await consoleAttempt(owner.email, 'wrong') : await apiAttempt(owner, 'wrong');
      failures.push(outcome.status);
    }
    expect(failures).toEqual([401, 401, 401, 401, 401, 401]);
    // The sixth failure costs a wait: even the right password, through either door, is refused until then.
    const slowed = await consoleAttempt(owner.email, owner.password);
    expect(slowed).toEqual({ status: 429, retryAfter: expect.any(Number) });
    expect(slowed.retryAfter).toBeGreaterThanOrEqual(1);
    expect((await apiAttempt(owner, owner.password)).status).toBe(429);

    // Keep failing, waiting out each delay, up to the tenth failure: then the account is locked for 15 minutes.
    let failed = 6;
    for (let guard = 0; failed < 10 && guard < 30; guard++) {
      const outcome =
        failed % 2 === 0 ? await consoleAttempt(owner.email, 'wrong') : await apiAttempt(owner, 'wrong');
      if (outcome.status === 429) server.clock.advance((outcome.retryAfter ?? 1) * 1000);
      else {
        expect(outcome.status).toBe(401);
        failed += 1;
      }
    }
    expect(failed).toBe(10);
    const locked = await consoleAttempt(owner.email, owner.password);
    expect(locked.status).toBe(429);
    expect(locked.retryAfter).toBeGreaterThan(14 * 60);
    const lockedApi = await apiAttempt(owner, owner.password);
    expect(lockedApi.status).toBe(429);
    expect(lockedApi.retryAfter).toBeGreaterThan(14 * 60);

    server.clock.advance(15 * 60 * 1000 + 1000);
    expect((await consoleAttempt(owner.email, owner.password)).status).toBe(200);
  });

  it('locks one address that tries many accounts, also for an account it has not tried', async () => {
    let last: Outcome = { status: 0, retryAfter: null };
    let attempts = 0;
    // Made-up addresses (each a fresh account key): only the address's own count grows.
    while (attempts < 80) {
      attempts += 1;
      last = await consoleAttempt(`guess-${attempts}@example.test`, 'wrong');
      if (last.status === 429 && (last.retryAfter ?? 0) > 14 * 60) break;
      if (last.status === 429) server.clock.advance((last.retryAfter ?? 1) * 1000);
      else expect(last.status).toBe(401);
    }
    expect(last.status).toBe(429);
    expect(last.retryAfter).toBeGreaterThan(14 * 60);
    const bystander = await server.createAccount();
    expect((await consoleAttempt(bystander.email, bystander.password)).status).toBe(429);
    expect((await apiAttempt(bystander, bystander.password)).status).toBe(429);
  });
});
