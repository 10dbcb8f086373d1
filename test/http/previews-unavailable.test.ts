/**
 * A server on a machine without LibreOffice: its renderer looks for soffice on a PATH that has none,
 * a real condition, not a mock. It starts, generates decks as before and says in /healthz that previews are
 * unavailable; every request for a PDF, slide images or a render (the console inspector's slide pictures too) is
 * a 400 (shape A) saying so and why, at once, and uses no quota. Runs on every machine: it needs no LibreOffice. Where LibreOffice is installed, a server whose
 * Python cannot drive it (no UNO bridge) refuses a preview job at submission too.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findExecutable } from '../../src/adapters/libreoffice/render-tools.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { templateBytes } from '../support/servers/http-harness-paths.js';
import { pollUntil, submitJob } from '../support/http/jobs-polling.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';
import { ConsoleVisitor } from '../support/http/console-client.js';

/** A PATH with poppler and fontconfig (when installed) but no soffice. */
const bin = mkdtempSync(join(tmpdir(), 'deckforge-no-soffice-'));
let server: RunningServer;
let token: string;
let credentials: { email: string; password: string };

beforeAll(async () => {
  mkdirSync(bin, { recursive: true });
  for (const tool of ['pdftoppm', 'pdfinfo', 'fc-list', 'fc-match', 'python3']) {
    const found = findExecutable(tool, process.env.PATH ?? '');
    if (found) symlinkSync(found, join(bin, tool));
  }
  server = await startServer({ overrides: { rendering: { searchPath: bin } } });
  const account = await server.signUp();
  token = account.token;
  credentials = account;
});
afterAll(async () => {
  await server?.close();
  rmSync(bin, { recursive: true, force: true });
});

async function post(path: string, body: FormData): Promise<Response> {
  return fetch(`${server.base}${path}`, { method: 'POST', body, headers: bearer(token) });
}

async function usedSlides(): Promise<number> {
  const response = await fetch(`${server.base}/v1.0/usage`, { headers: bearer(token) });
  return ((await response.json()) as { result: { usedSlideCount: number } }).result.usedSlideCount;
}

function form(fields: Record<string, string>, deck = uploadForm(titleDeck(2))): FormData {
  for (const [name, value] of Object.entries(fields)) deck.append(name, value);
  return deck;
}

describe('a server without LibreOffice', () => {
  it('starts, says in /healthz that previews are unavailable and why, and still generates decks', async () => {
    const health = await fetch(`${server.base}/healthz`);
    expect(health.status).toBe(200);
    const body = (await health.json()) as {
      status: string;
      previews: { available: boolean; reason: string };
    };
    expect(body.status).toBe('ok');
    expect(body.previews.available).toBe(false);
    expect(body.previews.reason).toMatch(/soffice/);

    const deck = await post('/v1.0/generator/create', uploadForm(titleDeck(2)));
    expect(deck.status).toBe(200);
    await expectValidPptx(new Uint8Array(await deck.arrayBuffer()), templateBytes());
    const jobId = await submitJob(server.base, token, uploadForm(titleDeck(1)));
    const { last } = await pollUntil(server.base, token, jobId, ['SUCCEEDED', 'FAILED']);
    expect(last.status).toBe('SUCCEEDED');
    const job = await fetch(last.file_url ?? '');
    expect(job.status).toBe(200);
    await expectValidPptx(new Uint8Array(await job.arrayBuffer()), templateBytes());
  });

  it('answers every request for a PDF, slide images or a render with a 400 saying so, using no quota', async () => {
    const before = await usedSlides();
    const renderForm = new FormData();
    renderForm.append('files', new Blob([templateBytes()]), 'deck.pptx');
    const requests: [string, Promise<Response>][] = [
      ['sync pdf', post('/v1.0/generator/create', form({ format: 'pdf' }))],
      ['sync pdf (query)', post('/v1.0/generator/create?format=pdf', form({}))],
      ['job pdf', post('/v2.0/generator/create-async', form({ format: 'pdf' }))],
      ['job pptx+pdf', post('/v2.0/generator/create-async', form({ format: 'pptx+pdf' }))],
      ['job previews', post('/v2.0/generator/create-async', form({ previews: 'png' }))],
      ['render', post('/v1.0/render', renderForm)],
    ];
    for (const [label, pending] of requests) {
      const response = await pending;
      expect(response.status, label).toBe(400);
      const body = (await response.json()) as { details: string };
      expect(body, label).toEqual({
        statusCode: 400,
        message: 'Invalid input parameters',
        details: expect.any(String),
      });
      expect(body.details, label).toMatch(/^previews are unavailable on this server: .*soffice/);
    }
    expect(await usedSlides()).toBe(before);
  });
});

describe("the console inspector's slide pictures without LibreOffice", () => {
  it('says they are off and why, and refuses them at once like a render, using no quota', async () => {
    const visitor = new ConsoleVisitor(server.base);
    expect((await visitor.signIn(credentials.email, credentials.password)).status).toBe(200);
    const previews = await visitor.get('/console/api/previews');
    expect(previews.status).toBe(200);
    expect(previews.body).toEqual({ available: false, reason: expect.stringMatching(/soffice/) });
    const before = await usedSlides();
    // Refused before the address is even fetched (nothing answers there).
    const pictures = await visitor.post('/console/api/slide-pictures', {
      url: 'https://deckforge-template.invalid/deck.pptx',
    });
    expect(pictures.status).toBe(400);
    expect(pictures.body).toEqual({
      statusCode: 400,
      message: 'Invalid input parameters',
      details: expect.stringMatching(/^previews are unavailable on this server: .*soffice/),
    });
    expect(await usedSlides()).toBe(before);
  });
});

describe.skipIf(findExecutable('soffice', process.env.PATH ?? '') === null)(
  'a server with LibreOffice but no Python UNO bridge',
  () => {
    it('refuses a preview job when it is submitted (400, no quota), rather than accepting it to fail later', async () => {
      // An interpreter that cannot `import uno` (`false` exits 1 whatever it is asked): a real misconfiguration.
      const python = findExecutable('false', process.env.PATH ?? '');
      const bridgeless = await startServer({ overrides: { rendering: { python } } });
      try {
        const { token: own } = await bridgeless.signUp();
        const response = await fetch(`${bridgeless.base}/v2.0/generator/create-async`, {
          method: 'POST',
          body: form({ previews: 'png' }),
          headers: bearer(own),
        });
        expect(response.status).toBe(400);
        expect(((await response.json()) as { details: string }).details).toMatch(
          /^previews are unavailable on this server: no Python with LibreOffice's UNO bindings was found/,
        );
        const usage = await fetch(`${bridgeless.base}/v1.0/usage`, { headers: bearer(own) });
        expect(((await usage.json()) as { result: { usedSlideCount: number } }).result.usedSlideCount).toBe(
          0,
        );
      } finally {
        await bridgeless.close();
      }
    });
  },
);
