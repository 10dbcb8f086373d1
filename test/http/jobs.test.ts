/**
 * Endpoints 3, 4 and 5: submission, every job state and transition, the signed download and its refusals.
 * One worker, so a second job is QUEUED while the first is PROCESSING; the first test holds each state on purpose.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  bearer,
  expectShapeB,
  issueToken,
  startServer,
  type RunningServer,
} from '../support/servers/http-harness.js';
import { templateBytes } from '../support/servers/http-harness-paths.js';
import { pollUntil, readStatus, submitJob } from '../support/http/jobs-polling.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';
import { slideTexts } from '../support/readers/pptx-reading.js';
import { hostGatedTemplates } from '../support/servers/template-host.js';

const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
let server: RunningServer;
let token: string;
const template = templateBytes();

beforeAll(async () => {
  // Private URLs allowed: job templates are served from this machine (see the first test).
  server = await startServer({ overrides: { workers: 1, allowPrivateUrls: true } });
  token = (await server.signUp({ plan: 'Enterprise' })).token;
});
afterAll(async () => server.close());

async function usedSlides(): Promise<number> {
  const response = await fetch(`${server.base}/v1.0/usage`, { headers: bearer(token) });
  return ((await response.json()) as { result: { usedSlideCount: number } }).result.usedSlideCount;
}

describe('asynchronous generation', () => {
  it('answers 202 {job_id, status: "QUEUED"} and walks QUEUED → PROCESSING → SUCCEEDED', async () => {
    // Each job's template sits behind a link the test holds open: a job stays PROCESSING (fetching it) until the
    // test lets the download finish. A job fetches before it needs a thread, so a second job is taken at once
    // too; one account may hold every claim but one (kept for other accounts), so a third stays QUEUED.
    // Every state is held on purpose; no poll has to catch a moment.
    const gated = await hostGatedTemplates();
    try {
      const deck = (slides: number, name: string, resultFileName: string) =>
        uploadForm(titleDeck(slides, { template: gated.url(name), resultFileName }), []);
      const response = await fetch(`${server.base}/v2.0/generator/create-async`, {
        method: 'POST',
        body: deck(3, 'first', 'First one'),
        headers: bearer(token),
      });
      expect(response.status).toBe(202);
      const submitted = (await response.json()) as { job_id: string };
      expect(submitted).toEqual({ job_id: expect.any(String), status: 'QUEUED' });
      const first = submitted.job_id;
      const held = {
        status: 'PROCESSING',
        error_message: null,
        file_url: null,
        warnings: [],
        warning_count: 0,
        progress: null,
      };
      const waiting = { ...held, status: 'QUEUED' };

      await gated.requested('first'); // the worker took the first job and is fetching its template
      expect(await readStatus(server.base, token, first)).toEqual(held);
      const second = await submitJob(server.base, token, deck(4, 'second', 'Second one'));
      await gated.requested('second');
      expect(await readStatus(server.base, token, second)).toEqual(held);
      const third = await submitJob(server.base, token, deck(2, 'third', 'Third one'));
      const seen = [];
      for (let i = 0; i < 3; i += 1) {
        seen.push(await readStatus(server.base, token, third));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(seen).toEqual([waiting, waiting, waiting]); // the account holds the most claims it may
      expect(await readStatus(server.base, token, first)).toEqual(held);

      gated.release('first');
      await gated.requested('third'); // the first is done; its claim goes to the third
      expect(await readStatus(server.base, token, third)).toEqual(held);
      gated.release('second');
      gated.release('third');
      const thirdWalk = await pollUntil(server.base, token, third, ['SUCCEEDED', 'FAILED']);
      expect(thirdWalk.last.status).toBe('SUCCEEDED');
      const secondWalk = await pollUntil(server.base, token, second, ['SUCCEEDED', 'FAILED']);
      expect(secondWalk.seen.at(-1)).toBe('SUCCEEDED');

      const done = await pollUntil(server.base, token, first, ['SUCCEEDED', 'FAILED']);
      expect(done.last.status).toBe('SUCCEEDED');
      expect(done.last.error_message).toBeNull();
      expect(done.last.file_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2\.0\/files\//);

      const download = await fetch(secondWalk.last.file_url ?? '');
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe(PPTX);
      expect(download.headers.get('content-disposition')).toBe('attachment; filename="Second one.pptx"');
      const bytes = new Uint8Array(await download.arrayBuffer());
      expect(slideTexts(bytes)).toHaveLength(4);
      await expectValidPptx(bytes, template);

      const firstDownload = await fetch(done.last.file_url ?? '');
      expect(firstDownload.status).toBe(200);
      const firstBytes = new Uint8Array(await firstDownload.arrayBuffer());
      expect(slideTexts(firstBytes)).toHaveLength(3);
      await expectValidPptx(firstBytes, template);
    } finally {
      await gated.close();
    }
  });

  it('issues a fresh link on every status call of a succeeded job, and refuses Authorization or tampering', async () => {
    const jobId = await submitJob(server.base, token, uploadForm(titleDeck(1, { resultFileName: 'Links' })));
    const first = (await pollUntil(server.base, token, jobId, ['SUCCEEDED', 'FAILED'])).last;
    expect(first.status).toBe('SUCCEEDED');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await readStatus(server.base, token, jobId);
    expect(second.file_url).not.toBeNull();
    expect(second.file_url).not.toBe(first.file_url);

    const url = new URL(second.file_url ?? '');
    const withAuth = await fetch(url, { headers: bearer(token) });
    await expectShapeB(withAuth, 403, 'Forbidden');

    for (const [name, value] of [...url.searchParams]) {
      const tampered = new URL(url);
      tampered.searchParams.set(
        name,
        value.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
      );
      const response = await fetch(tampered);
      await expectShapeB(response, 403, 'Forbidden', `tampered ${name}`);
    }
    const renamed = new URL(url);
    renamed.pathname = renamed.pathname.replace(/[^/]+$/, 'other.pptx');
    expect((await fetch(renamed)).status).toBe(403);

    const download = await fetch(url);
    expect(download.status).toBe(200);
    await expectValidPptx(new Uint8Array(await download.arrayBuffer()), template);

    // The link's signature is a credential: it never reaches a log line.
    const signature = url.searchParams.get('signature') ?? '';
    expect(signature.length).toBeGreaterThan(10);
    expect(server.logs.join('\n')).not.toContain(signature);
    expect(server.logs.join('\n')).toContain('/v2.0/files/[redacted]');
  });

  it('ends a job with a template problem as FAILED with an actionable error_message and gives the quota back', async () => {
    const before = await usedSlides();
    const jobId = await submitJob(server.base, token, uploadForm(titleDeck(3, { slideIndex: 57 })));
    const { last } = await pollUntil(server.base, token, jobId, ['SUCCEEDED', 'FAILED']);
    expect(last.status).toBe('FAILED');
    expect(last.file_url).toBeNull();
    expect(last.error_message).toMatch(/slide_index/);
    expect(last.error_message).toMatch(/57/);
    expect(await usedSlides()).toBe(before);
  });

  it('refuses malformed jsonData at submission with 400 shape A', async () => {
    const response = await fetch(`${server.base}/v2.0/generator/create-async`, {
      method: 'POST',
      body: uploadForm('{"presentation": [1, 2'),
      headers: bearer(token),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      statusCode: 400,
      message: 'Invalid input parameters',
      details: expect.any(String),
    });
  });

  it('answers 404 shape B for an unknown job id and, identically, for another account’s job', async () => {
    const jobId = await submitJob(server.base, token, uploadForm(titleDeck(1)));
    const stranger = await server.signUp();
    const unknownId = '00000000-0000-4000-8000-000000000000';
    const unknown = await fetch(`${server.base}/v2.0/jobs/${unknownId}/status`, {
      headers: bearer(token),
    });
    const foreign = await fetch(`${server.base}/v2.0/jobs/${jobId}/status`, {
      headers: bearer(stranger.token),
    });
    expect(unknown.status).toBe(404);
    expect(foreign.status).toBe(404);
    const unknownBody = (await unknown.json()) as Record<string, unknown>;
    expect(unknownBody).toEqual({ statusCode: 404, message: 'Not Found', detail: expect.any(String) });
    // Same body but for the id it quotes: nothing tells the stranger that the job exists.
    const foreignBody = JSON.stringify(await foreign.json()).replace(jobId, '<id>');
    expect(foreignBody).toBe(JSON.stringify(unknownBody).replace(unknownId, '<id>'));
  });

  it('answers 401 shape B on the status endpoint without a valid token', async () => {
    const response = await fetch(`${server.base}/v2.0/jobs/anything/status`);
    await expectShapeB(response, 401, 'Unauthorized');
  });

  // These two move the server's clock forward, so they run last.
  it('refuses a download link once its 15 minutes are over; the next status call issues a working one', async () => {
    const jobId = await submitJob(
      server.base,
      token,
      uploadForm(titleDeck(1, { resultFileName: 'Expiring' })),
    );
    const { last } = await pollUntil(server.base, token, jobId, ['SUCCEEDED', 'FAILED']);
    expect(last.status).toBe('SUCCEEDED');
    server.clock.advance(14 * 60_000);
    const stillValid = await fetch(last.file_url ?? '');
    expect(stillValid.status).toBe(200);
    await expectValidPptx(new Uint8Array(await stillValid.arrayBuffer()), template);
    server.clock.advance(2 * 60_000);
    const expired = await fetch(last.file_url ?? '');
    await expectShapeB(expired, 403, 'Forbidden');
    const fresh = await readStatus(server.base, token, jobId);
    const download = await fetch(fresh.file_url ?? '');
    expect(download.status).toBe(200);
    await expectValidPptx(new Uint8Array(await download.arrayBuffer()), template);
  });

  it('answers 404 for an expired job and deletes its file', async () => {
    const owner = await server.signUp();
    const jobId = await submitJob(server.base, owner.token, uploadForm(titleDeck(1)));
    const { last } = await pollUntil(server.base, owner.token, jobId, ['SUCCEEDED', 'FAILED']);
    const key = decodeURIComponent(new URL(last.file_url ?? '').pathname)
      .slice('/v2.0/files/'.length)
      .replace(/\/[^/]+$/, '');
    const stored = join(server.dataDir, 'blobs', ...key.split('/'));
    expect(existsSync(stored), stored).toBe(true);

    server.clock.advance(25 * 3_600_000); // past the 24 h retention (and the token's 24 h)
    const renewed = await issueToken(server.base, owner);
    let response: Response | undefined;
    for (let attempt = 0; attempt < 50; attempt += 1) {
      response = await fetch(`${server.base}/v2.0/jobs/${jobId}/status`, { headers: bearer(renewed) });
      if (response.status === 404 && !existsSync(stored)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!response) throw new Error('no status call was made');
    await expectShapeB(response, 404, 'Not Found');
    expect(existsSync(stored)).toBe(false);
    expect((await fetch(last.file_url ?? '')).status).not.toBe(200);
  });
});
