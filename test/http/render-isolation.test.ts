/**
 * Every way into the renderer over a real socket converges on the renderer's render-safe copy
 * (docs/security.md, "Rendering untrusted decks"): a template whose slides carry a picture linked to a canary
 * web server on loopback is generated with format=pdf, as a job with pptx+pdf and PNG previews, and sent to
 * POST /v1.0/render for a PDF and for PNGs. The canary sees no request, while the .pptx handed back still links
 * where its template did. The attack classes one by one are test/adapters/libreoffice/render-isolation.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { describeWithLibreOffice } from '../support/servers/libreoffice.js';
import { withLinkedPicture } from '../support/decks/linking-decks.js';
import { previewDeck } from '../support/decks/preview-decks.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { templateBytes } from '../support/servers/http-harness-paths.js';
import { pollUntil, submitJob } from '../support/http/jobs-polling.js';
import { readPdf } from '../support/readers/preview-files.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';

const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
let server: RunningServer;
let token: string;
let canary: Server;
const requests: string[] = [];
let canaryUrl = '';

beforeAll(async () => {
  canary = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'content-type': 'image/png' }).end();
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  const address = canary.address();
  canaryUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  // Private URLs allowed: Deckforge's own fetches may reach loopback; LibreOffice's still must not.
  server = await startServer({ overrides: { allowPrivateUrls: true } });
  ({ token } = await server.signUp({ plan: 'Enterprise' }));
}, 60_000);
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => canary?.close(resolve));
});

async function post(path: string, body: FormData): Promise<Response> {
  return fetch(`${server.base}${path}`, { method: 'POST', body, headers: bearer(token) });
}

function withFields(form: FormData, fields: Record<string, string>): FormData {
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

/** The harness's template, each slide with a picture linked to the canary at `/<way>.png`. */
function linkedTemplate(way: string): Uint8Array {
  return withLinkedPicture(templateBytes(), `${canaryUrl}/${way}.png`);
}

/** Whether the deck still links to the canary: what the template linked to is the user's. */
function linksToCanary(deck: Uint8Array): boolean {
  const files = unzipSync(deck);
  return Object.entries(files).some(
    ([name, data]) => /^ppt\/slides\/_rels\//.test(name) && strFromU8(data).includes(`Target="${canaryUrl}/`),
  );
}

/** Waits a moment for a late request, then expects none. */
async function expectNoRequest(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(requests).toEqual([]);
}

/** The processes under `pid` (the server runs in this process: its renderers are among them). */
function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number),
    );
  } catch {
    // Ended meanwhile.
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

function officeProcesses(): number[] {
  return descendants(process.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('soffice.bin');
    } catch {
      return false;
    }
  });
}

describeWithLibreOffice('every way into the renderer follows no link', () => {
  it('synchronous generation with format=pdf; the .pptx without it still links as its template did', async () => {
    const template = linkedTemplate('sync-pdf');
    const response = await post(
      '/v1.0/generator/create',
      withFields(uploadForm(titleDeck(2), [{ name: 'layouts.pptx', bytes: template }]), { format: 'pdf' }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(readPdf(new Uint8Array(await response.arrayBuffer())).pages).toBe(2);
    await expectNoRequest();

    const plain = await post(
      '/v1.0/generator/create',
      uploadForm(titleDeck(2), [{ name: 'layouts.pptx', bytes: template }]),
    );
    expect(plain.headers.get('content-type')).toBe(PPTX);
    const deck = new Uint8Array(await plain.arrayBuffer());
    await expectValidPptx(deck, template);
    expect(linksToCanary(deck)).toBe(true);
  }, 120_000);

  it('a job with format=pptx+pdf and previews=png', async () => {
    const template = linkedTemplate('job');
    const jobId = await submitJob(
      server.base,
      token,
      withFields(uploadForm(titleDeck(2), [{ name: 'layouts.pptx', bytes: template }]), {
        format: 'pptx+pdf',
        previews: 'png',
        preview_width: '200',
      }),
    );
    const { last } = await pollUntil(server.base, token, jobId, ['SUCCEEDED', 'FAILED']);
    const status = last as unknown as { status: string; file_url: string; preview_urls: string[] };
    expect(status.status).toBe('SUCCEEDED');
    expect(status.preview_urls).toHaveLength(2);
    await expectNoRequest();
    const deck = new Uint8Array(await (await fetch(status.file_url)).arrayBuffer());
    await expectValidPptx(deck, template);
    expect(linksToCanary(deck)).toBe(true);
  }, 120_000);

  it('POST /v1.0/render for a PDF and for PNGs', async () => {
    for (const format of ['pdf', 'png']) {
      const form = new FormData();
      form.append('format', format);
      form.append('files', new Blob([linkedTemplate(`render-${format}`)]), 'linked.pptx');
      const response = await post('/v1.0/render', form);
      expect(response.status, format).toBe(200);
      expect(response.headers.get('content-type')).toBe(
        format === 'pdf' ? 'application/pdf' : 'application/zip',
      );
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    await expectNoRequest();
  }, 120_000);

  it('a renderer that dies under a deck answers 503 with Retry-After, not a 400; the next render works', async () => {
    const short = (): FormData => {
      const form = new FormData();
      form.append('files', new Blob([previewDeck(1)]), 'short.pptx');
      return form;
    };
    // Each answer read to its end: an unread PDF holds its connection open, and the server's close then waits
    // for it to time out.
    const rendered = async (): Promise<number> => {
      const response = await post('/v1.0/render', short());
      await response.arrayBuffer();
      return response.status;
    };
    // A renderer started and warm, so that the long deck finds it ready and is what it dies under.
    expect(await rendered()).toBe(200);
    const form = new FormData();
    form.append('files', new Blob([previewDeck(300, { paragraphs: 6 })]), 'long.pptx');
    const pending = post('/v1.0/render', form);
    // Killed from outside while it converts, as the kernel's OOM killer would.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const office = officeProcesses();
    expect(office.length).toBeGreaterThan(0);
    for (const pid of office) process.kill(pid, 'SIGKILL');
    const response = await pending;
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await response.json()).toEqual({
      statusCode: 503,
      message: 'Service Unavailable',
      detail: expect.stringMatching(
        /^the renderer stopped while it converted the deck and was replaced: try again shortly/,
      ),
    });
    expect(await rendered()).toBe(200);
  }, 120_000);
});
