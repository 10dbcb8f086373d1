/**
 * Sign-up and password reset answer in the same time whether the address has an account or not
 * (docs/console.md, "Sign-up" and "The mails"): requests for a known and an unknown address, interleaved so
 * both meet the same load, and the two medians compared. The known address's mail still arrives, after the
 * answer. Generous bounds: the machine may be busy, but a path that hashes or mails before answering takes tens
 * to hundreds of milliseconds longer than one that does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Credentials, type RunningServer } from '../support/servers/http-harness.js';
import { startMailCatcher, type MailCatcher } from '../support/servers/mail-catcher.js';
import { ConsoleVisitor } from '../support/http/console-client.js';

const ROUNDS = 15;

let catcher: MailCatcher;
let server: RunningServer;
let known: Credentials;

beforeAll(async () => {
  catcher = await startMailCatcher();
  server = await startServer({
    overrides: {
      workers: 1,
      mail: { smtpUrl: catcher.url, mailFrom: 'console@deckforge.test', signup: 'open' },
    },
  });
  known = await server.createAccount();
});
afterAll(async () => {
  await server?.close();
  await catcher?.close();
});

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

/** Milliseconds one console POST takes from a fresh session, with its status. */
async function timedPost(path: string, body: unknown): Promise<{ ms: number; status: number }> {
  const visitor = new ConsoleVisitor(server.base);
  await visitor.open();
  const started = performance.now();
  const answer = await visitor.post(path, body);
  return { ms: performance.now() - started, status: answer.status };
}

/** Times `ROUNDS` requests for each kind of address, alternating; the mail rationing's minute passes between. */
async function compare(
  path: string,
  bodyFor: (email: string) => unknown,
  knownAddress: () => string,
): Promise<{ known: number; unknown: number }> {
  const times = { known: [] as number[], unknown: [] as number[] };
  for (let round = 0; round < ROUNDS; round += 1) {
    server.clock.advance(61_000);
    const order = round % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const);
    for (const kind of order) {
      const email = kind === 'known' ? knownAddress() : `nobody-${round}-${Date.now()}@example.test`;
      const { ms, status } = await timedPost(path, bodyFor(email));
      expect(status).toBe(202);
      times[kind].push(ms);
    }
  }
  // The known address's mails, all sent after their answers.
  for (let round = 0; round < ROUNDS; round += 1) await catcher.next(knownAddress());
  return { known: median(times.known), unknown: median(times.unknown) };
}

function expectSameTime(medians: { known: number; unknown: number }): void {
  const difference = Math.abs(medians.known - medians.unknown);
  const larger = Math.max(medians.known, medians.unknown);
  expect(
    difference < 15 || difference < larger / 2,
    `medians: known ${medians.known.toFixed(1)} ms, unknown ${medians.unknown.toFixed(1)} ms`,
  ).toBe(true);
}

describe('answers that tell nothing by their timing', () => {
  it('a password reset takes the same time for a known and an unknown address', async () => {
    const medians = await compare(
      '/console/api/password-reset',
      (email) => ({ email }),
      () => known.email,
    );
    expectSameTime(medians);
  }, 60_000);

  it('a sign-up takes the same time for a taken and a new address', async () => {
    const medians = await compare(
      '/console/api/sign-up',
      (email) => ({ email, password: 'long enough password' }),
      () => known.email,
    );
    expectSameTime(medians);
  }, 60_000);
});
