/**
 * Picture URLs through the service, with the real worker-thread pool (which runs the image preparation step):
 * served by a local web server, fetched once per request however often the payload uses them, converted on the
 * generation thread when their format needs it; a picture that cannot be fetched fails the request (sync) or the
 * job, naming the shape and the URL; a private address is refused unless allowed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../../src/engine/index.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { layoutsTemplate } from '../../support/decks/layouts-template.js';
import { png, webp, GREEN } from '../../support/decks/test-images.js';
import { DeckReader } from '../../support/readers/picture-reading.js';
import { startHarness, waitForJob, type Harness } from '../service-harness.js';

/** Slide 9 of the project's layouts template has the pictures "Picture 10" and "Picture 11" and a text body. */
const TEMPLATE = layoutsTemplate();
let h: Harness;
let server: Server;
let base = '';
const hits = new Map<string, number>();
const served = new Map<string, Uint8Array>();

beforeAll(async () => {
  served.set('/logo.png', await png(300, 100));
  served.set('/photo.webp', await webp(120, 160, GREEN));
  server = createServer((request, response) => {
    const path = request.url ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const body = served.get(path);
    if (body) response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  h = await startHarness({ overrides: { allowPrivateUrls: true } });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await new Promise((resolve) => server?.close(resolve));
});

function request(slides: unknown[]) {
  return {
    jsonData: JSON.stringify({ presentation: { template: 'layouts.pptx', slides } }),
    // A copy each time: the pool moves (detaches) the buffers it sends to a worker thread.
    files: [{ name: 'layouts.pptx', bytes: TEMPLATE.slice() }],
  };
}

describe('picture URLs through the service', () => {
  it('fetches each URL once, converts WebP on the generation thread, and stores each image once', async () => {
    const user = await h.signUp();
    hits.clear();
    const slides = Array.from({ length: 4 }, () => ({
      slide_index: 9,
      shapes: [
        { name: 'Picture 10', content: `${base}/logo.png` },
        { name: 'Picture 11', filename: `${base}/photo.webp`, fit: 'cover' },
      ],
    }));
    const deck = await (await h.service.generateNow(user.account, request(slides))).content.bytes();
    expect(hits.get('/logo.png')).toBe(1);
    expect(hits.get('/photo.webp')).toBe(1);
    const reader = new DeckReader(deck);
    const parts = reader.slideParts();
    expect(reader.picture(parts[3]!, 'Picture 10').raster).toEqual(served.get('/logo.png'));
    const converted = reader.picture(parts[3]!, 'Picture 11').raster!;
    expect([...converted.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
    const media = Object.keys(reader.files).filter((n) => n.startsWith('ppt/media/'));
    expect(
      media.filter((n) => Buffer.compare(reader.files[n]!, served.get('/logo.png')!) === 0),
    ).toHaveLength(1);
    await expectValidPptx(deck, TEMPLATE);
  });

  it('a picture URL that fails is a 400 (sync) and a FAILED job, naming the shape and the URL', async () => {
    const user = await h.signUp();
    const url = `${base}/missing.png`;
    const slides = [{ slide_index: 9, shapes: [{ name: 'Picture 10', content: url, fit: 'cover' }] }];
    const error = await h.service.generateNow(user.account, request(slides)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).message).toBe(
      `presentation.slides[0].shapes[0].content: picture URL ${url} answered HTTP 404`,
    );
    const { jobId } = await h.service.submitJob(user.account, request(slides));
    const failed = await waitForJob(h.service, user.account, jobId);
    expect(failed.status).toBe('FAILED');
    expect(failed.errorMessage).toContain('presentation.slides[0].shapes[0].content');
    expect(failed.errorMessage).toContain(`picture URL ${url} answered HTTP 404`);
    expect((await h.service.usage(user.account)).usedSlideCount).toBe(0);
  });

  it('a bare string that looks like a URL stays text on a text shape when it cannot be fetched', async () => {
    const user = await h.signUp();
    const url = `${base}/not-a-picture`;
    const slides = [{ slide_index: 9, shapes: [{ name: 'Content Placeholder 5', content: url }] }];
    const deck = await (await h.service.generateNow(user.account, request(slides))).content.bytes();
    const reader = new DeckReader(deck);
    expect(reader.text(reader.slideParts()[0]!)).toContain(url);
  });
});

describe('picture URLs under the default configuration', () => {
  it('a picture on a private address is refused, naming the shape', async () => {
    const strict = await startHarness();
    try {
      const user = await strict.signUp();
      hits.clear();
      const slides = [{ slide_index: 9, shapes: [{ name: 'Picture 10', filename: `${base}/logo.png` }] }];
      const error = await strict.service.generateNow(user.account, request(slides)).catch((e: unknown) => e);
      expect((error as EngineError).message).toMatch(
        /^presentation\.slides\[0\]\.shapes\[0\]\.filename: picture URL http:\/\/127\.0\.0\.1:\d+\/logo\.png is refused: its host resolves to 127\.0\.0\.1/,
      );
      expect(hits.size).toBe(0);
    } finally {
      await strict.close();
    }
  }, 60_000);
});
