/**
 * The HTTP server while it closes (bounded shutdown): an answer finished during close() ends its
 * connection, so close() does not wait out a keep-alive timeout; a request arriving meanwhile is a 503 in
 * shape B with Retry-After, not Fastify's own body.
 */
import { describe, expect, it } from 'vitest';
import { bearer, startServer } from '../support/servers/http-harness.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';

describe('closing', () => {
  it('finishes running requests, closes their connections, and answers newcomers 503 in shape B', async () => {
    const server = await startServer({ overrides: { limits: { syncMaxSlides: 5000 } } });
    try {
      const { token } = await server.signUp({ plan: 'Enterprise' });
      const running = fetch(`${server.base}/v1.0/generator/create`, {
        method: 'POST',
        body: uploadForm(titleDeck(5000)),
        headers: bearer(token),
      });
      // Once the request is in generation, start closing.
      while ((await server.runtime.service.health()).workers.busy === 0) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const started = Date.now();
      const closed = server.server.close();
      const newcomer = await server.server.app.inject({ method: 'GET', url: '/healthz' });
      expect(newcomer.statusCode).toBe(503);
      expect(newcomer.headers['retry-after']).toBe('5');
      expect(newcomer.headers['x-content-type-options']).toBe('nosniff');
      expect(JSON.parse(newcomer.body)).toEqual({
        statusCode: 503,
        message: 'Service Unavailable',
        detail: expect.stringMatching(/shutting down/),
      });
      const answer = await running;
      expect(answer.status).toBe(200);
      expect(answer.headers.get('connection')).toBe('close');
      await answer.arrayBuffer();
      await closed;
      expect(Date.now() - started).toBeLessThan(30_000); // a keep-alive connection would hold it for 72 s
    } finally {
      await server.close();
    }
  });
});
