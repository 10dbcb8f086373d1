/**
 * Asynchronous jobs end to end through the service: submission checks, the consumer's state walk on the real
 * engine, FAILED with actionable messages, template URLs (allowed and refused), signed links, ownership and expiry.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { EngineError } from '../../../src/engine/index.js';
import { ForbiddenDownloadError, InvalidInputError, NotFoundError } from '../../../src/service/errors.js';
import {
  deck,
  expectValidJobDeck,
  pathOf,
  startHarness,
  templateBytes,
  upload,
  waitForJob,
  type Harness,
} from '../service-harness.js';

let h: Harness;
let templateServer: Server;
let templateUrl = '';

beforeAll(async () => {
  h = await startHarness({ overrides: { allowPrivateUrls: true, jobRetentionHours: 2 } });
  templateServer = createServer((_request, response) => response.writeHead(200).end(templateBytes()));
  await new Promise<void>((resolve) => templateServer.listen(0, '127.0.0.1', resolve));
  templateUrl = `http://127.0.0.1:${(templateServer.address() as AddressInfo).port}/deck.pptx`;
});
afterAll(async () => {
  await h.close();
  await new Promise((resolve) => templateServer.close(resolve));
});

describe('jobs', () => {
  it('QUEUED at submission, then SUCCEEDED with a signed link to a file named after resultFileName', async () => {
    const user = await h.signUp();
    const submitted = await h.service.submitJob(
      user.account,
      upload(deck(4, { resultFileName: 'Board deck' })),
    );
    expect(submitted.status).toBe('QUEUED');
    const done = await waitForJob(h.service, user.account, submitted.jobId);
    expect(done).toMatchObject({ status: 'SUCCEEDED', errorMessage: null });
    expect(done.fileUrl).toMatch(
      /^http:\/\/127\.0\.0\.1:8080\/v2\.0\/files\/jobs\/.+\/Board%20deck\.pptx\?expires=\d+&signature=/,
    );
    const download = await h.service.openDownload(pathOf(done.fileUrl ?? ''));
    expect(download.fileName).toBe('Board deck.pptx');
    await expectValidPptx(await download.content.bytes(), templateBytes());
    expect((await h.service.usage(user.account)).usedSlideCount).toBe(4);
    const stats = await h.service.stats();
    expect(stats.jobsByState.SUCCEEDED).toBeGreaterThanOrEqual(1);
    expect(stats.generatedSlides).toBeGreaterThanOrEqual(4);
  });

  it('each status call issues a fresh link, valid 15 minutes', async () => {
    const user = await h.signUp();
    const { jobId } = await h.service.submitJob(user.account, upload(deck(1)));
    const first = (await waitForJob(h.service, user.account, jobId)).fileUrl ?? '';
    h.clock.advance(60_000);
    const second = (await h.service.jobStatus(user.account, jobId, 'http://example.test')).fileUrl ?? '';
    expect(second).not.toBe(first);
    expect(second.startsWith('http://example.test/v2.0/files/')).toBe(true);
    h.clock.advance(14 * 60_000 + 1000); // first link is now 15 min + 1 s old
    await expect(h.service.openDownload(pathOf(first))).rejects.toBeInstanceOf(ForbiddenDownloadError);
    await expectValidJobDeck(h.service, { fileUrl: second });
    // One character of the signature changed (to a different one: it may already have been an "x").
    const tampered = pathOf(second).replace(
      /signature=(.)/,
      (_, c: string) => `signature=${c === 'x' ? 'y' : 'x'}`,
    );
    expect(tampered).not.toBe(pathOf(second));
    await expect(h.service.openDownload(tampered)).rejects.toBeInstanceOf(ForbiddenDownloadError);
  });

  it('malformed jsonData is refused at submission; nothing is queued or reserved', async () => {
    const user = await h.signUp();
    const depth = (await h.service.stats()).queueDepth;
    const notJson = h.service.submitJob(user.account, { jsonData: 'not json', files: [] });
    await expect(notJson).rejects.toBeInstanceOf(EngineError);
    await expect(notJson).rejects.toThrow(/^jsonData: not valid JSON at line 1, column 1: unexpected "n"/);
    await expect(h.service.submitJob(user.account, upload({ presentation: {} }))).rejects.toBeInstanceOf(
      EngineError,
    );
    expect((await h.service.stats()).queueDepth).toBe(depth);
    expect((await h.service.usage(user.account)).usedSlideCount).toBe(0);
  });

  it('a template problem ends FAILED with a message the user can act on, and gives the slides back', async () => {
    const user = await h.signUp('Tiny');
    const payload = deck(10, { shape_validation_mode: 'strict' });
    (payload.presentation.slides as { shapes: { name: string }[] }[])[0]!.shapes[0]!.name = 'Chart 7';
    const { jobId } = await h.service.submitJob(user.account, upload(payload));
    const failed = await waitForJob(h.service, user.account, jobId);
    expect(failed.status).toBe('FAILED');
    expect(failed.fileUrl).toBeNull();
    expect(failed.errorMessage).toMatch(/Chart 7/);
    // The reservation came back: the full allowance fits again.
    await expect(h.service.generateNow(user.account, upload(deck(10)))).resolves.toBeTruthy();
  });

  it('fetches a template given by URL (private URLs allowed in this configuration)', async () => {
    const user = await h.signUp();
    const payload = deck(2);
    payload.presentation.template = templateUrl;
    const { jobId } = await h.service.submitJob(user.account, upload(payload, []));
    const done = await waitForJob(h.service, user.account, jobId);
    expect(done.status).toBe('SUCCEEDED');
    expect(done.fileUrl).toMatch(/deck-generated\.pptx\?/); // no resultFileName: named after the template
    await expectValidJobDeck(h.service, done);
  });

  it("another account's job is not found, exactly like an unknown id", async () => {
    const owner = await h.signUp();
    const stranger = await h.signUp();
    const { jobId } = await h.service.submitJob(owner.account, upload(deck(1)));
    const unknown = await h.service
      .jobStatus(stranger.account, 'no-such-job', 'http://x')
      .catch((e: Error) => e);
    const foreign = await h.service.jobStatus(stranger.account, jobId, 'http://x').catch((e: Error) => e);
    expect(foreign).toBeInstanceOf(NotFoundError);
    expect((foreign as Error).message.replace(jobId, 'ID')).toBe(
      (unknown as Error).message.replace('no-such-job', 'ID'),
    );
    await expectValidJobDeck(h.service, await waitForJob(h.service, owner.account, jobId));
  });

  it('an expired job is not found and its files are deleted', async () => {
    const user = await h.signUp();
    const { jobId } = await h.service.submitJob(user.account, upload(deck(1)));
    const done = await waitForJob(h.service, user.account, jobId);
    await expectValidJobDeck(h.service, done);
    const folder = join(h.dataDir, 'blobs', 'jobs', jobId);
    expect(existsSync(folder)).toBe(true);
    h.clock.advance(2 * 3600_000 + 1000);
    try {
      await expect(h.service.jobStatus(user.account, jobId, 'http://x')).rejects.toThrow(/has expired/);
      expect(existsSync(folder)).toBe(false);
      await expect(h.service.openDownload(pathOf(done.fileUrl ?? ''))).rejects.toThrow();
    } finally {
      h.clock.advance(-(2 * 3600_000 + 1000));
    }
  });
});

describe('sharing the generation threads', () => {
  it('a synchronous request is served while a large job runs (a thread is kept for requests)', async () => {
    const big = await startHarness({
      plans: [{ name: 'Big', allowedSlideCount: 100_000, requestsPerMinute: 1000 }],
      // A lease that a busy machine cannot let lapse: a lapsed lease requeues the running job, which is not what
      // this test is about.
      runtime: { consumer: { pollMs: 50, leaseMs: 60_000, recoverEveryMs: 200 } },
    });
    try {
      const user = await big.signUp();
      // Each job runs for far longer than one small request takes. Submitted one after the other, so that the
      // first is the one that runs first.
      const jobs = [
        await big.service.submitJob(user.account, upload(deck(2000))),
        await big.service.submitJob(user.account, upload(deck(2000))),
      ];
      const deadline = Date.now() + 30_000;
      while (
        (await big.service.jobStatus(user.account, jobs[0]!.jobId, 'http://x')).status !== 'PROCESSING'
      ) {
        if (Date.now() > deadline) throw new Error('the job never started');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const result = await big.service.generateNow(user.account, upload(deck(1)));
      expect(result.slideCount).toBe(1);
      // Both big jobs are still waiting or running: the small deck did not queue behind them.
      const states = await Promise.all(
        jobs.map((j) => big.service.jobStatus(user.account, j.jobId, 'http://x')),
      );
      // (The second may already be PROCESSING: a job is taken, and fetches its URLs, before a thread is free.)
      for (const state of states) expect(['PROCESSING', 'QUEUED']).toContain(state.status);
      const decks = [await result.content.bytes()];
      for (const job of jobs) {
        const done = await waitForJob(big.service, user.account, job.jobId, 120_000);
        expect(done.status).toBe('SUCCEEDED');
        decks.push(await (await big.service.openDownload(pathOf(done.fileUrl ?? ''))).content.bytes());
      }
      // Only now: the validator holds the event loop for seconds, which would stall the jobs' leases.
      for (const bytes of decks) await expectValidPptx(bytes, templateBytes());
    } finally {
      await big.close();
    }
  }, 180_000); // two 2000-slide decks go through the validator
});

describe('template URLs under the default configuration', () => {
  it('a job whose template URL is on a private address ends FAILED, naming the refusal; sync is a 400', async () => {
    const strict = await startHarness();
    try {
      const user = await strict.signUp();
      for (const url of [
        templateUrl,
        'http://10.0.0.7/t.pptx',
        'http://169.254.169.254/latest',
        'http://[::1]/t.pptx',
      ]) {
        const payload = deck(1);
        payload.presentation.template = url;
        const { jobId } = await strict.service.submitJob(user.account, upload(payload, []));
        const failed = await waitForJob(strict.service, user.account, jobId);
        expect(failed.status).toBe('FAILED');
        expect(failed.errorMessage).toMatch(/is refused: its host resolves to/);
        await expect(strict.service.generateNow(user.account, upload(payload, []))).rejects.toBeInstanceOf(
          InvalidInputError,
        );
      }
      expect((await strict.service.usage(user.account)).usedSlideCount).toBe(0);
    } finally {
      await strict.close();
    }
  });
});
