/**
 * The webhook sender against receivers on 127.0.0.1: the guard runs again at delivery, so a host that resolved
 * to an allowed address at submission and to a refused one later (DNS rebinding) is not reached; one deadline
 * covers the whole exchange, so a receiver that never answers, or answers and then sends its body a byte at a
 * time (each byte sooner than any idle timeout), holds the socket until the deadline and no longer.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { refusedAddressReason } from '../../../src/adapters/url-fetch/address-policy.js';
import { GuardedUrlFetcher } from '../../../src/adapters/url-fetch/guarded-url-fetcher.js';
import { GuardedWebhookSender } from '../../../src/adapters/url-fetch/guarded-webhook-sender.js';
import { FetchError } from '../../../src/service/ports/index.js';

const DEADLINE_MS = 800;

interface Receiver {
  /** `http://localhost:<port>/hook`: a name, resolved at each connection. */
  url: string;
  requests: number;
  sockets: Set<Socket>;
  close(): Promise<void>;
}

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function startReceiver(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    receiver.requests += 1;
    request.resume();
    request.on('end', () => answer(request, response));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver: Receiver = {
    url: `http://localhost:${(server.address() as AddressInfo).port}/hook`,
    requests: 0,
    sockets,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  receivers.push(receiver);
  return receiver;
}

/** A sender whose guard allows loopback only while `allowLoopback.now` is true (the rest: the default policy). */
function sender(allowLoopback = { now: true }): GuardedWebhookSender {
  const guard = new GuardedUrlFetcher({
    allowPrivateUrls: false,
    timeoutMs: DEADLINE_MS,
    maxBytes: 1000,
    refusedAddress: (address) =>
      allowLoopback.now && (address === '127.0.0.1' || address === '::1')
        ? null
        : refusedAddressReason(address),
  });
  return new GuardedWebhookSender(guard);
}

const post = (to: GuardedWebhookSender, url: string) =>
  to.post(url, '{"job_id":"j"}', { 'deckforge-job-id': 'j' }, DEADLINE_MS);

describe('guarded webhook sender', () => {
  it('posts the event and resolves to the status once the answer has ended', async () => {
    const receiver = await startReceiver((_request, response) => response.writeHead(204).end());
    expect(await post(sender(), receiver.url)).toBe(204);
    expect(receiver.requests).toBe(1);
  });

  it('checks the host again at delivery: a name that resolves to a refused address by then is not reached', async () => {
    const receiver = await startReceiver((_request, response) => response.writeHead(204).end());
    const allowLoopback = { now: true };
    const guarded = sender(allowLoopback);
    await guarded.check(receiver.url); // at submission the name resolved to an allowed address
    allowLoopback.now = false; // now it resolves to an internal one
    const error = await post(guarded, receiver.url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchError);
    expect((error as FetchError).message).toMatch(/resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(receiver.requests).toBe(0);
  });

  it('gives up on a receiver that never answers at the deadline, and closes the socket', async () => {
    const receiver = await startReceiver(() => undefined);
    const started = performance.now();
    const error = await post(sender(), receiver.url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchError);
    expect((error as FetchError).message).toMatch(/no answer within 0.8 s/);
    expect(performance.now() - started).toBeLessThan(DEADLINE_MS + 1000);
    await expect.poll(() => receiver.sockets.size).toBe(0);
  });

  it('cuts off a receiver that answers 200 and then sends its body a byte at a time, at the same deadline', async () => {
    const receiver = await startReceiver((_request, response) => {
      response.writeHead(200, { 'content-length': '600' });
      response.write('x');
      const drip = setInterval(() => response.write('x'), 200);
      response.on('close', () => clearInterval(drip));
    });
    const started = performance.now();
    expect(await post(sender(), receiver.url)).toBe(200);
    expect(performance.now() - started).toBeLessThan(DEADLINE_MS + 1000);
    await expect.poll(() => receiver.sockets.size).toBe(0);
  });
});
