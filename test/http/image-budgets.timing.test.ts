/**
 * Image work inside the budgets (docs/payload-pictures.md, "Limits and refusals"). The probes' files, made in
 * the test, sent as pictures to a running server: a filter-bomb SVG, an SVG carrying a raster past the pixel
 * limit, an RLE BMP whose runs overwrite one row, an SVG with scripts and outside references. Each is a quick
 * answer naming the file and the shape, /healthz answers meanwhile, and an ordinary SVG still renders. One
 * thread, and a generation budget of 60 s: before the fix the bomb and the BMP held it to the end (past these
 * tests' time limits), and the answer blamed the deck's size. (The first SVG rendered starts the thread's
 * conversion process: under the tests that compiles its TypeScript.)
 */
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import {
  activeSvg,
  filterBombSvg,
  hugeFlatPng,
  overwritingRleBmp,
  svgEmbedding,
} from '../support/decks/hostile-images.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { TEMPLATE_NAME, templateBytes } from '../support/servers/http-harness-paths.js';
import { uploadForm } from '../support/http/payloads.js';

let server: RunningServer;
let token: string;
const template = templateBytes();
const PATH = 'presentation.slides[0].shapes[0].filename';

beforeAll(async () => {
  server = await startServer({
    overrides: { workers: 1, generationTimeoutMs: 60_000 },
  });
  token = (await server.signUp({ plan: 'Enterprise' })).token;
});
afterAll(async () => server.close());

/** Sends `bytes` as the picture of slide 0's title; /healthz is asked every 100 ms until the answer comes. */
async function sendPicture(
  name: string,
  bytes: Uint8Array,
): Promise<{ response: Response; seconds: number; slowestHealthMs: number }> {
  const jsonData = {
    presentation: {
      template: TEMPLATE_NAME,
      slides: [{ slide_index: 0, shapes: [{ name: 'Title 1', filename: name }] }],
    },
  };
  const started = Date.now();
  let answered = false;
  const pending = fetch(`${server.base}/v1.0/generator/create`, {
    method: 'POST',
    headers: bearer(token),
    body: uploadForm(jsonData, [
      { name: TEMPLATE_NAME, bytes: template },
      { name, bytes },
    ]),
  }).finally(() => (answered = true));
  let slowestHealthMs = 0;
  while (!answered) {
    const asked = Date.now();
    const health = await fetch(`${server.base}/healthz`, { signal: AbortSignal.timeout(5000) });
    expect(health.status).toBe(200);
    slowestHealthMs = Math.max(slowestHealthMs, Date.now() - asked);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const response = await pending;
  return { response, seconds: (Date.now() - started) / 1000, slowestHealthMs };
}

async function expectRefusal(response: Response, detail: RegExp): Promise<string> {
  const body = (await response.json()) as { details: string };
  expect(response.status, body.details).toBe(400);
  expect(body).toEqual({ statusCode: 400, message: 'Invalid input parameters', details: expect.any(String) });
  expect(body.details).toMatch(detail);
  return body.details;
}

describe('image work inside the budgets', () => {
  it('the 677-byte filter-bomb SVG is a quick 400 naming the file and the shape; /healthz answers meanwhile', async () => {
    const { response, seconds, slowestHealthMs } = await sendPicture('bomb.svg', filterBombSvg());
    await expectRefusal(
      response,
      new RegExp(
        `^${PATH.replace(/[.[\]]/g, '\\$&')}: picture "bomb.svg" uses SVG filters that cost too much`,
      ),
    );
    expect(seconds).toBeLessThan(5);
    expect(slowestHealthMs).toBeLessThan(1000);
  }, 30_000);

  it('a raster inside an SVG meets the pixel limit of an uploaded picture', async () => {
    // 8 000 × 8 000 is over the default 50 000 000 pixels; before the fix librsvg decoded it and it was stored.
    const { response } = await sendPicture('smuggled.svg', svgEmbedding(hugeFlatPng(8000, 8000)));
    await expectRefusal(
      response,
      /the image inside picture "smuggled\.svg" is 8000 × 8000 pixels, over the limit of 50,000,000 pixels/,
    );
  }, 30_000);

  it('the probe’s 20 000 × 20 000 PNG in a 100 × 100 SVG is refused before anything decodes it', async () => {
    const { response, seconds } = await sendPicture(
      'smuggled.svg',
      svgEmbedding(hugeFlatPng(20_000, 20_000)),
    );
    await expectRefusal(response, /the image inside picture "smuggled\.svg" is 20000 × 20000 pixels/);
    expect(seconds).toBeLessThan(5);
  }, 30_000);

  it('an RLE BMP whose runs overwrite one row is refused from its data, as an image problem', async () => {
    const { response, seconds } = await sendPicture('rows.bmp', overwritingRleBmp(8));
    const details = await expectRefusal(
      response,
      /picture "rows\.bmp" is a BMP that cannot be read: its run-length data writes more pixels than its 50000000 × 1 header holds/,
    );
    expect(details).not.toMatch(/fewer slides/);
    expect(seconds).toBeLessThan(5);
  }, 30_000);

  it('an SVG is stored without scripts, handlers or outside references, and a warning says so', async () => {
    const { response } = await sendPicture('active.svg', activeSvg());
    expect(response.status).toBe(200);
    const warnings = JSON.parse(response.headers.get('x-generation-warnings-detail') ?? '[]') as unknown[];
    expect(warnings).toContainEqual({
      path: PATH,
      message: expect.stringMatching(
        /picture "active\.svg": removed from the SVG for safety: .*a script.*event handlers|event handlers.*a script/,
      ),
    });
    const deck = new Uint8Array(await response.arrayBuffer());
    await expectValidPptx(deck, template);
    const svgs = Object.entries(unzipSync(deck)).filter(([name]) => /^ppt\/media\/.*\.svg$/.test(name));
    expect(svgs).toHaveLength(1);
    const stored = new TextDecoder().decode(svgs[0]![1]);
    expect(stored).toContain('<rect id="sq" width="100" height="100" fill="red"/>');
    expect(stored).toContain('<use href="#sq"/>');
    for (const gone of ['<script', 'onload', 'onclick', 'file:', 'http://attacker', 'javascript:', '@import'])
      expect(stored).not.toContain(gone);
  }, 30_000);

  it('an ordinary SVG with a drop shadow still renders at full size', async () => {
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100"><filter id="s">' +
        '<feGaussianBlur stdDeviation="3"/><feOffset dx="2" dy="2"/><feMerge><feMergeNode/>' +
        '<feMergeNode in="SourceGraphic"/></feMerge></filter>' +
        '<rect x="10" y="10" width="150" height="70" fill="teal" filter="url(#s)"/></svg>',
    );
    const { response } = await sendPicture('shadow.svg', svg);
    expect(response.status).toBe(200);
    const deck = new Uint8Array(await response.arrayBuffer());
    await expectValidPptx(deck, template);
    const media = Object.keys(unzipSync(deck)).filter((name) => name.startsWith('ppt/media/'));
    expect(media.some((name) => name.endsWith('.svg'))).toBe(true);
    expect(media.some((name) => name.endsWith('.png'))).toBe(true);
  }, 30_000);
});
