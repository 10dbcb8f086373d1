/**
 * Requests an attacker sends: each ends in a 4xx in the interface's shapes, never a 500, a hang or
 * Fastify's own error body, and the server keeps serving. One server for the file; two generation threads, so
 * "as many bad requests as there are workers" is a small number.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { TEMPLATE_NAME, templateBytes } from '../support/servers/http-harness-paths.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';
import { oneConnectionClient, rawRequest } from '../support/http/raw-http.js';

let server: RunningServer;
let token: string;
const template = templateBytes();
const WORKERS = 2;

beforeAll(async () => {
  server = await startServer({ overrides: { workers: WORKERS } });
  token = (await server.signUp({ plan: 'Enterprise' })).token;
});
afterAll(async () => server.close());

/** The reproduction: a valid deck whose `presentation.x` is `depth` nested arrays. */
function deepJsonData(depth: number): string {
  return `{"presentation":{"template":"${TEMPLATE_NAME}","slides":[{"slide_index":0}],"x":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
}

function post(path: string, body: RequestInit['body'], headers: Record<string, string> = {}) {
  return fetch(`${server.base}${path}`, { method: 'POST', body, headers: { ...bearer(token), ...headers } });
}

async function expectShapeA(response: Response, details: RegExp): Promise<void> {
  const body = (await response.json()) as Record<string, unknown>;
  expect({ status: response.status, body }).toEqual({
    status: 400,
    body: { statusCode: 400, message: 'Invalid input parameters', details: expect.stringMatching(details) },
  });
}

/** No request of this file may have been logged as a server fault (level 50: "request failed"). */
function serverFaults(): string[] {
  return server.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
}

/** A normal request must still be answered promptly: the pool is not stuck. */
async function expectServing(): Promise<void> {
  const response = await Promise.race([
    post('/v1.0/generator/create', uploadForm(titleDeck(1))),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000)),
  ]);
  expect(response, 'a normal request hung after the hostile ones').not.toBeNull();
  expect(response?.status).toBe(200);
  await expectValidPptx(new Uint8Array(await (response as Response).arrayBuffer()), template);
}

describe('deeply nested jsonData', () => {
  // Levels 1 and 2 are the envelope and `presentation`, 3 is `x`: the 65th is x[0] nested 62 times.
  const PATH = /^presentation\.x(\[0\]){62}: JSON nested deeper than 64 levels/;

  it('is a 400 naming the path on every route in, and generation keeps working after', async () => {
    const deep = deepJsonData(4000);
    const attempts = await Promise.all([
      ...Array.from({ length: WORKERS + 1 }, () => post('/v1.0/generator/create', uploadForm(deep))),
      post('/v2.0/generator/create-async', uploadForm(deep)),
      post('/v1.0/generator/create', new URLSearchParams({ jsonData: deep })),
    ]);
    for (const response of attempts) await expectShapeA(response, PATH);
    // As a JSON body, `jsonData` is one level more.
    const asJson = await post('/v2.0/generator/create-async', `{"jsonData":${deep}}`, {
      'content-type': 'application/json',
    });
    await expectShapeA(asJson, /^jsonData\.presentation\.x(\[0\]){61}: JSON nested deeper than 64 levels/);
    await expectServing();
    expect(serverFaults()).toEqual([]);
  });

  it('a JSON body nested too deep is refused before it is parsed, wherever the nesting is', async () => {
    const response = await post('/v1.0/generator/create', `{"jsonData":${'['.repeat(100_000)}`, {
      'content-type': 'application/json',
    });
    await expectShapeA(response, /^jsonData(\[0\]){63}: JSON nested deeper than 64 levels/);
    const token = await fetch(`${server.base}/v1.0/token/create`, {
      method: 'POST',
      body: `{"username":${'['.repeat(70)}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(token.status).toBe(400);
    expect(await token.json()).toEqual({
      isSuccess: false,
      Message: expect.stringMatching(/nested deeper than 64/),
      Result: {},
    });
  });

  it('a document of millions of pieces (here line breaks in one run) is refused before anything parses it', async () => {
    // Found by the parser fuzzer: 4 million "\n" in a text run took 3.3 s and 1.2 GB on the main thread.
    const runs = [{ text_run: '\n'.repeat(2_100_000) }];
    const jsonData = titleDeck(1) as { presentation: { slides: { shapes: unknown[] }[] } };
    jsonData.presentation.slides[0]!.shapes = [{ name: 'Title 1', content: runs }];
    const started = Date.now();
    const response = await post('/v1.0/generator/create', uploadForm(jsonData));
    await expectShapeA(
      response,
      /^jsonData: the document holds more than 2000000 objects, arrays and line breaks/,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('nesting up to the limit is still accepted', async () => {
    const response = await post('/v1.0/generator/create', uploadForm(deepJsonData(62)));
    expect(response.status).toBe(200);
    await expectValidPptx(new Uint8Array(await response.arrayBuffer()), template);
  });
});

describe('malformed bodies', () => {
  const multipart = { 'content-type': 'multipart/form-data; boundary=xyz' };

  it('a multipart body that is not multipart is a 400 in shape A', async () => {
    await expectShapeA(await post('/v1.0/generator/create', 'hello', multipart), /multipart.*malformed/);
  });

  it('a part without its closing boundary is a 400 in shape A', async () => {
    const body = '--xyz\r\nContent-Disposition: form-data; name="jsonData"\r\n\r\n{"presentation":{}}';
    await expectShapeA(await post('/v2.0/generator/create-async', body, multipart), /malformed/);
  });

  it('a multipart content type without a boundary is a 400 in shape A', async () => {
    const response = await post('/v1.0/generator/create', 'hello', { 'content-type': 'multipart/form-data' });
    await expectShapeA(response, /malformed/);
  });

  it('a malformed chunked body is a 400 in shape A, not Fastify’s body', async () => {
    const response = await rawRequest(
      server.base,
      `POST /v1.0/generator/create HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\nhello\r\n0\r\n\r\n',
    );
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      statusCode: 400,
      message: 'Invalid input parameters',
      details: expect.stringMatching(/malformed HTTP request: .*chunk/i),
    });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('no malformed body was logged as a server fault', () => {
    expect(serverFaults()).toEqual([]);
  });
});

describe('requests Fastify refuses before routing', () => {
  it('headers too large: 400 in shape A, not Fastify’s 431 body', async () => {
    const response = await fetch(`${server.base}/healthz`, { headers: { 'x-padding': 'a'.repeat(20_000) } });
    await expectShapeA(response, /headers are too large: at most \d+ bytes/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('an over-long job id: 404 in shape B', async () => {
    const response = await fetch(`${server.base}/v2.0/jobs/${'a'.repeat(300)}/status`, {
      headers: bearer(token),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      statusCode: 404,
      message: 'Not Found',
      detail: expect.any(String),
    });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('a URL that does not decode: 400 in shape A', async () => {
    const response = await fetch(`${server.base}/v2.0/jobs/%E0%A4%A/status`, { headers: bearer(token) });
    await expectShapeA(response, /URL is malformed/);
  });

  it('a malformed request line: 400 in shape A', async () => {
    const response = await rawRequest(server.base, 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ statusCode: 400, message: 'Invalid input parameters' });
  });
});

describe('awkward text', () => {
  it('a resultFileName with half a surrogate pair still names the download (found by the HTTP fuzzer: a 500)', async () => {
    const response = await post(
      '/v1.0/generator/create',
      uploadForm(titleDeck(1, { resultFileName: 'Report \ud800 Q3 \udfff' })),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="Report  Q3.pptx"');
    await expectValidPptx(new Uint8Array(await response.arrayBuffer()), template);
  });
});

describe('ambiguous forms', () => {
  const deck = JSON.stringify(titleDeck(1));

  it('jsonData sent twice (multipart, urlencoded, or as a file and a field) is a 400 naming it', async () => {
    const twice = uploadForm(deck);
    twice.append('jsonData', deck);
    await expectShapeA(await post('/v1.0/generator/create', twice), /^jsonData: .*sent more than once/);
    const asFileToo = uploadForm(deck);
    asFileToo.append('jsonData', new Blob([deck]), 'payload.json');
    await expectShapeA(await post('/v2.0/generator/create-async', asFileToo), /^jsonData: .*more than once/);
    const urlencoded = `jsonData=${encodeURIComponent(deck)}&jsonData=${encodeURIComponent(deck)}`;
    const response = await post('/v1.0/generator/create', urlencoded, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    await expectShapeA(response, /^jsonData: .*more than once/);
  });

  it('a multipart body refused half-read does not stall the next request on the same connection', async () => {
    // Found by the HTTP fuzzer: the unread rest of the body held the keep-alive connection, and the next
    // request on it waited forever.
    const client = oneConnectionClient(server.base);
    try {
      const refused = uploadForm(deck, [
        { name: TEMPLATE_NAME, bytes: template },
        { name: TEMPLATE_NAME, bytes: template },
        { name: 'padding.bin', bytes: new Uint8Array(3_000_000) },
      ]);
      expect((await client.post('/v1.0/generator/create', refused, bearer(token))).status).toBe(400);
      const next = await client.post('/v1.0/generator/create', uploadForm(deck), bearer(token));
      expect(next.status).toBe(200);
    } finally {
      client.close();
    }
  });

  it('two uploaded files of one name are a 400 naming the name', async () => {
    const form = uploadForm(deck, [
      { name: TEMPLATE_NAME, bytes: template },
      { name: TEMPLATE_NAME, bytes: template },
    ]);
    await expectShapeA(
      await post('/v1.0/generator/create', form),
      /two uploaded files are named "layouts\.pptx"/,
    );
  });
});
