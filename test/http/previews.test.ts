/**
 * Previews (docs/previews.md) over a real socket with a real LibreOffice: format=pdf on the synchronous endpoint,
 * format and previews on jobs (pdf_url and preview_urls downloadable without a token), POST /v1.0/render (PDF and a
 * zip of PNG pages, charged as slides), the font substitution warning, and the 400s for values the server does not
 * know. What a user checks: pdfinfo's page count, pdftotext's words, the PNGs' width and aspect ratio, the usage
 * endpoint before and after. One server (two renderers) for the file. The server without LibreOffice is
 * previews-unavailable.test.ts.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { strFromU8, strToU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { describeWithLibreOffice } from '../support/servers/libreoffice.js';
import { editPackage } from '../support/decks/package-edit.js';
import { previewDeck, slideWord } from '../support/decks/preview-decks.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { REPO_ROOT, templateBytes } from '../support/servers/http-harness-paths.js';
import { pollUntil, readStatus, submitJob } from '../support/http/jobs-polling.js';
import { expectedHeight, pngSize, readPdf } from '../support/readers/preview-files.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';
import { hostTemplate, type TemplateHost } from '../support/servers/template-host.js';

const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
const template = templateBytes();
const work = mkdtempSync(join(tmpdir(), 'deckforge-previews-'));
let server: RunningServer;
let token: string;
let email: string;
let host: TemplateHost;

beforeAll(async () => {
  server = await startServer({ overrides: { allowPrivateUrls: true, rendering: { renderers: 2 } } });
  ({ token, email } = await server.signUp());
  host = await hostTemplate();
}, 60_000);
afterAll(async () => {
  await server?.close();
  await host?.close();
  rmSync(work, { recursive: true, force: true });
});

async function post(path: string, body: RequestInit['body'], headers: Record<string, string> = {}) {
  return fetch(`${server.base}${path}`, { method: 'POST', body, headers: { ...bearer(token), ...headers } });
}

async function expectShapeA(response: Response, pattern: RegExp): Promise<string> {
  expect(response.status).toBe(400);
  const body = (await response.json()) as { details: string };
  expect(body).toEqual({ statusCode: 400, message: 'Invalid input parameters', details: expect.any(String) });
  expect(body.details).toMatch(pattern);
  return body.details;
}

interface UsageResult {
  usedSlideCount: number;
  successfulApiCallCount: number;
  failedApiCallCount: number;
}

async function usage(): Promise<UsageResult> {
  const response = await fetch(`${server.base}/v1.0/usage`, { headers: bearer(token) });
  return ((await response.json()) as { result: UsageResult }).result;
}

async function usedSlides(): Promise<number> {
  return (await usage()).usedSlideCount;
}

/** A signed link, fetched as the interface says: without Authorization. */
async function download(url: string, contentType: string): Promise<Uint8Array> {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  expect(response.headers.get('content-type')).toBe(contentType);
  return new Uint8Array(await response.arrayBuffer());
}

interface PreviewStatus {
  status: string;
  error_message: string | null;
  file_url: string | null;
  pdf_url?: string | null;
  preview_urls?: string[];
  warnings: { path: string; message: string }[];
}

function withField(form: FormData, fields: Record<string, string>): FormData {
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

describeWithLibreOffice('previews over HTTP', () => {
  it('format=pdf answers the deck as a PDF named after resultFileName; without it the deck as before', async () => {
    const before = await usedSlides();
    const response = await post(
      '/v1.0/generator/create',
      withField(uploadForm(titleDeck(3, { resultFileName: 'Quarterly review' })), { format: 'pdf' }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="Quarterly review.pdf"');
    const pdf = readPdf(new Uint8Array(await response.arrayBuffer()));
    expect(pdf.pages).toBe(3);
    pdf.texts.forEach((text, i) => expect(text).toContain(`Slide ${i + 1} title`));
    expect(await usedSlides()).toBe(before + 3); // the slides, not more for the PDF

    const plain = await post('/v1.0/generator/create', uploadForm(titleDeck(2)));
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe(PPTX);
    expect(plain.headers.get('content-disposition')).toBe('attachment; filename="layouts-generated.pptx"');
    await expectValidPptx(new Uint8Array(await plain.arrayBuffer()), template);
  }, 60_000);

  it('takes format as a query parameter, and in a JSON body beside presentation (default name .pdf)', async () => {
    const query = await post('/v1.0/generator/create?format=pdf', uploadForm(titleDeck(1)));
    expect(query.headers.get('content-disposition')).toBe('attachment; filename="layouts-generated.pdf"');
    expect(readPdf(new Uint8Array(await query.arrayBuffer())).pages).toBe(1);

    const deck = titleDeck(2, { template: host.url });
    const json = await post('/v1.0/generator/create', JSON.stringify({ ...deck, format: 'pdf' }), {
      'content-type': 'application/json',
    });
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toBe('application/pdf');
    expect(json.headers.get('content-disposition')).toBe('attachment; filename="layouts-generated.pdf"');
    expect(readPdf(new Uint8Array(await json.arrayBuffer())).texts[1]).toContain('Slide 2 title');
    const listed = await post('/v1.0/generator/create', JSON.stringify({ ...deck, format: ['pdf'] }), {
      'content-type': 'application/json',
    });
    await expectShapeA(listed, /^format: give it as a string/);
  }, 60_000);

  it('refuses output values it does not know with a 400 naming the field, charging nothing', async () => {
    const before = await usedSlides();
    const sync = '/v1.0/generator/create';
    const form = (fields: Record<string, string>) => withField(uploadForm(titleDeck(1)), fields);
    await expectShapeA(await post(sync, form({ format: 'docx' })), /^format: "docx" is not an output format/);
    await expectShapeA(await post(sync, form({ format: 'pptx+pdf' })), /^format: .*create-async/);
    await expectShapeA(await post(sync, form({ previews: 'png' })), /^previews: .*create-async/);
    await expectShapeA(await post(`${sync}?format=pdf`, form({ format: 'pptx' })), /^format: the query/);
    const async = '/v2.0/generator/create-async';
    await expectShapeA(await post(async, form({ previews: 'jpeg' })), /^previews: "jpeg"/);
    await expectShapeA(
      await post(async, form({ previews: 'png', preview_width: '99999' })),
      /^preview_width: "99999" .* 16 to 4096/,
    );
    await expectShapeA(await post(async, form({ preview_width: '800' })), /^preview_width: .*previews=png/);
    await expectShapeA(
      await post('/v1.0/render', form({ format: 'pptx' })),
      /^format: "pptx" is not a render/,
    );
    expect(await usedSlides()).toBe(before);
  });

  it('a job with format=pptx+pdf and previews=png: the deck, its PDF and one PNG per slide, all signed', async () => {
    const jobId = await submitJob(
      server.base,
      token,
      withField(uploadForm(titleDeck(3, { resultFileName: 'Board pack' })), {
        format: 'pptx+pdf',
        previews: 'png',
        preview_width: '640',
      }),
    );
    const queued = (await readStatus(server.base, token, jobId)) as PreviewStatus;
    if (queued.status !== 'SUCCEEDED') {
      expect(queued.pdf_url).toBeNull();
      expect(queued.preview_urls).toEqual([]);
    }
    const { last } = await pollUntil(server.base, token, jobId, ['SUCCEEDED', 'FAILED']);
    const status = last as PreviewStatus;
    expect(status.error_message).toBeNull();
    expect(status.status).toBe('SUCCEEDED');
    expect(decodeURIComponent(status.file_url ?? '')).toContain('Board pack.pptx');
    const deck = await download(status.file_url ?? '', PPTX);
    await expectValidPptx(deck, template);

    expect(decodeURIComponent(status.pdf_url ?? '')).toContain('Board pack.pdf');
    const pdf = readPdf(await download(status.pdf_url ?? '', 'application/pdf'));
    expect(pdf.pages).toBe(3);
    expect(pdf.texts[2]).toContain('Slide 3 title');

    expect(status.preview_urls).toHaveLength(3);
    const height = expectedHeight(deck, 640);
    for (const [i, url] of (status.preview_urls ?? []).entries()) {
      expect(decodeURIComponent(url)).toContain(`Board pack-slide-${i + 1}.png`);
      const size = pngSize(await download(url, 'image/png'));
      expect(size.width).toBe(640);
      expect(Math.abs(size.height - height)).toBeLessThanOrEqual(1);
    }
    // With a token the signed links are refused, as file_url is.
    const withToken = await fetch(status.preview_urls?.[0] ?? '', { headers: bearer(token) });
    expect(withToken.status).toBe(403);
    // Valid 15 minutes; the next status call signs them afresh.
    server.clock.advance(16 * 60_000);
    expect((await fetch(status.pdf_url ?? '')).status).toBe(403);
    expect((await fetch(status.preview_urls?.[2] ?? '')).status).toBe(403);
    const fresh = (await readStatus(server.base, token, jobId)) as PreviewStatus;
    expect(fresh.preview_urls?.[2]).not.toBe(status.preview_urls?.[2]);
    expect(pngSize(await download(fresh.preview_urls?.[2] ?? '', 'image/png')).width).toBe(640);
    expect(readPdf(await download(fresh.pdf_url ?? '', 'application/pdf')).pages).toBe(3);
  }, 120_000);

  it('a job with format=pdf: file_url is the PDF; the status has no pdf_url nor preview_urls', async () => {
    const jobId = await submitJob(server.base, token, withField(uploadForm(titleDeck(2)), { format: 'pdf' }));
    const status = (await pollUntil(server.base, token, jobId, ['SUCCEEDED', 'FAILED']))
      .last as PreviewStatus;
    expect(status.status).toBe('SUCCEEDED');
    expect(status).not.toHaveProperty('pdf_url');
    expect(status).not.toHaveProperty('preview_urls');
    const response = await fetch(status.file_url ?? '');
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="layouts-generated.pdf"');
    expect(readPdf(new Uint8Array(await response.arrayBuffer())).pages).toBe(2);
    // A plain job is unchanged: no preview fields at all.
    const plainId = await submitJob(server.base, token, uploadForm(titleDeck(1)));
    const plain = (await pollUntil(server.base, token, plainId, ['SUCCEEDED', 'FAILED'])).last;
    expect(Object.keys(plain).sort()).toEqual([
      'error_message',
      'file_url',
      'progress',
      'status',
      'warning_count',
      'warnings',
    ]);
    await expectValidPptx(await download(plain.file_url ?? '', PPTX), template);
  }, 120_000);

  it('POST /v1.0/render: a PDF of the visible slides, charged as that many slides', async () => {
    const deck = previewDeck(4, { hidden: [1] });
    const form = new FormData();
    form.append('files', new Blob([deck]), 'Sales deck.pptx');
    const before = await usage();
    const response = await post('/v1.0/render', form);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="Sales deck.pdf"');
    expect(response.headers.get('x-page-count')).toBe('3');
    const pdf = readPdf(new Uint8Array(await response.arrayBuffer()));
    expect(pdf.pages).toBe(3);
    expect(pdf.texts.map((text) => text.includes(slideWord(1)))).toEqual([false, false, false]);
    expect(pdf.texts[1]).toContain(slideWord(2));
    // Metered like the other endpoints: its pages as slides, and the call (plus the usage call before it).
    const after = await usage();
    expect(after.usedSlideCount).toBe(before.usedSlideCount + 3);
    expect(after.successfulApiCallCount).toBe(before.successfulApiCallCount + 2);
    expect(after.failedApiCallCount).toBe(before.failedApiCallCount);
  }, 60_000);

  it('POST /v1.0/render with format=png: a zip of slide-N.png at the asked width and the slide aspect ratio', async () => {
    const deck = previewDeck(2);
    const form = new FormData();
    form.append('format', 'png');
    form.append('preview_width', '320');
    form.append('files', new Blob([deck]), 'deck.pptx');
    const before = await usedSlides();
    const response = await post('/v1.0/render', form);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="deck-slides.zip"');
    const entries = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(entries).sort()).toEqual(['slide-1.png', 'slide-2.png']);
    const height = expectedHeight(deck, 320);
    for (const png of Object.values(entries)) {
      const size = pngSize(png);
      expect(size.width).toBe(320);
      expect(Math.abs(size.height - height)).toBeLessThanOrEqual(1);
    }
    expect(await usedSlides()).toBe(before + 2);
  }, 60_000);

  it('names each font it had to replace in a FONT_SUBSTITUTED warning, with what it drew instead', async () => {
    const missing = 'Deckforge Nowhere Grotesk';
    const deck = editPackage(previewDeck(1), (parts) => {
      for (const [name, data] of Object.entries(parts)) {
        if (/^ppt\/theme\/theme\d+\.xml$/.test(name))
          parts[name] = strToU8(
            strFromU8(data).replace(/(<a:minorFont>\s*<a:latin typeface=")[^"]*/, `$1${missing}`),
          );
      }
    });
    const drawn = execFileSync('fc-match', ['-f', '%{family[0]}', missing], { encoding: 'utf8' }).trim();
    const form = new FormData();
    form.append('files', new Blob([deck]), 'fonts.pptx');
    const response = await post('/v1.0/render', form);
    expect(response.status).toBe(200);
    const warnings = JSON.parse(response.headers.get('x-generation-warnings-detail') ?? '[]') as {
      path: string;
      message: string;
    }[];
    const warning = warnings.find((w) => w.message.includes(missing));
    expect(warning?.path).toBe('FONT_SUBSTITUTED');
    expect(warning?.message).toContain(`"${drawn}" instead`);
  }, 60_000);

  it('refuses a file that is not a .pptx, or a damaged one, with the template checks, charging nothing', async () => {
    const before = await usedSlides();
    const text = new FormData();
    text.append('files', new Blob(['just some words']), 'notes.pptx');
    await expectShapeA(await post('/v1.0/render', text), /not a \.pptx file|not a zip/);
    const truncated = new FormData();
    truncated.append('files', new Blob([previewDeck(1).subarray(0, 2000)]), 'cut.pptx');
    await expectShapeA(await post('/v1.0/render', truncated), /corrupt zip|truncated/);
    await expectShapeA(await post('/v1.0/render', new FormData()), /^files: upload the \.pptx/);
    expect(await usedSlides()).toBe(before);
  });

  it("the README's Previews lines work when pasted after its first session", async () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const payload = /cat > payload\.json <<'EOF'\n([\s\S]*?)\nEOF/.exec(readme)?.[1];
    const section = readme.slice(readme.indexOf('## Previews'));
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
    if (!payload || !block) throw new Error('README: no payload heredoc, or no sh block under "## Previews"');
    const folder = join(work, 'readme');
    mkdirSync(folder);
    writeFileSync(join(folder, 'payload.json'), payload);
    const sample = join(REPO_ROOT, 'examples', 'sample-template.pptx');
    await promisify(execFile)('bash', ['-c', `set -euo pipefail\n${block}`], {
      cwd: folder,
      env: { ...process.env, B: server.base, TOKEN: token, SAMPLE: sample },
      timeout: 60_000,
    });
    const pdf = readPdf(new Uint8Array(readFileSync(join(folder, 'Quarterly review.pdf'))));
    expect(pdf.pages).toBe(3);
    expect(pdf.texts[1]).toContain('Revenue up 12%');

    // docs/previews.md's examples, in the same place: the PDF again, a job, and a zip of slide images.
    const guide = readFileSync(join(REPO_ROOT, 'docs', 'previews.md'), 'utf8');
    const examples = /```sh\n([\s\S]*?)```/.exec(guide)?.[1] ?? '';
    const guideFolder = join(work, 'guide');
    mkdirSync(guideFolder); // curl -OJ does not overwrite the README's PDF
    writeFileSync(join(guideFolder, 'payload.json'), payload);
    const { stdout } = await promisify(execFile)('bash', ['-c', `set -euo pipefail\n${examples}`], {
      cwd: guideFolder,
      env: { ...process.env, B: server.base, TOKEN: token, SAMPLE: sample },
      timeout: 60_000,
    });
    expect(JSON.parse(stdout)).toEqual({ job_id: expect.any(String), status: 'QUEUED' });
    expect(readPdf(new Uint8Array(readFileSync(join(guideFolder, 'Quarterly review.pdf')))).pages).toBe(3);
    const zip = unzipSync(new Uint8Array(readFileSync(join(guideFolder, 'slides.zip'))));
    expect(Object.keys(zip).sort()).toEqual(['slide-1.png', 'slide-2.png', 'slide-3.png']);
  }, 60_000);

  it('the webhook event of a job with previews carries pdf_url and preview_urls, signed like file_url', async () => {
    await server.runtime.admin.rotateWebhookSecret(email);
    let received: (body: string) => void = () => undefined;
    const event = new Promise<string>((resolve) => (received = resolve));
    const receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        response.writeHead(204).end();
        received(Buffer.concat(chunks).toString('utf8'));
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const form = withField(uploadForm(titleDeck(2)), {
        format: 'pptx+pdf',
        previews: 'png',
        callback_url: url,
      });
      const jobId = await submitJob(server.base, token, form);
      const body = JSON.parse(await event) as PreviewStatus & { job_id: string };
      expect(body).toMatchObject({ job_id: jobId, status: 'SUCCEEDED' });
      expect(readPdf(await download(body.pdf_url ?? '', 'application/pdf')).pages).toBe(2);
      expect(body.preview_urls).toHaveLength(2);
      expect(pngSize(await download(body.preview_urls?.[0] ?? '', 'image/png')).width).toBe(1280);
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  }, 60_000);

  it('a client that goes away during a synchronous PDF stops the render and is charged nothing', async () => {
    // An account of its own, whose plan takes a deck LibreOffice needs seconds for.
    const large = (await server.signUp({ plan: 'Enterprise' })).token;
    const used = async () => {
      const response = await fetch(`${server.base}/v1.0/usage`, { headers: bearer(large) });
      return ((await response.json()) as { result: UsageResult }).result.usedSlideCount;
    };
    const gone = new AbortController();
    const request = fetch(`${server.base}/v1.0/generator/create`, {
      method: 'POST',
      body: withField(uploadForm(titleDeck(200, { slideIndex: 1 })), { format: 'pdf' }),
      headers: bearer(large),
      signal: gone.signal,
    }).catch((error: unknown) => error);
    const previews = async () =>
      ((await (await fetch(`${server.base}/healthz`)).json()) as { previews: { busy: number } }).previews;
    await vi.waitFor(async () => expect((await previews()).busy).toBe(1), { timeout: 60_000, interval: 50 });
    gone.abort();
    expect(await request).toBeInstanceOf(Error);
    await vi.waitFor(async () => expect((await previews()).busy).toBe(0), { timeout: 30_000, interval: 50 });
    expect(await used()).toBe(0);
  }, 120_000);

  // Last in the file: it moves the server's clock past the retention period (tokens issued before expire too).
  it("deletes a job's PDF and slide images with the job when its retention period ends", async () => {
    const jobId = await submitJob(
      server.base,
      token,
      withField(uploadForm(titleDeck(1)), { format: 'pptx+pdf', previews: 'png', preview_width: '100' }),
    );
    const status = (await pollUntil(server.base, token, jobId, ['SUCCEEDED', 'FAILED']))
      .last as PreviewStatus;
    expect(status.status).toBe('SUCCEEDED');
    const links = [status.file_url ?? '', status.pdf_url ?? '', ...(status.preview_urls ?? [])];
    expect(links).toHaveLength(3);
    const folder = join(server.dataDir, 'blobs', 'jobs', jobId);
    for (const name of ['result.pptx', 'result.pdf', 'slide-1.png'])
      expect(existsSync(join(folder, name))).toBe(true);
    server.clock.advance((server.config.jobRetentionHours + 1) * 3_600_000);
    const later = (await server.signUp()).token;
    const gone = await fetch(`${server.base}/v2.0/jobs/${jobId}/status`, { headers: bearer(later) });
    expect(gone.status).toBe(404);
    // The links are expired too; what matters is that the files are gone from the store.
    expect(existsSync(folder)).toBe(false);
  }, 60_000);
});
