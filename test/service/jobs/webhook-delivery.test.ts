/**
 * Webhook delivery on a real runtime (SQLite, worker threads, the guarded sender) with receivers on 127.0.0.1
 * and the harness's clock: a receiver that stays down is retried for 24 hours counted from the end of the job,
 * then given up; one account whose receivers never answer does not hold back another account's webhook for as
 * long as one attempt's deadline.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../../../src/service/deckforge-service.js';
import { deck, startHarness, upload, waitForJob, type Harness } from '../service-harness.js';

const HOUR = 60 * 60 * 1000;
const BASE = 'http://127.0.0.1:8080';

interface Receiver {
  url: string;
  port: number;
  /** When each request arrived (performance.now()). */
  arrivals: number[];
  close(): Promise<void>;
}

/** `answer` null: the receiver reads the request and never answers. */
async function startReceiver(answer: number | null): Promise<Receiver> {
  const arrivals: number[] = [];
  const held: ServerResponse[] = [];
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      arrivals.push(performance.now());
      if (answer === null) held.push(response);
      else response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    arrivals,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let h: Harness;
beforeAll(async () => {
  // Receivers listen on loopback; jobs are kept longer than the 24-hour retry window the clock moves through.
  h = await startHarness({ overrides: { allowPrivateUrls: true, jobRetentionHours: 72 } });
});
afterAll(async () => h.close());

async function accountWithSecret(): Promise<Account> {
  const user = await h.signUp();
  await h.runtime.admin.rotateWebhookSecret(user.email);
  return user.account;
}

const webhookOf = async (account: Account, jobId: string) =>
  (await h.service.jobStatus(account, jobId, BASE)).webhook;

describe('webhook delivery', () => {
  it('retries a receiver that stays down for 24 hours from the end of the job, then gives up', async () => {
    const account = await accountWithSecret();
    const down = await startReceiver(204);
    await down.close(); // nothing listens on its port any more
    const { jobId } = await h.service.submitJob(account, {
      ...upload(deck(1)),
      callback: { url: down.url, linkBase: null },
    });
    expect((await waitForJob(h.service, account, jobId)).status).toBe('SUCCEEDED');
    await until(
      () => webhookOf(account, jobId),
      (w) => (w?.attempts ?? 0) >= 1,
    );
    h.clock.advance(12 * HOUR); // within the window: tried again, still delivering
    const halfway = await until(
      () => webhookOf(account, jobId),
      (w) => (w?.attempts ?? 0) >= 2,
    );
    expect(halfway).toMatchObject({ state: 'DELIVERING', last_error: expect.stringMatching(/ECONNREFUSED/) });
    h.clock.advance(12 * HOUR + 60_000); // past 24 hours after the job ended: this attempt is the last
    const last = await until(
      () => webhookOf(account, jobId),
      (w) => (w?.attempts ?? 0) >= 3,
    );
    expect(last).toMatchObject({
      state: 'GAVE_UP',
      attempts: 3,
      last_error: expect.stringMatching(/ECONNREFUSED/),
    });
  }, 60_000);

  it("one account's receivers that never answer do not hold back another account's webhook", async () => {
    const [patient, other] = [await accountWithSecret(), await accountWithSecret()];
    const silent = await startReceiver(null);
    const prompt = await startReceiver(204);
    try {
      const stuck = [];
      for (let i = 0; i < 10; i++) {
        const { jobId } = await h.service.submitJob(patient, {
          ...upload(deck(1)),
          callback: { url: silent.url, linkBase: null },
        });
        stuck.push(jobId);
      }
      for (const jobId of stuck) await waitForJob(h.service, patient, jobId);
      await until(
        async () => silent.arrivals.length,
        (n) => n >= 2,
      );
      const { jobId } = await h.service.submitJob(other, {
        ...upload(deck(1)),
        callback: { url: prompt.url, linkBase: null },
      });
      expect((await waitForJob(h.service, other, jobId)).status).toBe('SUCCEEDED');
      const ended = performance.now();
      await until(
        async () => prompt.arrivals.length,
        (n) => n >= 1,
      );
      // Well within one attempt's 10 s deadline, while the silent receiver still holds its attempts.
      expect(prompt.arrivals[0]! - ended).toBeLessThan(5_000);
      expect(await webhookOf(other, jobId)).toMatchObject({ state: 'DELIVERED', last_status: 204 });
    } finally {
      await Promise.all([silent.close(), prompt.close()]);
    }
  }, 90_000);
});
