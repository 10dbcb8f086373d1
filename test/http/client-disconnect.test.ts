/**
 * A client that goes away before its deck is sent is normal, not a server fault: one info line per
 * request, counted under 499 in /metrics and never as a 5xx, and no error body attempted on a dead response.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';

let server: RunningServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = (await server.signUp({ plan: 'Enterprise' })).token;
});
afterAll(async () => server.close());

/** Sends a synchronous generation of 300 slides and lets `leave` decide when the client hangs up. */
async function generateAndLeave(leave: 'while generating' | 'at the first byte'): Promise<void> {
  const request = new Request('http://unused/', { method: 'POST', body: uploadForm(titleDeck(300)) });
  const body = Buffer.from(await request.arrayBuffer());
  const { hostname, port } = new URL(server.base);
  const socket = connect(Number(port), hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.on('error', () => {});
  const closed = new Promise((resolve) => socket.once('close', resolve));
  socket.write(
    `POST /v1.0/generator/create HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: ${request.headers.get('content-type')}\r\nContent-Length: ${body.length}\r\n\r\n`,
  );
  socket.write(body);
  if (leave === 'while generating') setTimeout(() => socket.destroy(), 20);
  else socket.once('data', () => socket.destroy());
  await closed;
}

const entries = () => server.logs.map((line) => JSON.parse(line) as { level: number; msg: string });

describe('a client that disconnects mid-response', () => {
  it('is logged once at info, counted as 499 and never as a 5xx', async () => {
    await generateAndLeave('while generating');
    await generateAndLeave('at the first byte');
    // The server notices on its own schedule (the generation finishes first in the first case).
    const deadline = Date.now() + 20_000;
    const disconnects = () =>
      entries().filter((e) => e.msg === 'client disconnected before the answer was sent');
    while (disconnects().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(disconnects().map((e) => e.level)).toEqual([30, 30]);
    expect(entries().filter((e) => e.level >= 40)).toEqual([]);

    const metrics = await (await fetch(`${server.base}/metrics`, { headers: bearer(token) })).text();
    const generate = metrics
      .split('\n')
      .filter((line) =>
        line.startsWith('deckforge_http_requests_total{method="POST",route="/v1.0/generator/create"'),
      );
    expect(generate).toEqual([
      'deckforge_http_requests_total{method="POST",route="/v1.0/generator/create",status="499"} 2',
    ]);
    // The server goes on answering.
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
  }, 60_000);
});
