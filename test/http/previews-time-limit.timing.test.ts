/**
 * A render past its time budget over HTTP: a server whose renderer may spend one second on a deck
 * (DECKFORGE_RENDER_TIMEOUT_SECONDS=1) gets a deck of 300 slides that no LibreOffice converts that fast. The
 * request ends in a 400 (shape A) that names the limit, no slide is charged, and the next request is served by
 * the fresh LibreOffice that replaced the stopped one. A job asking for the PDF of a larger deck ends FAILED with
 * the same reason and gives its slides back.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithLibreOffice } from '../support/servers/libreoffice.js';
import { previewDeck } from '../support/decks/preview-decks.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { pollUntil, submitJob } from '../support/http/jobs-polling.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';

let server: RunningServer;
let token: string;

beforeAll(async () => {
  server = await startServer({ overrides: { rendering: { renderers: 1, timeoutMs: 1000 } } });
  token = (await server.signUp({ plan: 'Enterprise' })).token;
}, 60_000);
afterAll(async () => server?.close());

async function usedSlides(): Promise<number> {
  const response = await fetch(`${server.base}/v1.0/usage`, { headers: bearer(token) });
  return ((await response.json()) as { result: { usedSlideCount: number } }).result.usedSlideCount;
}

function renderForm(deck: Uint8Array): FormData {
  const form = new FormData();
  form.append('files', new Blob([deck]), 'deck.pptx');
  return form;
}

describeWithLibreOffice('a render past its time budget', () => {
  it('is a 400 naming the limit, charges nothing, and the next render works', async () => {
    const before = await usedSlides();
    const response = await fetch(`${server.base}/v1.0/render`, {
      method: 'POST',
      body: renderForm(previewDeck(300, { paragraphs: 6 })),
      headers: bearer(token),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      statusCode: 400,
      message: 'Invalid input parameters',
      details: expect.stringMatching(
        /^rendering the deck took longer than the 1-second limit and was stopped/,
      ),
    });
    expect(await usedSlides()).toBe(before);

    const next = await fetch(`${server.base}/v1.0/render`, {
      method: 'POST',
      body: renderForm(previewDeck(1)),
      headers: bearer(token),
    });
    expect(next.status).toBe(200);
    expect(next.headers.get('x-page-count')).toBe('1');
  }, 120_000);

  it('fails a job asking for the PDF of such a deck with that reason, and gives its slides back', async () => {
    const before = await usedSlides();
    // Five times the slides of the deck above: a title slide renders faster than a slide of six paragraphs, and 300 of
    // them have been converted inside the second.
    const form = uploadForm(titleDeck(1500));
    form.append('format', 'pdf');
    const jobId = await submitJob(server.base, token, form);
    const { last } = await pollUntil(server.base, token, jobId, ['SUCCEEDED', 'FAILED']);
    expect(last.status).toBe('FAILED');
    expect(last.error_message).toMatch(/^rendering the deck took longer than the 1-second limit/);
    expect(last.file_url).toBeNull();
    expect(await usedSlides()).toBe(before);
  }, 120_000);
});
