/**
 * Previews draw the fonts a deck embeds (docs/previews.md "Fonts"), over a real socket with a real LibreOffice in
 * its sandbox: a payload's font, under a family this machine does not have, is named by pdffonts in the PDF of a
 * synchronous generation, of /v1.0/render and of a job, and takes other room on the page than the substitute; the
 * deck rendered right after, naming the family without embedding it, gets the substitute (the font went with its
 * one-off renderer); a template's own embedded font is drawn too; a font part that lies is not handed to
 * LibreOffice: the render says which part and why, and draws a substitute. One renderer, so every render here
 * takes the same slot.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { editPackage } from '../support/decks/package-edit.js';
import { systemFont, withFamilyName, withFsType, withTableLength } from '../support/decks/test-fonts.js';
import { pollUntil, submitJob } from '../support/http/jobs-polling.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { TEMPLATE_NAME, templateBytes } from '../support/servers/http-harness-paths.js';
import { describeWithLibreOffice } from '../support/servers/libreoffice.js';

const FAMILY = 'Deckforge Probe Sans';
/** Its PostScript name, which a PDF names the font by (name ID 6, withFamilyName). */
const POSTSCRIPT = 'DeckforgeProbeSans-Regular';
/** Carlito (narrow, Calibri's metrics) under a family nobody installed. */
const PROBE = withFamilyName(systemFont('Carlito-Regular.ttf'), FAMILY);
const FONT_PART = 'ppt/fonts/font1.fntdata';
/** fontconfig's cache of the system's fonts, which a renderer reads and never writes. */
const SYSTEM_CACHE = '/var/cache/fontconfig';
const work = mkdtempSync(join(tmpdir(), 'deckforge-embedded-fonts-'));
let server: RunningServer;
let token: string;

beforeAll(async () => {
  server = await startServer({ overrides: { rendering: { renderers: 1 } } });
  ({ token } = await server.signUp());
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

/** One slide of the harness template whose theme fonts are FAMILY; the font embedded unless `embed` is false. */
function brandForm(embed: boolean, format: string): FormData {
  const { presentation } = titleDeck(1);
  const form = uploadForm(
    {
      presentation: {
        ...presentation,
        theme: { fonts: { major: FAMILY, minor: FAMILY } },
        ...(embed ? { fonts: ['Probe-Regular.ttf'] } : {}),
      },
    },
    [
      { name: TEMPLATE_NAME, bytes: templateBytes() },
      ...(embed ? [{ name: 'Probe-Regular.ttf', bytes: PROBE }] : []),
    ],
  );
  form.append('format', format);
  return form;
}

async function post(path: string, body: FormData): Promise<Response> {
  return fetch(`${server.base}${path}`, { method: 'POST', body, headers: bearer(token) });
}

async function okBytes(response: Response): Promise<Uint8Array> {
  expect(response.status, await response.clone().text()).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}

function warningsOf(response: Response): { path: string; message: string }[] {
  return JSON.parse(response.headers.get('x-generation-warnings-detail') ?? '[]') as {
    path: string;
    message: string;
  }[];
}

function renderForm(deck: Uint8Array, format = 'pdf'): FormData {
  const form = new FormData();
  form.append('files', new Blob([deck]), 'deck.pptx');
  form.append('format', format);
  return form;
}

/** The fonts pdffonts lists, without their subset prefix (`BAAAAA+`). */
function pdfFonts(pdf: Uint8Array): string[] {
  const file = join(work, `fonts-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  const lines = execFileSync('pdffonts', [file], { encoding: 'utf8' }).split('\n').slice(2);
  return lines.filter(Boolean).map((line) => (line.split(/\s+/)[0] ?? '').replace(/^[A-Z]{6}\+/, ''));
}

/** How wide pdftotext finds the words of the subtitle on the first page, in points. */
function subtitleWidth(pdf: Uint8Array): number {
  const file = join(work, `words-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  const html = execFileSync('pdftotext', ['-bbox', '-l', '1', file, '-'], { encoding: 'utf8' });
  const words = [
    ...html.matchAll(/<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g),
  ];
  const line = words.filter((w) => ['Generated', 'HTTP', 'test,'].includes(w[3] ?? ''));
  expect(line.map((w) => w[3])).toEqual(['Generated', 'HTTP', 'test,']);
  return Number(line[2]?.[2]) - Number(line[0]?.[1]);
}

/** The embedded font part of `deck` with its font (the data the Embedded OpenType header ends with) changed. */
function withFontPart(
  deck: Uint8Array,
  change: (part: Uint8Array, fontStart: number) => Uint8Array,
): Uint8Array {
  return editPackage(deck, (parts) => {
    const part = parts[FONT_PART];
    if (!part) throw new Error(`the deck has no ${FONT_PART}`);
    const view = new DataView(part.buffer, part.byteOffset, part.byteLength);
    const fontStart = view.getUint32(0, true) - view.getUint32(4, true);
    parts[FONT_PART] = change(part.slice(), fontStart);
  });
}

function withFont(part: Uint8Array, fontStart: number, font: (font: Uint8Array) => Uint8Array): Uint8Array {
  const changed = font(part.slice(fontStart));
  const out = part.slice();
  out.set(changed, fontStart);
  return out;
}

describeWithLibreOffice('previews draw the fonts a deck embeds', () => {
  let embeddedDeck: Uint8Array;
  let substitutePdf: Uint8Array;

  let systemCache: string[];

  beforeAll(async () => {
    systemCache = readdirSync(SYSTEM_CACHE);
    // The family must be one this machine's fontconfig does not know, or the test proves nothing.
    const known = execFileSync('fc-match', ['-f', '%{family[0]}', FAMILY], { encoding: 'utf8' });
    expect(known).not.toBe(FAMILY);
    embeddedDeck = await okBytes(await post('/v1.0/generator/create', brandForm(true, 'pptx')));
    expect(Object.keys(unzipSync(embeddedDeck))).toContain(FONT_PART);
  }, 60_000);

  it('draws the payload’s font in a synchronous PDF, and the next deck naming the family without it gets the substitute', async () => {
    const embedded = await post('/v1.0/generator/create', brandForm(true, 'pdf'));
    const embeddedPdf = await okBytes(embedded);
    expect(pdfFonts(embeddedPdf)).toContain(POSTSCRIPT);
    expect(warningsOf(embedded).filter((w) => w.path === 'FONT_SUBSTITUTED')).toEqual([]);

    // Right after, on the same (only) renderer slot: no font of the last deck is left for this one.
    const plain = await post('/v1.0/generator/create', brandForm(false, 'pdf'));
    substitutePdf = await okBytes(plain);
    expect(pdfFonts(substitutePdf)).not.toContain(POSTSCRIPT);
    expect(warningsOf(plain).find((w) => w.message.includes(`"${FAMILY}"`))?.path).toBe('FONT_SUBSTITUTED');
    // Carlito is narrower than the substitute: the same words take less room.
    expect(subtitleWidth(embeddedPdf)).toBeLessThan(subtitleWidth(substitutePdf) * 0.95);
    // And nothing of it stayed: not in the system's fontconfig or its cache, not on the server's disk.
    expect(execFileSync('fc-match', ['-f', '%{family[0]}', FAMILY], { encoding: 'utf8' })).not.toBe(FAMILY);
    expect(readdirSync(SYSTEM_CACHE)).toEqual(systemCache);
    const left = readdirSync(join(server.dataDir, 'tmp'), { recursive: true, encoding: 'utf8' });
    expect(left.filter((name) => /fonts|\.(ttf|otf|conf)$/.test(name))).toEqual([]);
  }, 120_000);

  it('draws it in /v1.0/render and in a job’s PDF and slide images', async () => {
    const rendered = await okBytes(await post('/v1.0/render', renderForm(embeddedDeck)));
    expect(pdfFonts(rendered)).toContain(POSTSCRIPT);

    const form = brandForm(true, 'pptx+pdf');
    form.append('previews', 'png');
    form.append('preview_width', '640');
    const job = await submitJob(server.base, token, form);
    const { last } = await pollUntil(server.base, token, job, ['SUCCEEDED', 'FAILED']);
    expect(last.status, last.error_message ?? '').toBe('SUCCEEDED');
    const links = last as { pdf_url?: string | null; preview_urls?: string[] };
    const pdf = new Uint8Array(await (await fetch(links.pdf_url as string)).arrayBuffer());
    expect(pdfFonts(pdf)).toContain(POSTSCRIPT);
    const png = new Uint8Array(
      await (await fetch((links.preview_urls as string[])[0] as string)).arrayBuffer(),
    );

    const zip = await okBytes(
      await post(
        '/v1.0/render',
        (() => {
          const f = renderForm(embeddedDeck, 'png');
          f.append('preview_width', '640');
          return f;
        })(),
      ),
    );
    const substituteZip = await okBytes(
      await post(
        '/v1.0/render',
        (() => {
          const plainDeck = editPackage(embeddedDeck, (parts) => {
            delete parts[FONT_PART];
          });
          const f = renderForm(plainDeck, 'png');
          f.append('preview_width', '640');
          return f;
        })(),
      ),
    );
    const image = unzipSync(zip)['slide-1.png'] as Uint8Array;
    const substituteImage = unzipSync(substituteZip)['slide-1.png'] as Uint8Array;
    expect(Buffer.from(image).equals(Buffer.from(png))).toBe(true);
    expect(Buffer.from(image).equals(Buffer.from(substituteImage))).toBe(false);
  }, 180_000);

  it('draws a template’s own embedded font', async () => {
    const form = uploadForm({ presentation: { template: 'branded.pptx', slides: [{ slide_index: 0 }] } }, [
      { name: 'branded.pptx', bytes: embeddedDeck },
    ]);
    form.append('format', 'pdf');
    const pdf = await okBytes(await post('/v1.0/generator/create', form));
    expect(pdfFonts(pdf)).toContain(POSTSCRIPT);
  }, 60_000);

  it.each([
    [
      'a font whose table directory points outside it',
      (part: Uint8Array, at: number) =>
        withFont(part, at, (font) => withTableLength(font, 'glyf', 0x7fffffff)),
      /the font part holds a font that is cut short or damaged: its "glyf" table lies outside the file/,
    ],
    [
      'a font whose licence forbids embedding',
      (part: Uint8Array, at: number) => withFont(part, at, (font) => withFsType(font, 0x0002)),
      /the font part holds a font that its licence forbids embedding \(OS\/2 fsType 0x0002: Restricted License/,
    ],
    [
      'an Embedded OpenType header that says the part is larger than it is',
      (part: Uint8Array) => {
        new DataView(part.buffer).setUint32(0, part.byteLength + 4096, true);
        return part;
      },
      /the font part says it is \d+ bytes long, but the part holds \d+/,
    ],
  ])(
    'a font part that lies (%s) is not handed to LibreOffice: the render names the part and why',
    async (_, change, why) => {
      const response = await post('/v1.0/render', renderForm(withFontPart(embeddedDeck, change)));
      const pdf = await okBytes(response);
      const warning = warningsOf(response).find((w) => w.path === `/${FONT_PART}`);
      expect(warning?.message).toMatch(
        new RegExp(`^the embedded font "${FAMILY}" \\(regular\\) is not drawn in the PDF and slide images: `),
      );
      expect(warning?.message).toMatch(why);
      expect(pdfFonts(pdf)).not.toContain(POSTSCRIPT);
    },
    60_000,
  );
});
