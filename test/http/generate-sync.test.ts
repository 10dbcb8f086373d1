/**
 * Endpoint 2, POST /v1.0/generator/create: the three body styles, the file headers, warnings, and the error rows
 * 400 / 401 / 429 (500: server-errors.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itCorpus, readCorpus } from '../support/corpus/corpus.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { bearer, expectShapeB, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { TEMPLATE_NAME, templateBytes } from '../support/servers/http-harness-paths.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';
import { slideTexts } from '../support/readers/pptx-reading.js';
import { hostTemplate, type TemplateHost } from '../support/servers/template-host.js';

const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
let server: RunningServer;
let token: string;
let host: TemplateHost;
const template = templateBytes();

beforeAll(async () => {
  // Loopback template URLs are refused by default (ssrf.test.ts); this file exercises the link variant.
  server = await startServer({ overrides: { allowPrivateUrls: true } });
  token = (await server.signUp()).token;
  host = await hostTemplate();
});
afterAll(async () => {
  await server.close();
  await host.close();
});

async function generate(body: RequestInit['body'], headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.base}/v1.0/generator/create`, {
    method: 'POST',
    body,
    headers: { ...bearer(token), ...headers },
  });
}

async function expectShapeA(response: Response, detailsPattern: RegExp): Promise<void> {
  expect(response.status).toBe(400);
  const body = (await response.json()) as { details: string };
  expect(body).toEqual({ statusCode: 400, message: 'Invalid input parameters', details: expect.any(String) });
  expect(body.details).toMatch(detailsPattern);
}

describe('POST /v1.0/generator/create', () => {
  it('returns the deck for a multipart upload, named after resultFileName', async () => {
    const response = await generate(uploadForm(titleDeck(3, { resultFileName: 'Quarterly review' })));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(PPTX);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="Quarterly review.pptx"');
    expect(response.headers.get('x-generation-warnings')).toBe('0');
    expect(JSON.parse(response.headers.get('x-generation-warnings-detail') ?? 'null')).toEqual([]);
    expect(response.headers.get('x-slide-count')).toBe('3');
    const bytes = new Uint8Array(await response.arrayBuffer());
    await expectValidPptx(bytes, template);
    const texts = slideTexts(bytes);
    expect(texts).toHaveLength(3);
    expect(texts[2]).toContain('Slide 3 title');
  });

  it('accepts several files (template plus an image) in one upload', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const response = await generate(
      uploadForm(titleDeck(1), [
        { name: TEMPLATE_NAME, bytes: template },
        { name: 'pixel.png', bytes: new Uint8Array(png) },
      ]),
    );
    expect(response.status).toBe(200);
    await expectValidPptx(new Uint8Array(await response.arrayBuffer()), template);
  });

  itCorpus('combines slides of two uploaded templates named in template_list', async () => {
    const second = readCorpus('Open-XML-SDK/Table_Large.pptx');
    const jsonData = {
      presentation: {
        template_list: [
          { template_id: 1, template: TEMPLATE_NAME },
          { template_id: 'tables', template: 'tables.pptx' },
        ],
        slides: [
          {
            template_id: 1,
            slide_index: 0,
            shapes: [{ name: 'Title 1', content: 'From the first template' }],
          },
          { template_id: 'tables', slide_index: 0 },
          { template_id: 1, slide_index: 0, shapes: [{ name: 'Title 1', content: 'First template again' }] },
        ],
      },
    };
    const response = await generate(
      uploadForm(jsonData, [
        { name: TEMPLATE_NAME, bytes: template },
        { name: 'tables.pptx', bytes: second },
      ]),
    );
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const texts = slideTexts(bytes);
    expect(texts).toHaveLength(3);
    expect(texts[0]).toContain('From the first template');
    expect(texts[2]).toContain('First template again');
    await expectValidPptx(bytes, [template, second]);
  });

  it('accepts jsonData sent as a file part (curl -F jsonData=@payload.json)', async () => {
    const form = new FormData();
    form.append('files', new Blob([template]), TEMPLATE_NAME);
    form.append(
      'jsonData',
      new Blob([JSON.stringify(titleDeck(2))], { type: 'application/json' }),
      'payload.json',
    );
    const response = await generate(form);
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    await expectValidPptx(bytes, template);
    expect(slideTexts(bytes)).toHaveLength(2);
  });

  it('sends a non-ASCII file name with RFC 6266 filename*', async () => {
    const response = await generate(uploadForm(titleDeck(1, { resultFileName: 'Übersicht 2026 – Q1' })));
    expect(response.status).toBe(200);
    const disposition = response.headers.get('content-disposition') ?? '';
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
    const encoded = /filename\*=UTF-8''(.+)$/.exec(disposition)?.[1] ?? '';
    expect(decodeURIComponent(encoded)).toBe('Übersicht 2026 – Q1.pptx');
    await expectValidPptx(new Uint8Array(await response.arrayBuffer()), template);
  });

  it('reports warnings in X-Generation-Warnings and its detail header', async () => {
    const payload = titleDeck(1);
    (payload.presentation as Record<string, unknown>).colour_scheme = 'ocean';
    const response = await generate(uploadForm(payload));
    expect(response.status).toBe(200);
    const count = Number(response.headers.get('x-generation-warnings'));
    expect(count).toBeGreaterThanOrEqual(1);
    const detail = JSON.parse(response.headers.get('x-generation-warnings-detail') ?? '[]') as {
      path: string;
    }[];
    expect(detail.some((w) => w.path.includes('colour_scheme'))).toBe(true);
    await expectValidPptx(new Uint8Array(await response.arrayBuffer()), template);
  });

  it('fetches the template by link for the form-urlencoded variant', async () => {
    const body = new URLSearchParams({ jsonData: JSON.stringify(titleDeck(2, { template: host.url })) });
    const response = await generate(body);
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    await expectValidPptx(bytes, template);
    expect(slideTexts(bytes)).toHaveLength(2);
  });

  it('accepts a plain application/json body, with or without the jsonData wrapper', async () => {
    for (const document of [
      titleDeck(1, { template: host.url }),
      { jsonData: titleDeck(1, { template: host.url }) },
    ]) {
      const response = await generate(JSON.stringify(document), { 'content-type': 'application/json' });
      expect(response.status).toBe(200);
      await expectValidPptx(new Uint8Array(await response.arrayBuffer()), template);
    }
  });

  describe('400, shape A', () => {
    it('malformed jsonData', async () => {
      await expectShapeA(await generate(uploadForm('{"presentation": ')), /json/i);
    });
    it('missing jsonData', async () => {
      const form = new FormData();
      form.append('files', new Blob([template]), TEMPLATE_NAME);
      await expectShapeA(await generate(form), /jsonData/);
    });
    it('a template name that matches no uploaded file', async () => {
      await expectShapeA(await generate(uploadForm(titleDeck(1, { template: 'other.pptx' }))), /other\.pptx/);
    });
    it('a slide_index beyond the template, naming the index and the slide count', async () => {
      await expectShapeA(
        await generate(uploadForm(titleDeck(1, { slideIndex: 42 }))),
        /42[\s\S]*10|10[\s\S]*42/,
      );
    });
    it('an empty slide list, naming the JSON path', async () => {
      const payload = titleDeck(1);
      payload.presentation.slides = [];
      await expectShapeA(await generate(uploadForm(payload)), /slides/);
    });
    it('a naive payload: every problem in one answer', async () => {
      const naive = { slides: [{ title: 'Welcome', content: 'Hello' }] };
      await expectShapeA(
        await generate(uploadForm(naive)),
        /^2 problems: \(1\) slides\[0\]: expected slide_index, slide_id or all_slides[^;]*; \(2\) template: expected template or template_list/,
      );
    });
    it('a body that is not JSON although it says so', async () => {
      await expectShapeA(await generate('{oops', { 'content-type': 'application/json' }), /JSON/);
    });
    it('an unsupported content type', async () => {
      await expectShapeA(
        await generate(new Uint8Array([1, 2, 3]), { 'content-type': 'application/pdf' }),
        /Content-Type/,
      );
    });
  });

  describe('401, shape B', () => {
    it.each([
      ['no Authorization header', {}],
      ['a token nobody issued', { authorization: 'Bearer not-a-real-token' }],
      ['another scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
    ])('%s', async (_case, headers: Record<string, string>) => {
      const response = await fetch(`${server.base}/v1.0/generator/create`, {
        method: 'POST',
        body: uploadForm(titleDeck(1)),
        headers,
      });
      await expectShapeB(response, 401, 'Unauthorized');
    });
  });
});
