/**
 * SIGTERM ends within a bounded time whatever the generation threads are doing: `serve` and `worker`
 * stop through shutDownWithin, which gives running work its time and then interrupts it. A job interrupted so is
 * neither FAILED nor lost: it keeps its claim and runs again at the next start, like after a crash.
 */
import { describe, expect, it } from 'vitest';
import { layoutsTemplate } from '../support/decks/layouts-template.js';
import { shutDownWithin } from '../../src/cli/shutdown.js';
import { tempDir } from '../support/servers/temp-dir.js';
import { hostSilentPictures } from '../support/servers/picture-hosts.js';
import { startHarness, TEMPLATE_NAME, upload } from './service-harness.js';

/** 10 000 slides of 40 paragraphs: far more work than the shutdown may wait for. */
function endlessDeck() {
  const body = Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1}, long enough to wrap once`).join(
    '\n',
  );
  return {
    presentation: {
      template: TEMPLATE_NAME,
      slides: Array.from({ length: 10_000 }, () => ({
        slide_index: 1,
        shapes: [{ name: 'Content Placeholder 2', content: body }],
      })),
    },
  };
}

const overrides = { workers: 1, limits: { maxSlidesPerRequest: 10_000 } };
/** The harness's runtime stopped as `deckforge serve` stops it: `ms` for running work, then interrupted. */
const stopHarness = (h: { runtime: { close(): Promise<void>; interrupt(): Promise<void> } }, ms: number) =>
  shutDownWithin(ms, { stop: () => h.runtime.close(), interrupt: () => h.runtime.interrupt() });

const plans = [{ name: 'Big', allowedSlideCount: 100_000, requestsPerMinute: 1000 }];

describe('bounded shutdown', () => {
  it('returns at once when nothing runs, and never interrupts work that finishes in time', async () => {
    let interrupted = false;
    const started = Date.now();
    await shutDownWithin(5_000, {
      stop: () => new Promise((resolve) => setTimeout(resolve, 50)),
      interrupt: async () => {
        interrupted = true;
      },
    });
    expect(interrupted).toBe(false);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('interrupts a running job at the timeout; the job is not FAILED and runs again at the next start', async () => {
    const dir = tempDir('deckforge-shutdown-');
    try {
      const first = await startHarness({ dataDir: dir.path, overrides, plans });
      const user = await first.signUp('Big');
      const { jobId } = await first.service.submitJob(user.account, upload(endlessDeck()));
      while ((await first.service.jobStatus(user.account, jobId, 'http://x')).status !== 'PROCESSING') {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      let timedOut = false;
      const started = Date.now();
      await shutDownWithin(300, {
        stop: () => first.runtime.close(),
        interrupt: () => first.runtime.interrupt(),
        onTimeout: () => (timedOut = true),
      });
      expect(timedOut).toBe(true);
      expect(Date.now() - started).toBeLessThan(3_000); // the deck alone takes several seconds

      const second = await startHarness({ dataDir: dir.path, overrides, plans });
      try {
        const again = await second.service.jobStatus(user.account, jobId, 'http://x');
        expect(again).toMatchObject({
          status: expect.stringMatching(/^(QUEUED|PROCESSING)$/),
          errorMessage: null,
        });
        // Picked up again by the new process's consumer.
        const deadline = Date.now() + 20_000;
        let state = again.status;
        while (state !== 'PROCESSING' && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          state = (await second.service.jobStatus(user.account, jobId, 'http://x')).status;
        }
        expect(state).toBe('PROCESSING');
      } finally {
        await stopHarness(second, 0);
      }
    } finally {
      dir.remove();
    }
  });

  it('interrupts a job still downloading its pictures at the timeout, however long its fetch deadline', async () => {
    const silent = await hostSilentPictures();
    const dir = tempDir('deckforge-shutdown-');
    try {
      const first = await startHarness({
        dataDir: dir.path,
        overrides: { ...overrides, allowPrivateUrls: true, fetchTimeoutMs: 120_000 },
        plans,
      });
      const user = await first.signUp('Big');
      const slides = [{ slide_index: 9, shapes: [{ name: 'Picture 10', content: `${silent.base}/p.png` }] }];
      const payload = { presentation: { template: 'layouts.pptx', slides } };
      const { jobId } = await first.service.submitJob(
        user.account,
        upload(payload, [{ name: 'layouts.pptx', bytes: layoutsTemplate() }]),
      );
      while (silent.requests === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const started = Date.now();
      await stopHarness(first, 300);
      expect(Date.now() - started).toBeLessThan(3_000);
      const second = await startHarness({
        dataDir: dir.path,
        overrides: { ...overrides, workers: 1 },
        plans,
      });
      try {
        // Not FAILED: it runs again at the next start, like a job whose thread was stopped.
        const again = await second.service.jobStatus(user.account, jobId, 'http://x');
        expect(again).toMatchObject({ status: expect.stringMatching(/^(QUEUED|PROCESSING)$/) });
      } finally {
        await stopHarness(second, 0);
      }
    } finally {
      dir.remove();
      await silent.close();
    }
  });
});
