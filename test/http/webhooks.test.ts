/**
 * Webhooks with a real receiving server on 127.0.0.1: the event is the job's status body signed with the
 * account's secret, and the client's verifyWebhook accepts it and refuses a tampered copy; a receiver that is
 * down is retried until it is back and then gets the event once; the status endpoint shows the delivery; a
 * callback_url on a private address is refused at submission by a server with the default URL guard.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeckforgeClient,
  verifyWebhook,
  WebhookVerificationError,
  type JobStatus,
  type JsonData,
} from '../../packages/client/src/index.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import {
  bearer,
  issueToken,
  startServer,
  type Credentials,
  type RunningServer,
} from '../support/servers/http-harness.js';
import { TEMPLATE_NAME, templateBytes } from '../support/servers/http-harness-paths.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';

interface Received {
  body: string;
  signature: string | undefined;
}

interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Resolves once `count` events have arrived. */
  arrived(count: number): Promise<void>;
  close(): Promise<void>;
}

async function startReceiver(port = 0, answer = 204): Promise<Receiver> {
  const received: Received[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const signature = request.headers['deckforge-signature'];
      received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: signature as string });
      response.writeHead(answer).end();
      for (const w of waiting.filter((w) => received.length >= w.count)) w.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/hooks/deckforge`,
    port: bound,
    received,
    arrived: (count) =>
      received.length >= count
        ? Promise.resolve()
        : new Promise((resolve) => waiting.push({ count, resolve })),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const probe = await startReceiver();
  await probe.close();
  return probe.port;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const deck = (count: number): JsonData => titleDeck(count) as JsonData;

let open: RunningServer;
let account: Credentials;
let secret: string;
let client: DeckforgeClient;

beforeAll(async () => {
  // Receivers listen on 127.0.0.1, so this server lets private URLs through (as the template-host tests do).
  open = await startServer({ overrides: { allowPrivateUrls: true } });
  account = await open.createAccount();
  secret = (await open.runtime.admin.rotateWebhookSecret(account.email)).webhookSecret;
  client = new DeckforgeClient({ baseUrl: open.base, ...account });
});
afterAll(async () => {
  await open.close();
});

describe('webhooks', () => {
  it('POSTs the signed status when the job ends; verifyWebhook accepts it and refuses a tampered copy', async () => {
    const receiver = await startReceiver();
    try {
      const jobId = await client.submit(templateBytes(), deck(2), undefined, { callbackUrl: receiver.url });
      await receiver.arrived(1);
      const [event] = receiver.received;
      if (!event) throw new Error('no event');
      const verified = await verifyWebhook(event.body, event.signature, secret, 300);
      expect(verified).toMatchObject({ job_id: jobId, status: 'SUCCEEDED', error_message: null });
      expect(verified).toEqual(JSON.parse(event.body));
      // The event's link downloads the deck, like the status endpoint's.
      await expectValidPptx(await client.download(verified as JobStatus), templateBytes());

      const tampered = event.body.replace('SUCCEEDED', 'FAILED');
      await expect(verifyWebhook(tampered, event.signature, secret, 300)).rejects.toBeInstanceOf(
        WebhookVerificationError,
      );
      await expect(verifyWebhook(event.body, event.signature, 'whsec_other', 300)).rejects.toThrow(
        /does not match/,
      );
      // The same event replayed long after it was signed.
      const signedAt = Number(/t=(\d+)/.exec(event.signature ?? '')?.[1]);
      await expect(
        verifyWebhook(event.body, event.signature, secret, Date.now() / 1000 - signedAt - 60),
      ).rejects.toThrow(/tolerance/);

      const status = await client.jobStatus(jobId);
      expect(status.webhook).toEqual({
        url: receiver.url,
        state: 'DELIVERED',
        attempts: 1,
        last_status: 204,
        last_error: null,
      });
    } finally {
      await receiver.close();
    }
  });

  it('the same Idempotency-Key with another callback_url is a 409, not the first job', async () => {
    const token = await issueToken(open.base, account);
    const send = async (callbackUrl: string) => {
      const body = uploadForm(titleDeck(1));
      body.append('callback_url', callbackUrl);
      const response = await fetch(`${open.base}/v2.0/generator/create-async`, {
        method: 'POST',
        headers: { ...bearer(token), 'idempotency-key': 'callback-key' },
        body,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const receiver = await startReceiver();
    try {
      const first = await send(receiver.url);
      expect(first.status).toBe(202);
      const other = await send(`${receiver.url}/elsewhere`);
      expect(other.status).toBe(409);
      expect(other.body.detail).toEqual(expect.stringContaining('"callback-key"'));
      expect((await send(receiver.url)).body.job_id).toBe(first.body.job_id);
      await receiver.arrived(1);
    } finally {
      await receiver.close();
    }
  });

  it('sends a FAILED job too, with its reason', async () => {
    const receiver = await startReceiver();
    try {
      const payload = {
        presentation: { template: TEMPLATE_NAME, slides: [{ slide_index: 99 }] },
      } satisfies JsonData;
      const jobId = await client.submit(templateBytes(), payload, undefined, { callbackUrl: receiver.url });
      await receiver.arrived(1);
      const event = await verifyWebhook(
        receiver.received[0]?.body ?? '',
        receiver.received[0]?.signature,
        secret,
      );
      expect(event).toMatchObject({ job_id: jobId, status: 'FAILED', file_url: null });
      expect(event.error_message).toMatch(/slide/i);
    } finally {
      await receiver.close();
    }
  });

  it('retries a receiver that is down and delivers once it is back', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/hooks/deckforge`;
    const jobId = await client.submit(templateBytes(), deck(1), undefined, { callbackUrl: url });
    // The job itself is not held back by its webhook.
    expect((await client.waitForJob(jobId, { initialIntervalMs: 100 })).status).toBe('SUCCEEDED');
    const failing = await until(
      () => client.jobStatus(jobId),
      (s) => (s.webhook?.attempts ?? 0) >= 2,
    );
    expect(failing.webhook).toMatchObject({ state: 'DELIVERING', last_status: null });
    expect(failing.webhook?.last_error).toMatch(/ECONNREFUSED|refused/i);

    const receiver = await startReceiver(port);
    try {
      await receiver.arrived(1);
      const delivered = await until(
        () => client.jobStatus(jobId),
        (s) => s.webhook?.state === 'DELIVERED',
      );
      expect(delivered.webhook).toMatchObject({ last_status: 204, last_error: null });
      expect(delivered.webhook?.attempts).toBeGreaterThanOrEqual(3);
      // Once delivered, never again.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(receiver.received).toHaveLength(1);
      expect(
        await verifyWebhook(receiver.received[0]?.body ?? '', receiver.received[0]?.signature, secret),
      ).toMatchObject({ job_id: jobId, status: 'SUCCEEDED' });
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it('retries a receiver that answers an error', async () => {
    const receiver = await startReceiver(0, 503);
    try {
      const jobId = await client.submit(templateBytes(), deck(1), undefined, { callbackUrl: receiver.url });
      await receiver.arrived(2);
      const status = await until(
        () => client.jobStatus(jobId),
        (s) => (s.webhook?.attempts ?? 0) >= 2,
      );
      expect(status.webhook).toMatchObject({ state: 'DELIVERING', last_status: 503 });
    } finally {
      await receiver.close();
    }
  }, 30_000);

  it('does not follow a redirect: a 3xx is a failed attempt, and the target is never called', async () => {
    const target = await startReceiver();
    const redirecting = createServer((_request, response) => {
      response.writeHead(307, { location: target.url }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hook`;
      const jobId = await client.submit(templateBytes(), deck(1), undefined, { callbackUrl: url });
      const status = await until(
        () => client.jobStatus(jobId),
        (s) => (s.webhook?.attempts ?? 0) >= 2,
      );
      expect(status.webhook).toMatchObject({ state: 'DELIVERING', last_status: 307 });
      expect(target.received).toEqual([]);
    } finally {
      redirecting.closeAllConnections();
      await new Promise((resolve) => redirecting.close(resolve));
      await target.close();
    }
  }, 30_000);

  it('refuses a callback_url without a webhook secret, and on the synchronous endpoint', async () => {
    const other = new DeckforgeClient({ baseUrl: open.base, ...(await open.createAccount()) });
    const noSecret = await other
      .submit(templateBytes(), deck(1), undefined, { callbackUrl: 'http://127.0.0.1:9/x' })
      .catch((e: unknown) => e);
    expect(noSecret).toMatchObject({ status: 400, problems: [{ path: 'callback_url' }] });
    expect(JSON.stringify(noSecret)).toContain('deckforge accounts webhook-secret');

    const form = new FormData();
    form.append('files', new Blob([templateBytes()]), TEMPLATE_NAME);
    form.append('jsonData', JSON.stringify(deck(1)));
    form.append('callback_url', 'http://127.0.0.1:9/x');
    const token = (await open.signUp()).token;
    const sync = await fetch(`${open.base}/v1.0/generator/create`, {
      method: 'POST',
      body: form,
      headers: bearer(token),
    });
    expect(sync.status).toBe(400);
    expect(((await sync.json()) as { details: string }).details).toMatch(/^callback_url: /);
  });
});

describe('webhooks on a server with the default URL guard', () => {
  let guarded: RunningServer;
  beforeAll(async () => {
    guarded = await startServer();
  });
  afterAll(async () => {
    await guarded.close();
  });

  it.each([
    ['loopback', 'http://127.0.0.1:8080/hook'],
    ['localhost by name', 'http://localhost:8080/hook'],
    ['a private address', 'http://10.1.2.3/hook'],
    ['the metadata address', 'http://169.254.169.254/hook'],
  ])('refuses %s when the job is submitted, charging nothing', async (_case, url) => {
    const credentials = await guarded.createAccount();
    await guarded.runtime.admin.rotateWebhookSecret(credentials.email);
    const deckforge = new DeckforgeClient({ baseUrl: guarded.base, ...credentials });
    const refused = await deckforge
      .submit(templateBytes(), deck(1), undefined, { callbackUrl: url })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 400, body: { message: 'Invalid input parameters' } });
    expect((refused as { problems: { path: string; message: string }[] }).problems[0]).toMatchObject({
      path: 'callback_url',
      message: expect.stringMatching(/refused|address/),
    });
    expect((await deckforge.usage()).usedSlideCount).toBe(0);
  });
});
