/**
 * Requests to POST /v1.0/token/create that Fastify refuses before the route runs (a body that is not JSON, a
 * content type no parser takes, a body over the upload limit) are the client's mistake: 400 in the token shape
 * (interface § Token response), saying what was wrong — never a 500, never Fastify's own body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/servers/http-harness.js';

let server: RunningServer;
const MB = 1024 * 1024;

beforeAll(async () => {
  server = await startServer({ overrides: { limits: { maxUploadBytes: MB } } });
});
afterAll(async () => server.close());

async function expectTokenRefusal(response: Response, message: RegExp): Promise<void> {
  expect(response.status).toBe(400);
  const body = (await response.json()) as { Message: string };
  expect(body).toEqual({ isSuccess: false, Message: expect.any(String), Result: {} });
  expect(body.Message).toMatch(message);
}

const postToken = (body: RequestInit['body'], contentType?: string): Promise<Response> =>
  fetch(`${server.base}/v1.0/token/create`, {
    method: 'POST',
    body,
    ...(contentType ? { headers: { 'content-type': contentType } } : {}),
  });

describe('POST /v1.0/token/create: bodies refused before the route runs', () => {
  it('malformed JSON is a 400 in the token shape, saying the body is not valid JSON', async () => {
    await expectTokenRefusal(
      await postToken('{"username": "a@example.test", "password":', 'application/json'),
      /not valid JSON/,
    );
  });

  it('a content type no parser takes is a 400 in the token shape, naming the ones accepted', async () => {
    await expectTokenRefusal(
      await postToken('<credentials username="a@example.test"/>', 'application/xml'),
      /unsupported Content-Type: send multipart\/form-data, application\/x-www-form-urlencoded or application\/json/,
    );
  });

  it('a JSON or form body over the upload limit is a 400 in the token shape, naming the limit', async () => {
    const padding = 'x'.repeat(MB + 10);
    const limit = /upload size limit of 1048576 bytes .*DECKFORGE_MAX_UPLOAD_MB/;
    await expectTokenRefusal(
      await postToken(
        JSON.stringify({ username: 'a@example.test', password: padding, key: 'k' }),
        'application/json',
      ),
      limit,
    );
    await expectTokenRefusal(
      await postToken(new URLSearchParams({ username: 'a@example.test', password: padding, key: 'k' })),
      limit,
    );
  });

  it('none of them is logged as a server fault', () => {
    const faults = server.logs.filter((line) => (JSON.parse(line) as { level?: number }).level! >= 50);
    expect(faults).toEqual([]);
  });
});
