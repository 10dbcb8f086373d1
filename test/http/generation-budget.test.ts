/**
 * The generation time budget and what watches the threads: a deck past the budget is stopped, the
 * sync request gets a 400 naming the limit, the job ends FAILED with the same reason, the slides are given
 * back, the thread is replaced; /healthz says "degraded" while no thread can take work, /metrics counts busy
 * and idle threads. One thread and a one-second budget; the long deck takes several seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { TEMPLATE_NAME, templateBytes } from '../support/servers/http-harness-paths.js';
import { pollUntil, submitJob } from '../support/http/jobs-polling.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';

let server: RunningServer;
let token: string;
const template = templateBytes();

beforeAll(async () => {
  server = await startServer({
    overrides: { workers: 1, generationTimeoutMs: 1000, limits: { syncMaxSlides: 5000 } },
  });
  token = (await server.signUp({ plan: 'Enterprise' })).token;
});
afterAll(async () => server.close());

/** 5000 slides of 40 paragraphs each: several seconds of work on any machine this runs on. */
function longDeck(): unknown {
  const body = Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1}, long enough to wrap once`).join(
    '\n',
  );
  return {
    presentation: {
      template: TEMPLATE_NAME,
      slides: Array.from({ length: 5000 }, (_, i) => ({
        slide_index: 1,
        shapes: [
          { name: 'Title 1', content: `Slide ${i + 1}` },
          { name: 'Content Placeholder 2', content: body },
        ],
      })),
    },
  };
}

const LIMIT = /longer than the 1-second limit \(DECKFORGE_GENERATION_TIMEOUT_SECONDS\) and was stopped/;

async function health(): Promise<{ code: number; body: { status: string; workers: { busy: number } } }> {
  const response = await fetch(`${server.base}/healthz`);
  return { code: response.status, body: (await response.json()) as never };
}

async function usedSlides(): Promise<number> {
  const response = await fetch(`${server.base}/v1.0/usage`, { headers: bearer(token) });
  return ((await response.json()) as { result: { usedSlideCount: number } }).result.usedSlideCount;
}

describe('generation time budget', () => {
  it('a sync request past the budget is a 400 naming the limit; /healthz is degraded while it holds the thread', async () => {
    const started = Date.now();
    const pending = fetch(`${server.base}/v1.0/generator/create`, {
      method: 'POST',
      body: uploadForm(longDeck()),
      headers: bearer(token),
    });
    // While the one thread is taken, and once no thread has been free for 30 s, health is degraded.
    let seen = await health();
    while (seen.body.workers.busy === 0 && Date.now() - started < 30_000) seen = await health();
    expect(seen.body).toMatchObject({ status: 'ok', workers: { busy: 1 } });
    server.clock.advance(31_000);
    expect(await health()).toMatchObject({ code: 503, body: { status: 'degraded', workers: { busy: 1 } } });

    const response = await pending;
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      statusCode: 400,
      message: 'Invalid input parameters',
      details: expect.stringMatching(LIMIT),
    });
    expect(Date.now() - started).toBeLessThan(30_000);
    // The stopped thread was replaced: health is ok again and a normal deck is made.
    const after = await fetch(`${server.base}/v1.0/generator/create`, {
      method: 'POST',
      body: uploadForm(titleDeck(2)),
      headers: bearer(token),
    });
    expect(after.status).toBe(200);
    await expectValidPptx(new Uint8Array(await after.arrayBuffer()), template);
    expect(await health()).toMatchObject({ code: 200, body: { status: 'ok' } });
  });

  it('a job past the budget ends FAILED with the reason, and its slides are given back', async () => {
    const jobId = await submitJob(server.base, token, uploadForm(longDeck()));
    const { last } = await pollUntil(server.base, token, jobId, ['SUCCEEDED', 'FAILED'], {
      timeoutMs: 60_000,
    });
    expect(last).toMatchObject({ status: 'FAILED', error_message: expect.stringMatching(LIMIT) });
    expect(await usedSlides()).toBe(2); // only the 2-slide deck of the first test
  });

  it('/metrics shows busy and idle threads and the generations waiting', async () => {
    const text = await (await fetch(`${server.base}/metrics`)).text();
    expect(text).toContain('deckforge_generation_workers{state="busy"} 0');
    expect(text).toContain('deckforge_generation_workers{state="idle"} 1');
    expect(text).toContain('deckforge_generation_waiting 0');
  });
});
