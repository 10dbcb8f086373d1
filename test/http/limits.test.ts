/** Each configured request limit is a 400 shape A whose details name the limit. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { TEMPLATE_NAME, templateBytes } from '../support/servers/http-harness-paths.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';

let server: RunningServer;
let token: string;
const template = templateBytes();
const MB = 1024 * 1024;

beforeAll(async () => {
  server = await startServer({
    overrides: {
      limits: { maxUploadBytes: MB, maxFilesPerRequest: 2, maxSlidesPerRequest: 20, syncMaxSlides: 10 },
    },
  });
  token = (await server.signUp({ plan: 'Enterprise' })).token;
});
afterAll(async () => server.close());

async function expectLimit(response: Response, pattern: RegExp): Promise<void> {
  expect(response.status).toBe(400);
  const body = (await response.json()) as { details: string };
  expect(body).toEqual({ statusCode: 400, message: 'Invalid input parameters', details: expect.any(String) });
  expect(body.details).toMatch(pattern);
}

const post = (path: string, body: RequestInit['body'], headers: Record<string, string> = {}) =>
  fetch(`${server.base}${path}`, { method: 'POST', body, headers: { ...bearer(token), ...headers } });

describe('request limits', () => {
  it('upload size: one file larger than the limit', async () => {
    const big = new Uint8Array(MB + 10);
    const response = await post(
      '/v1.0/generator/create',
      uploadForm(titleDeck(1), [{ name: TEMPLATE_NAME, bytes: big }]),
    );
    await expectLimit(response, /upload size limit of 1048576 bytes.*DECKFORGE_MAX_UPLOAD_MB/);
  });

  it('upload size: files that together exceed the limit', async () => {
    const half = new Uint8Array(MB * 0.6);
    const response = await post(
      '/v2.0/generator/create-async',
      uploadForm(titleDeck(1), [
        { name: 'a.bin', bytes: half },
        { name: 'b.bin', bytes: half },
      ]),
    );
    await expectLimit(response, /upload size limit/);
  });

  it('upload size: a JSON or form body larger than the limit', async () => {
    const padding = 'x'.repeat(MB + 10);
    await expectLimit(
      await post('/v1.0/generator/create', JSON.stringify({ jsonData: titleDeck(1), padding }), {
        'content-type': 'application/json',
      }),
      /upload size limit/,
    );
    await expectLimit(
      await post('/v1.0/generator/create', new URLSearchParams({ jsonData: padding })),
      /upload size limit/,
    );
  });

  it('files per request', async () => {
    const files = ['a.pptx', 'b.png', 'c.png'].map((name) => ({ name, bytes: template.slice(0, 100) }));
    await expectLimit(
      await post('/v1.0/generator/create', uploadForm(titleDeck(1), files)),
      /at most 2 files.*DECKFORGE_MAX_FILES_PER_REQUEST/,
    );
  });

  it('slides per request, on both generation styles', async () => {
    await expectLimit(await post('/v2.0/generator/create-async', uploadForm(titleDeck(21))), /20/);
    await expectLimit(await post('/v1.0/generator/create', uploadForm(titleDeck(21))), /20/);
  });

  it('slides per synchronous request, pointing to the asynchronous endpoint', async () => {
    await expectLimit(await post('/v1.0/generator/create', uploadForm(titleDeck(11))), /10/);
  });

  it('all_slides entries count as the slides of their template (10 each), before any work', async () => {
    const wholeTemplate = (times: number) => ({
      presentation: {
        template: TEMPLATE_NAME,
        slides: Array.from({ length: times }, () => ({ all_slides: true })),
      },
    });
    const sameAs = async (whole: Response, listed: Response) => {
      expect([whole.status, listed.status]).toEqual([400, 400]);
      expect(await whole.json()).toEqual(await listed.json());
    };
    // Two entries: 20 slides, over the synchronous limit of 10 though within the request limit of 20.
    await sameAs(
      await post('/v1.0/generator/create', uploadForm(wholeTemplate(2))),
      await post('/v1.0/generator/create', uploadForm(titleDeck(20))),
    );
    // Three: 30 slides, over the request limit of 20 for a job too.
    await sameAs(
      await post('/v2.0/generator/create-async', uploadForm(wholeTemplate(3))),
      await post('/v2.0/generator/create-async', uploadForm(titleDeck(30))),
    );
  });

  it('an all_slides entry of a stored template counts its slides too', async () => {
    const form = new FormData();
    form.append('file', new Blob([template]), 'kept.pptx');
    const storing = await fetch(`${server.base}/v1.0/templates`, {
      method: 'POST',
      body: form,
      headers: bearer(token),
    });
    expect(storing.status).toBeLessThan(300);
    const whole = {
      presentation: { template: 'kept.pptx', slides: [{ all_slides: true }, { all_slides: true }] },
    };
    const response = await post('/v1.0/generator/create', uploadForm(whole, []));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { details: string }).details).toBe(
      'the request asks for 20 slides; synchronous generation accepts at most 10: use POST /v2.0/generator/create-async for larger decks',
    );
  });

  it('none of the refused requests drew on the allowance', async () => {
    expect(await usedSlides()).toBe(0);
  });

  it('an all_slides entry within the limits is made, and charged as its 10 slides', async () => {
    const response = await post(
      '/v1.0/generator/create',
      uploadForm({ presentation: { template: TEMPLATE_NAME, slides: [{ all_slides: true }] } }),
    );
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect(await usedSlides()).toBe(10);
  });
});

async function usedSlides(): Promise<number> {
  const response = await fetch(`${server.base}/v1.0/usage`, { headers: bearer(token) });
  return ((await response.json()) as { result: { usedSlideCount: number } }).result.usedSlideCount;
}
