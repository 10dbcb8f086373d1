/**
 * What happens on the connection when a request is refused before its body is read, seen on the
 * socket: the rest of the body is read and dropped and the connection serves the next request; a client that
 * waits for 100 Continue gets the final status instead; an upload past the bounds gets its answer, then the
 * connection ends.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/servers/http-harness.js';

const MiB = 1024 * 1024;
let server: RunningServer;
let token: string;

beforeAll(async () => {
  server = await startServer({ overrides: { limits: { maxUploadBytes: 2 * MiB } } });
  token = (await server.signUp({ plan: 'Enterprise' })).token;
});
afterAll(async () => server.close());

interface Conversation {
  socket: Socket;
  /** Everything the server sent so far. */
  received: () => string;
  /** Resolves once the server ended the connection (or reset it), with what it had sent. */
  ended: Promise<string>;
  /** Resolves once `pattern` has been received. */
  waitFor: (pattern: RegExp) => Promise<string>;
}

function open(): Promise<Conversation> {
  const { hostname, port } = new URL(server.base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    const waiters: { pattern: RegExp; resolve: (text: string) => void }[] = [];
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      for (const waiter of waiters.filter((w) => w.pattern.test(text))) waiter.resolve(text);
    });
    // Writes past a close may fail (EPIPE); what the server sent before is what the test looks at.
    socket.on('error', () => {});
    const ended = new Promise<string>((done) => socket.once('close', () => done(text)));
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => text,
        ended,
        waitFor: (pattern) =>
          pattern.test(text)
            ? Promise.resolve(text)
            : new Promise((done) => waiters.push({ pattern, resolve: done })),
      }),
    );
    socket.once('error', reject);
  });
}

const upload = (authorization: string, length: number, extra = '') =>
  `POST /v1.0/generator/create HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization}\r\n` +
  `Content-Type: application/octet-stream\r\nContent-Length: ${length}\r\n${extra}\r\n`;

/** Status lines in order (an answer's body is not followed by a line break, so not anchored to one). */
const statusLines = (text: string) => text.match(/HTTP\/1\.1 \d{3}[^\r]*/g) ?? [];

describe('a request refused before its body is read', () => {
  it('keeps the connection: the rest of the body is dropped and the next request is answered', async () => {
    const talk = await open();
    talk.socket.write(upload('Bearer not-a-token', 2 * MiB));
    await talk.waitFor(/"statusCode":401/);
    // The answer came before the body; the body still goes out, then a second request on the same connection.
    talk.socket.write(Buffer.alloc(2 * MiB, 0x61));
    talk.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const text = await talk.ended;
    expect(statusLines(text)).toEqual(['HTTP/1.1 401 Unauthorized', 'HTTP/1.1 200 OK']);
    expect(text).not.toMatch(/connection: close[\s\S]*HTTP\/1\.1 200/i);
  });

  it('answers Expect: 100-continue with the final status when it refuses, and closes', async () => {
    const talk = await open();
    talk.socket.write(upload('Bearer not-a-token', 2 * MiB, 'Expect: 100-continue\r\n'));
    const text = await talk.ended;
    expect(statusLines(text)).toEqual(['HTTP/1.1 401 Unauthorized']);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(text).toContain('"message":"Unauthorized"');
  });

  it('sends 100 Continue once authentication has passed', async () => {
    const talk = await open();
    const body = '{"presentation":';
    talk.socket.write(upload(`Bearer ${token}`, body.length, 'Expect: 100-continue\r\n'));
    await talk.waitFor(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    talk.socket.end(body);
    const text = await talk.ended;
    expect(statusLines(text)).toEqual(['HTTP/1.1 100 Continue', 'HTTP/1.1 400 Bad Request']);
  });

  it('answers, then ends the connection, when the rest of the body is larger than the upload limit', async () => {
    const talk = await open();
    talk.socket.write(upload('Bearer not-a-token', 8 * MiB));
    talk.socket.write(Buffer.alloc(8 * MiB, 0x61));
    const text = await talk.ended;
    expect(statusLines(text)).toEqual(['HTTP/1.1 401 Unauthorized']);
    expect(text).toContain('"message":"Unauthorized"');
  });

  it('answers, then ends the connection, when the rest of the body does not come within 5 s', async () => {
    const talk = await open();
    const started = Date.now();
    talk.socket.write(upload('Bearer not-a-token', MiB));
    talk.socket.write(Buffer.alloc(1000, 0x61));
    await talk.waitFor(/"statusCode":401/);
    const text = await talk.ended;
    expect(statusLines(text)).toEqual(['HTTP/1.1 401 Unauthorized']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
    expect(Date.now() - started).toBeLessThan(9_000);
  }, 15_000);
});
