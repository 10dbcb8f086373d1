/**
 * The typed client (`deckforge/client`, the built package as an installed user imports it) against a real
 * `deckforge serve`: every method, templates from each kind of source, the typed errors, a token it creates
 * and renews itself (one that expired in a restarted server a day later included), and waiting with a timeout
 * and an abort. A recording server checks the Idempotency-Key: sent on every submit, the same on a retry.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configWith } from '../../src/config/index.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { createAccountIn, tempDataDir, type Credentials } from '../support/servers/http-harness.js';
import { TEMPLATE_NAME, TEMPLATE_PATH, templateBytes } from '../support/servers/http-harness-paths.js';
import { titleDeck as titleDocument } from '../support/http/payloads.js';
import type { JsonData } from '../../packages/client/src/index.js';
import { startServe, type ServeProcess } from '../support/servers/serve-process.js';
import { LIBREOFFICE_MISSING } from '../support/servers/libreoffice.js';
import { hostGatedTemplates, hostTemplate, type TemplateHost } from '../support/servers/template-host.js';

type ClientModule = typeof import('../../packages/client/src/index.js');
// The package's own export, as `import ... from 'deckforge/client'` resolves it in a user's project (dist/);
// named through a constant so that type-checking does not need dist/ built.
const CLIENT_PACKAGE = 'deckforge/client';

/** titleDeck's document under the client's payload type (titleDeck is typed loosely for the HTTP tests). */
const titleDeck = (...args: Parameters<typeof titleDocument>): JsonData => titleDocument(...args) as JsonData;

const dataDir = tempDataDir();
let serve: ServeProcess;
let account: Credentials;
let host: TemplateHost;
let client: ClientModule;

beforeAll(async () => {
  // Private URLs allowed: the gated template host (a job held in PROCESSING) listens on 127.0.0.1.
  serve = await startServe(dataDir, { DECKFORGE_ALLOW_PRIVATE_URLS: 'true' });
  account = await createAccountIn(configWith({ dataDir }), 'Enterprise');
  host = await hostTemplate();
  client = (await import(CLIENT_PACKAGE)) as ClientModule;
}, 120_000);
afterAll(async () => {
  await serve.kill();
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const signedIn = () => new client.DeckforgeClient({ baseUrl: serve.base, ...account });

describe('DeckforgeClient against deckforge serve', () => {
  it('generates from a path with credentials alone, and usage counts the slides', async () => {
    const deckforge = signedIn();
    const before = await deckforge.usage();
    const deck = await deckforge.generate(TEMPLATE_PATH, titleDeck(3));
    await expectValidPptx(deck, templateBytes());
    expect((await deckforge.usage()).usedSlideCount).toBe((before.usedSlideCount ?? 0) + 3);
  });

  it('uploads bytes, a Blob or a URL under the name the payload gives; the deck also as a stream', async () => {
    const deckforge = signedIn();
    const payload = titleDeck(1, { template: 'renamed.pptx' });
    for (const source of [
      templateBytes(),
      new Blob([templateBytes()]),
      new URL(host.url),
      host.url,
      Buffer.from(templateBytes()),
    ]) {
      await expectValidPptx(await deckforge.generate(source, payload), templateBytes());
    }
    const stream = await deckforge.generateStream(templateBytes(), payload);
    await expectValidPptx(new Uint8Array(await new Response(stream).arrayBuffer()), templateBytes());
  });

  it('submits, reports each status while waiting, and downloads by job id and by status', async () => {
    const deckforge = signedIn();
    const jobId = await deckforge.submit(templateBytes(), titleDeck(2, { resultFileName: 'Client job' }));
    const seen: string[] = [];
    const done = await deckforge.waitForJob(jobId, { onStatus: (s) => seen.push(s.status) });
    expect(done.status).toBe('SUCCEEDED');
    expect(seen.at(-1)).toBe('SUCCEEDED');
    expect(seen.every((s) => ['QUEUED', 'PROCESSING', 'SUCCEEDED'].includes(s))).toBe(true);
    await expectValidPptx(await deckforge.download(jobId), templateBytes());
    await expectValidPptx(await deckforge.download(done), templateBytes());
  });

  it('lets the server fetch a template URL when no template is given', async () => {
    const deckforge = signedIn();
    const jobId = await deckforge.submit(null, titleDeck(1, { template: host.url }));
    const done = await deckforge.waitForJob(jobId);
    await expectValidPptx(await deckforge.download(done), templateBytes());
  });

  it('inspects a template', async () => {
    const report = await signedIn().inspect(TEMPLATE_PATH);
    const title = report.slides[0]?.shapes.find((shape) => shape.name === 'Title 1');
    expect(title).toMatchObject({ kind: 'text', box: { x: 685800, y: 2130425, cx: 7772400, cy: 1470025 } });
    expect(report.slideSize).toEqual({ cx: 9144000, cy: 6858000 });
  });

  // Needs LibreOffice on the server (test/http/previews.test.ts covers the HTTP side in full).
  it.skipIf(LIBREOFFICE_MISSING !== null)(
    `makes PDFs and slide images: generatePdf, submit with format and previews, downloadLink, render${
      LIBREOFFICE_MISSING ? ` [skipped: ${LIBREOFFICE_MISSING}]` : ''
    }`,
    async () => {
      const deckforge = signedIn();
      const pdf = await deckforge.generatePdf(TEMPLATE_PATH, titleDeck(2));
      expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');

      const jobId = await deckforge.submit(templateBytes(), titleDeck(2), undefined, {
        format: 'pptx+pdf',
        previewWidth: 300,
      });
      const status = await deckforge.waitForJob(jobId, { initialIntervalMs: 100 });
      expect(status.status).toBe('SUCCEEDED');
      await expectValidPptx(await deckforge.download(status), templateBytes());
      const jobPdf = await deckforge.downloadLink(status.pdf_url ?? '');
      expect(new TextDecoder().decode(jobPdf.subarray(0, 5))).toBe('%PDF-');
      expect(status.preview_urls).toHaveLength(2);
      const png = await deckforge.downloadLink(status.preview_urls?.[1] ?? '');
      expect(new DataView(png.buffer, png.byteOffset).getUint32(16)).toBe(300); // IHDR width

      const zip = await deckforge.render(await deckforge.download(status), { format: 'png', width: 120 });
      expect(new TextDecoder().decode(zip.subarray(0, 2))).toBe('PK');
      const rendered = await deckforge.render(TEMPLATE_PATH);
      expect(new TextDecoder().decode(rendered.subarray(0, 5))).toBe('%PDF-');
    },
    120_000,
  );

  it('stores a template, generates with its name and its id, lists, reads, downloads and deletes it', async () => {
    const deckforge = signedIn();
    const first = await deckforge.uploadTemplate(TEMPLATE_PATH, 'client-stored.pptx');
    expect(first).toMatchObject({
      name: 'client-stored.pptx',
      version: 1,
      bytes: templateBytes().byteLength,
    });
    const again = await deckforge.uploadTemplate(templateBytes(), 'client-stored.pptx');
    expect(again).toEqual(first); // the same bytes: no new version
    for (const template of ['client-stored.pptx', first.id]) {
      await expectValidPptx(await deckforge.generate(null, titleDeck(2, { template })), templateBytes());
    }
    expect((await deckforge.listTemplates()).map((t) => t.id)).toContain(first.id);
    const detail = await deckforge.getTemplate(first.id);
    expect(detail.versions).toEqual([first]);
    expect(detail.inspect.slides.length).toBe(first.slides);
    expect(await deckforge.downloadTemplate(first.id)).toEqual(templateBytes());
    expect(await deckforge.deleteTemplate(first.id)).toBe(1);
    const gone = await deckforge.getTemplate(first.id).catch((e: unknown) => e);
    expect(gone).toMatchObject({ status: 404 });
  });

  it('throws a typed error for a 400, with each problem and its JSON path', async () => {
    const bad = {
      presentation: {
        template: TEMPLATE_NAME,
        slides: [{ slide_index: 'first' }, { slide_index: 0, shapes: [{ content: 'no name' }] }],
      },
    };
    // The types refuse this payload; a JavaScript caller can still send it.
    const error = await signedIn()
      .generate(templateBytes(), bad as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(client.DeckforgeError);
    const failure = error as InstanceType<ClientModule['DeckforgeError']>;
    expect(failure.status).toBe(400);
    expect(failure.body).toMatchObject({ statusCode: 400, message: 'Invalid input parameters' });
    expect(failure.problems.map((p) => p.path)).toEqual([
      'presentation.slides[0].slide_index',
      'presentation.slides[1].shapes[0]',
    ]);
    expect(failure.problems.every((p) => p.message.length > 0)).toBe(true);
    expect(failure.code).toBe('DECKFORGE_INVALID_PAYLOAD');
  });

  it('throws a typed 404 for an unknown job', async () => {
    const error = await signedIn()
      .jobStatus('no-such-job')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 404,
      body: { statusCode: 404, message: 'Not Found' },
      code: 'DECKFORGE_NOT_FOUND',
    });
  });

  it('renews a token the server refuses when it has credentials, and fails with 401 when it has not', async () => {
    // A call without a body gets the 401 itself (an upload may see the socket closed first: the other path).
    const renewing = new client.DeckforgeClient({ baseUrl: serve.base, ...account, token: 'not-a-token' });
    expect((await renewing.usage()).plan).toBe('Enterprise');
    const uploading = new client.DeckforgeClient({ baseUrl: serve.base, ...account, token: 'not-a-token' });
    await expectValidPptx(await uploading.generate(templateBytes(), titleDeck(1)), templateBytes());
    const tokenOnly = new client.DeckforgeClient({ baseUrl: serve.base, token: 'not-a-token' });
    const error = await tokenOnly.usage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(client.DeckforgeError);
    expect(error).toMatchObject({ status: 401, body: { statusCode: 401, message: 'Unauthorized' } });
  });

  it('times out and stops on abort while a job is still running', async () => {
    const gated = await hostGatedTemplates();
    try {
      const deckforge = signedIn();
      const jobId = await deckforge.submit(null, titleDeck(1, { template: gated.url('slow') }));
      await gated.requested('slow');
      const timedOut = await deckforge
        .waitForJob(jobId, { timeoutMs: 700, initialIntervalMs: 100 })
        .catch((e: unknown) => e);
      expect(timedOut).toBeInstanceOf(client.DeckforgeTimeoutError);
      expect(timedOut).toMatchObject({ jobId, lastStatus: 'PROCESSING' });
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('caller gave up')), 300);
      const aborted = await deckforge
        .waitForJob(jobId, { signal: controller.signal, initialIntervalMs: 100 })
        .catch((e: unknown) => e);
      expect(aborted).toMatchObject({ message: 'caller gave up' });
      gated.release('slow');
      expect((await deckforge.waitForJob(jobId)).status).toBe('SUCCEEDED');
    } finally {
      await gated.close();
    }
  });
});

describe('DeckforgeClient with a token that expired', () => {
  it('renews it after the server restarts a day later, and the upload goes through', async () => {
    const token = (await import('../support/servers/http-harness.js')).issueToken;
    const stale = await token(serve.base, account);
    await serve.kill();
    // The same data directory, its clock 25 hours ahead of this process's (libfaketime, from an absolute time:
    // this process may itself run on a moved clock, which a relative offset would ignore): the token has expired.
    const dayLater = new Date(Date.now() + 25 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
    serve = await startServe(dataDir, {
      DECKFORGE_ALLOW_PRIVATE_URLS: 'true',
      LD_PRELOAD: '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
      FAKETIME: `@${dayLater}`,
      TZ: 'UTC',
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
    });
    const refused = await fetch(`${serve.base}/v1.0/usage`, {
      headers: { authorization: `Bearer ${stale}` },
    });
    expect(refused.status).toBe(401);
    const deckforge = new client.DeckforgeClient({ baseUrl: serve.base, ...account, token: stale });
    await expectValidPptx(await deckforge.generate(TEMPLATE_PATH, titleDeck(2)), templateBytes());
  }, 60_000);
});

interface Recorded {
  headers: IncomingHttpHeaders;
}

describe('Idempotency-Key', () => {
  it('is sent on every submit, a new one per call and the same one on the retry after a broken connection', async () => {
    const seen: Recorded[] = [];
    let breakNext = false;
    const recorder = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        seen.push({ headers: request.headers });
        if (breakNext) {
          breakNext = false;
          request.socket.destroy(); // no answer: the client sees a network error
          return;
        }
        response.writeHead(202, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ job_id: `job-${seen.length}`, status: 'QUEUED' }));
      });
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
      const deckforge = new client.DeckforgeClient({ baseUrl: base, token: 't' });
      await deckforge.submit(templateBytes(), titleDeck(1));
      await deckforge.submit(templateBytes(), titleDeck(1));
      breakNext = true;
      expect(await deckforge.submit(templateBytes(), titleDeck(1))).toBe('job-4');
      const keys = seen.map((r) => r.headers['idempotency-key']);
      expect(keys.every((k) => typeof k === 'string' && /^[0-9a-f-]{36}$/.test(k))).toBe(true);
      expect(new Set(keys.slice(0, 3)).size).toBe(3);
      expect(keys[3]).toBe(keys[2]);
      expect(seen.every((r) => r.headers.authorization === 'Bearer t')).toBe(true);
    } finally {
      await new Promise((resolve) => recorder.close(resolve));
    }
  });
});
