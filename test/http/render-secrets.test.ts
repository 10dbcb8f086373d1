/**
 * Nothing of the server's reaches an attacker's preview, by any HTTP route into the renderer (docs/security.md,
 * "Rendering untrusted decks"). One server, its data directory outside /tmp as a production install has it; a
 * secret (a magenta picture and a text) planted in each place a renderer must not see: the data directory, the
 * blob store beside another account's job preview (itself magenta: that account's slides have a magenta
 * background), the scratch folder, the renderer pool's folder, this renderer's own folder, /var/tmp, /home,
 * /root, /srv, /opt and a configuration folder under /etc. Then decks that try every trick of render-tricks.ts
 * (one small deck per family of tricks) go through POST /v1.0/render for a PDF and for PNGs, synchronous
 * generation with format=pdf and a job with format=pptx+pdf and previews=png. Every output is read as a person
 * would (secret-leaks.ts): no secret words or server paths in the text or metadata, no link but the two a slide
 * should keep, no pixel of the secret's colour; the canary on loopback sees no request; the decks the issue
 * says must be refused are refused with a 400 in shape A, and the pages charged are the pages made.
 * The command line's routes: test/cli/render-secrets.test.ts.
 */
import { accessSync, constants, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { strFromU8, strToU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { previewDeck } from '../support/decks/preview-decks.js';
import * as trick from '../support/decks/render-tricks.js';
import { twoEndRecords } from '../support/decks/zip-polyglots.js';
import { BLUE, png, pngClaiming } from '../support/decks/test-images.js';
import { pollUntil, submitJob } from '../support/http/jobs-polling.js';
import { readPdf } from '../support/readers/preview-files.js';
import { pdfLeaks, pngLeaks } from '../support/readers/secret-leaks.js';
import { describeWithLibreOffice } from '../support/servers/libreoffice.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { plantSecrets, SYSTEM_PLACES, type Planted } from '../support/servers/planted-secrets.js';

/** Outside /tmp, as a production data directory is: the first of these the test may write. */
function dataDirOutsideTmp(): string {
  for (const base of ['/srv', '/var/tmp', homedir()]) {
    try {
      accessSync(base, constants.W_OK);
      return mkdtempSync(join(base, 'deckforge-render-secrets-'));
    } catch {
      // Not writable here: the next.
    }
  }
  throw new Error('no folder outside /tmp to put the data directory in');
}

/** Files under `folder`, recursively. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
}

const MAGENTA_BACKGROUND =
  '<p:bg><p:bgPr><a:solidFill><a:srgbClr val="FF00FF"/></a:solidFill><a:effectLst/></p:bgPr></p:bg>';

/** previewDeck(1) with a magenta background: the victim's previews are what an attacker would want. */
function victimDeck(): Uint8Array {
  return trick.withTricks(previewDeck(1), (files) => {
    const [slide] = trick.slideItems(files).slides as [string];
    files[slide] = strToU8(
      strFromU8(files[slide] as Uint8Array).replace('<p:cSld>', `<p:cSld>${MAGENTA_BACKGROUND}`),
    );
  });
}

/** A payload that takes every slide of `template` (named `name`) once, as it is. */
function everySlide(name: string, slides: number): string {
  return JSON.stringify({
    presentation: { template: name, slides: Array.from({ length: slides }, (_, i) => ({ slide_index: i })) },
  });
}

let server: RunningServer;
let attacker: string;
let canary: { requests: string[]; url: string; close: () => Promise<void> };
let planted: Planted;
let dataDir: string;
/** The paths no output may name: every planted folder, the data directory. */
let paths: string[] = [];
const decks: Record<string, { bytes: Uint8Array; slides: number }> = {};

async function post(path: string, body: FormData, token = attacker): Promise<Response> {
  return fetch(`${server.base}${path}`, { method: 'POST', body, headers: bearer(token) });
}

function renderForm(deck: Uint8Array, format: 'pdf' | 'png'): FormData {
  const form = new FormData();
  form.append('format', format);
  form.append('files', new Blob([deck]), 'tricks.pptx');
  return form;
}

function generationForm(
  deck: { bytes: Uint8Array; slides: number },
  fields: Record<string, string>,
): FormData {
  const form = new FormData();
  form.append('files', new Blob([deck.bytes]), 'tricks.pptx');
  form.append('jsonData', everySlide('tricks.pptx', deck.slides));
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

async function expectNoLeak(pdf: Uint8Array | null, pngs: Uint8Array[], what: string): Promise<void> {
  const problems = [
    ...(pdf ? await pdfLeaks(pdf, { allowedLinks: trick.KEPT_LINKS, paths }) : []),
    ...(await Promise.all(pngs.map((page, i) => pngLeaks(page, `slide-${i + 1}.png`)))).flat(),
  ];
  expect(problems, what).toEqual([]);
}

async function expectShapeA(response: Response, detail: RegExp): Promise<void> {
  expect(response.status).toBe(400);
  const body = (await response.json()) as { statusCode: number; message: string; details: string };
  expect(body.statusCode).toBe(400);
  expect(body.message).toBe('Invalid input parameters');
  expect(body.details).toMatch(detail);
}

beforeAll(async () => {
  const requests: string[] = [];
  const { createServer } = await import('node:http');
  const http = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'content-type': 'video/mp2t' }).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  canary = {
    requests,
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: () => new Promise((resolve) => http.close(() => resolve())),
  };
  dataDir = dataDirOutsideTmp();
  server = await startServer({ dataDir });
  ({ token: attacker } = await server.signUp({ plan: 'Enterprise' }));
}, 120_000);

afterAll(async () => {
  planted?.remove();
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
  await canary?.close();
});

describeWithLibreOffice('no secret of the server reaches a preview, by any HTTP route', () => {
  beforeAll(async () => {
    // Another account's job, with previews: its PNGs are in the blob store, as a real account's would be.
    const { token: victim } = await server.signUp({ plan: 'Enterprise' });
    const form = new FormData();
    form.append('files', new Blob([victimDeck()]), 'victim.pptx');
    form.append('jsonData', everySlide('victim.pptx', 1));
    form.append('format', 'pptx+pdf');
    form.append('previews', 'png');
    const jobId = await submitJob(server.base, victim, form);
    const { last } = await pollUntil(server.base, victim, jobId, ['SUCCEEDED', 'FAILED']);
    expect(last.status).toBe('SUCCEEDED');
    const previews = filesUnder(join(dataDir, 'blobs')).filter(
      (file) => statSync(file).size > 0 && file.includes(jobId),
    );
    expect(previews.length).toBeGreaterThan(0);
    // The scratch folder, the pool's folder and this renderer's folder, as the server made them.
    const scratch = join(dataDir, 'tmp', readdirSync(join(dataDir, 'tmp'))[0] as string);
    const pool = join(scratch, 'renderers');
    const renderer = join(pool, readdirSync(pool).find((name) => name.startsWith('deckforge-')) as string);
    planted = await plantSecrets({
      'the data directory': dataDir,
      'the blob store': join(dataDir, 'blobs'),
      'the scratch folder': scratch,
      "the renderer pool's folder": pool,
      "this renderer's folder": renderer,
      "this renderer's work folder": join(renderer, 'work'),
      ...SYSTEM_PLACES,
    });
    if (process.env.CI === 'true') expect(planted.missed).toEqual([]);
    paths = [dataDir, ...planted.secrets.map((secret) => secret.folder)];
    // The work folder is the renderer's own (/renderer/work inside): a secret left in it is named both ways.
    const work = planted.secrets.find((secret) => secret.place === "this renderer's work folder");
    const inside = work ? [join('/renderer/work', basename(work.folder), 'secret.png')] : [];
    const targets: trick.RenderTargets = {
      pictures: [...previews, ...planted.secrets.map((secret) => secret.picture), ...inside],
      canary: canary.url,
    };
    const secretText = planted.secrets[0]?.text as string;
    decks.pictures = {
      bytes: trick.withTricks(
        previewDeck(1),
        trick.svgNamedPng(targets),
        trick.playlistAsPicture(targets),
        trick.lyingRelationshipTypes(await png(40, 30, BLUE)),
        trick.fileUrlsEverywhere(targets),
      ),
      slides: 1,
    };
    decks.linksAndFields = {
      bytes: trick.withTricks(
        previewDeck(2),
        trick.hostileHyperlinks(secretText),
        trick.fieldInUtf16Part,
        trick.fieldInPartNotNamedXml,
      ),
      slides: 2,
    };
    decks.slideLists = { bytes: trick.withTricks(previewDeck(2), trick.secondSlideLists(50)), slides: 2 };
  }, 240_000);

  for (const family of ['pictures', 'linksAndFields', 'slideLists']) {
    it(`${family}: POST /v1.0/render as a PDF and as PNGs`, async () => {
      const deck = decks[family] as { bytes: Uint8Array; slides: number };
      const pdf = await post('/v1.0/render', renderForm(deck.bytes, 'pdf'));
      expect(
        pdf.status,
        await pdf
          .clone()
          .text()
          .then((t) => t.slice(0, 300)),
      ).toBe(200);
      const pdfBytes = new Uint8Array(await pdf.arrayBuffer());
      const pngs = await post('/v1.0/render', renderForm(deck.bytes, 'png'));
      expect(pngs.status).toBe(200);
      const pages = Object.values(unzipSync(new Uint8Array(await pngs.arrayBuffer())));
      expect(pages).toHaveLength(deck.slides);
      await expectNoLeak(pdfBytes, pages, family);
      expect(canary.requests).toEqual([]);
    });

    it(`${family}: synchronous generation with format=pdf, and a job with format=pptx+pdf and previews=png`, async () => {
      const deck = decks[family] as { bytes: Uint8Array; slides: number };
      const sync = await post('/v1.0/generator/create', generationForm(deck, { format: 'pdf' }));
      expect(
        sync.status,
        await sync
          .clone()
          .text()
          .then((t) => t.slice(0, 300)),
      ).toBe(200);
      const syncPdf = new Uint8Array(await sync.arrayBuffer());
      const jobId = await submitJob(
        server.base,
        attacker,
        generationForm(deck, { format: 'pptx+pdf', previews: 'png', preview_width: '320' }),
      );
      const { last } = await pollUntil(server.base, attacker, jobId, ['SUCCEEDED', 'FAILED']);
      const status = last as unknown as {
        status: string;
        file_url: string;
        pdf_url: string;
        preview_urls: string[];
      };
      expect(status.status, JSON.stringify(last)).toBe('SUCCEEDED');
      const jobPdf = new Uint8Array(await (await fetch(status.pdf_url)).arrayBuffer());
      const previews = await Promise.all(
        status.preview_urls.map(async (url) => new Uint8Array(await (await fetch(url)).arrayBuffer())),
      );
      expect(previews).toHaveLength(deck.slides);
      await expectNoLeak(syncPdf, [], `${family}, sync`);
      await expectNoLeak(jobPdf, previews, `${family}, job`);
      // The deck itself is the user's: generated from the template as it was.
      const pptx = new Uint8Array(await (await fetch(status.file_url)).arrayBuffer());
      await expectValidPptx(pptx, deck.bytes);
      expect(canary.requests).toEqual([]);
    });
  }

  it('a second slide list draws no page more than the deck has slides, and the render is charged for the pages made', async () => {
    const deck = decks.slideLists as { bytes: Uint8Array; slides: number };
    const used = async (): Promise<number> =>
      (
        (await (
          await fetch(`${server.base}/v1.0/usage`, {
            headers: { ...bearer(attacker), accept: 'application/json' },
          })
        ).json()) as { result: { usedSlideCount: number } }
      ).result.usedSlideCount;
    const before = await used();
    const response = await post('/v1.0/render', renderForm(deck.bytes, 'pdf'));
    expect(response.status).toBe(200);
    expect(readPdf(new Uint8Array(await response.arrayBuffer())).pages).toBe(2);
    expect((await used()) - before).toBe(2);
  });

  describe('the decks that are refused (a 400 in shape A), charging nothing', () => {
    it('a file that is two archives (two end-of-central-directory records) sent for rendering', async () => {
      const hidden = trick.withTricks(previewDeck(3), trick.fieldInUtf16Part);
      await expectShapeA(
        await post('/v1.0/render', renderForm(twoEndRecords(previewDeck(1), hidden), 'pdf')),
        /^LibreOffice could not render the deck: LibreOffice could not convert the deck: the file is not one zip archive \(it has two end-of-central-directory records\)/,
      );
    });

    it('a 20 000 × 20 000 PNG named .bin, by render and by generation', async () => {
      const deck = trick.withTricks(previewDeck(1), trick.hugePictureNamedBin(pngClaiming(20_000, 20_000)));
      const detail =
        /\/ppt\/media\/texture\.bin: the picture is 20000 × 20000 pixels, over the limit of 50,000,000 pixels/;
      await expectShapeA(await post('/v1.0/render', renderForm(deck, 'pdf')), detail);
      await expectShapeA(
        await post('/v1.0/generator/create', generationForm({ bytes: deck, slides: 1 }, { format: 'pdf' })),
        detail,
      );
    });

    it('an EPS picture (PostScript that reads a file), by render and by generation', async () => {
      const deck = trick.withTricks(
        previewDeck(1),
        trick.postscriptPicture(planted.secrets[0]?.text as string),
      );
      const detail = /\/ppt\/media\/drawing\.eps: the picture is PostScript \(EPS\) without a preview/;
      await expectShapeA(await post('/v1.0/render', renderForm(deck, 'pdf')), detail);
      await expectShapeA(
        await post('/v1.0/generator/create', generationForm({ bytes: deck, slides: 1 }, { format: 'pdf' })),
        detail,
      );
      expect(canary.requests).toEqual([]);
    });
  });
});
