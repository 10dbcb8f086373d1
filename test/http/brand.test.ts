/**
 * Brand from data over HTTP (docs/payload.md "Brand"): a theme and an uploaded font in `files` make a deck
 * synchronously and as a job, the font embedded; a font that is not one, a 40 MB font, a theme slot that does not
 * exist and a master index out of range are each a 400 (shape A) naming the field; POST /v1.0/template/inspect
 * lists the masters and layouts a payload's `masters` and `layouts` count.
 */
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { systemFont } from '../support/decks/test-fonts.js';
import { pollUntil, submitJob } from '../support/http/jobs-polling.js';
import { uploadForm } from '../support/http/payloads.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { TEMPLATE_NAME, templateBytes } from '../support/servers/http-harness-paths.js';

let server: RunningServer;
let token: string;
const template = templateBytes();
const FONT = systemFont('LiberationSerif-Regular.ttf');

beforeAll(async () => {
  server = await startServer();
  token = (await server.signUp()).token;
});
afterAll(async () => {
  await server.close();
});

function brandForm(presentation: Record<string, unknown>, font: Uint8Array = FONT): FormData {
  return uploadForm(
    {
      presentation: {
        template: TEMPLATE_NAME,
        fonts: [{ file: 'Brand-Regular.ttf' }],
        slides: [{ slide_index: 0 }, { slide_index: 1 }],
        ...presentation,
      },
    },
    [
      { name: TEMPLATE_NAME, bytes: template },
      { name: 'Brand-Regular.ttf', bytes: font },
    ],
  );
}

async function post(path: string, body: FormData): Promise<Response> {
  return fetch(`${server.base}${path}`, { method: 'POST', body, headers: bearer(token) });
}

async function expectRefusal(response: Response): Promise<string> {
  expect(response.status).toBe(400);
  const body = (await response.json()) as { statusCode: number; message: string; details: string };
  expect(body).toEqual({ statusCode: 400, message: 'Invalid input parameters', details: expect.any(String) });
  return body.details;
}

function embeddedTypefaces(deck: Uint8Array): string[] {
  const presentation = strFromU8(unzipSync(deck)['ppt/presentation.xml']!);
  return [...presentation.matchAll(/<p:embeddedFont><p:font typeface="([^"]+)"/g)].map((m) => m[1]!);
}

const THEME = {
  colors: { accent1: '#FF6600' },
  fonts: { major: 'Liberation Serif', minor: 'Liberation Serif' },
};

describe('brand over HTTP', () => {
  it('makes a deck with the theme and the uploaded font embedded, synchronously and as a job', async () => {
    const response = await post('/v1.0/generator/create', brandForm({ theme: THEME }));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-generation-warnings')).toBe('0');
    const deck = new Uint8Array(await response.arrayBuffer());
    await expectValidPptx(deck, template);
    expect(embeddedTypefaces(deck)).toEqual(['Liberation Serif']);
    expect(strFromU8(unzipSync(deck)['ppt/theme/theme1.xml']!)).toContain('<a:srgbClr val="FF6600"/>');

    const job = await submitJob(server.base, token, brandForm({ theme: THEME }));
    const { last } = await pollUntil(server.base, token, job, ['SUCCEEDED', 'FAILED']);
    expect(last.status, last.error_message ?? '').toBe('SUCCEEDED');
    const download = await fetch(last.file_url!);
    const fromJob = new Uint8Array(await download.arrayBuffer());
    await expectValidPptx(fromJob, template);
    expect(embeddedTypefaces(fromJob)).toEqual(['Liberation Serif']);
  });

  it('answers 400 naming the field for a font that is not one, a 40 MB font, a slot that does not exist and a master index out of range', async () => {
    const notAFont = new TextEncoder().encode('this is a text file called Brand-Regular.ttf');
    expect(await expectRefusal(await post('/v1.0/generator/create', brandForm({}, notAFont)))).toBe(
      'presentation.fonts[0].file: font file "Brand-Regular.ttf" is not a font: a .ttf or .otf file starts with an sfnt version or "OTTO"',
    );
    const huge = new Uint8Array(40 * 1024 * 1024);
    huge.set(FONT);
    expect(await expectRefusal(await post('/v1.0/generator/create', brandForm({}, huge)))).toBe(
      'presentation.fonts[0].file: font file "Brand-Regular.ttf" is 40.0 MB, over the 25.0 MB limit for one font',
    );
    expect(
      await expectRefusal(
        await post('/v1.0/generator/create', brandForm({ theme: { colors: { accent9: 'red' } } })),
      ),
    ).toMatch(/^presentation\.theme\.colors\.accent9: a theme has no colour slot "accent9"/);
    expect(
      await expectRefusal(
        await post('/v1.0/generator/create', brandForm({ masters: [{ index: 3, shapes: [] }] })),
      ),
    ).toBe(
      "presentation.masters[0].index: master index 3 is out of range: the template's slide masters are 1 (0–0)",
    );
    // A job is refused as it is submitted, before it is queued.
    const job = await fetch(`${server.base}/v2.0/generator/create-async`, {
      method: 'POST',
      body: brandForm({ theme: { colors: { accent1: 'not a colour' } } }),
      headers: bearer(token),
    });
    expect(await expectRefusal(job)).toMatch(/^presentation\.theme\.colors\.accent1: expected a colour/);
  });

  it('lists each master with its index and shapes, and the master of each layout (POST /v1.0/template/inspect)', async () => {
    const form = new FormData();
    form.append('files', new Blob([template]), TEMPLATE_NAME);
    const response = await post('/v1.0/template/inspect', form);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      masters: { index: number; name: string; shapes: { name: string; kind: string }[] }[];
      layouts: { index: number; master: number }[];
    };
    expect(body.masters.map((m) => m.index)).toEqual([0]);
    expect(body.masters[0]?.shapes.map((s) => s.name)).toEqual(
      expect.arrayContaining(['Title Placeholder 1', 'Footer Placeholder 4']),
    );
    expect(body.layouts.length).toBe(11);
    expect(body.layouts.every((l) => l.master === 0)).toBe(true);
  });
});
