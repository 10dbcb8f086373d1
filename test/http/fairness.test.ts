/**
 * Fairness: one account cannot hold up everyone else, and one request cannot make the server hold
 * unbounded memory. Real server over a real socket, real misbehaving picture servers on 127.0.0.1
 * (picture-hosts.ts; private URLs allowed for them, as in ssrf.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { png } from '../support/decks/test-images.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { templateBytes } from '../support/servers/http-harness-paths.js';
import { pollUntil, submitJob } from '../support/http/jobs-polling.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';
import {
  hostGatedPicture,
  hostLargePictures,
  hostSilentPictures,
  type PictureHost,
} from '../support/servers/picture-hosts.js';

const FETCH_SECONDS = 8;
const MB = 1024 * 1024;

let server: RunningServer;
let silent: PictureHost;
let large: PictureHost;

beforeAll(async () => {
  silent = await hostSilentPictures();
  large = await hostLargePictures();
  server = await startServer({
    overrides: {
      allowPrivateUrls: true,
      workers: 2, // one thread for jobs, one kept for synchronous requests; one sync generation per account
      fetchTimeoutMs: FETCH_SECONDS * 1000,
      limits: { maxImageBytes: 1 * MB, maxFetchBytes: 3 * MB, syncMaxSlides: 5000 },
    },
  });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await silent?.close();
  await large?.close();
});

/** Slides of the layouts template (slide 9 has two pictures) whose picture shapes name `urls`, two to a slide. */
function picturesForm(urls: string[]): FormData {
  const names = ['Picture 10', 'Picture 11'];
  const slides = [];
  for (let i = 0; i < urls.length; i += names.length) {
    const shapes = urls.slice(i, i + names.length).map((url, k) => ({ name: names[k], content: url }));
    slides.push({ slide_index: 9, shapes });
  }
  const payload = { presentation: { template: 'layouts.pptx', slides } };
  return uploadForm(payload, [{ name: 'layouts.pptx', bytes: templateBytes() }]);
}

const silentUrls = (tag: string, count = 12) =>
  Array.from({ length: count }, (_, i) => `${silent.base}/${tag}/${i}.png`);

async function usedSlides(token: string): Promise<number> {
  const response = await fetch(`${server.base}/v1.0/usage`, {
    headers: { ...bearer(token), accept: 'application/json' },
  });
  return ((await response.json()) as { result: { usedSlideCount: number } }).result.usedSlideCount;
}

async function status(token: string, jobId: string): Promise<string> {
  const response = await fetch(`${server.base}/v2.0/jobs/${jobId}/status`, { headers: bearer(token) });
  return ((await response.json()) as { status: string }).status;
}

describe('jobs are fair across accounts', () => {
  it("another account's 1-slide job does not wait for two jobs stuck on unresponsive picture URLs", async () => {
    const a = await server.signUp();
    const b = await server.signUp();
    const stuck = [
      await submitJob(server.base, a.token, picturesForm(silentUrls('a1'))),
      await submitJob(server.base, a.token, picturesForm(silentUrls('a2'))),
    ];
    const other = await submitJob(server.base, b.token, uploadForm(titleDeck(1)));
    const { last } = await pollUntil(server.base, b.token, other, ['SUCCEEDED', 'FAILED'], {
      timeoutMs: 60_000,
    });
    expect(last.status).toBe('SUCCEEDED');
    // Done while both of the other account's jobs are still waiting for their pictures.
    for (const jobId of stuck) expect(await status(a.token, jobId)).toBe('PROCESSING');
    const deck = await fetch(last.file_url ?? '');
    await expectValidPptx(new Uint8Array(await deck.arrayBuffer()), templateBytes());

    // The stuck jobs end at their fetch deadline, FAILED with the reason, and their slides are given back.
    for (const jobId of stuck) {
      const started = Date.now();
      const { last: ended } = await pollUntil(server.base, a.token, jobId, ['SUCCEEDED', 'FAILED'], {
        timeoutMs: (FETCH_SECONDS + 20) * 1000,
      });
      expect(ended.status).toBe('FAILED');
      expect(ended.error_message).toContain('DECKFORGE_FETCH_TIMEOUT_SECONDS');
      expect(Date.now() - started).toBeLessThan((FETCH_SECONDS + 10) * 1000);
    }
    expect(await usedSlides(a.token)).toBe(0);
  }, 60_000);
});

describe('synchronous requests are fair across accounts', () => {
  it("an account's two heavy requests take one thread, not both: another account is served first", async () => {
    const a = await server.signUp({ plan: 'Enterprise' });
    const b = await server.signUp();
    const finished: string[] = [];
    const post = (token: string, body: FormData, name: string) =>
      fetch(`${server.base}/v1.0/generator/create`, { method: 'POST', body, headers: bearer(token) }).then(
        async (response) => {
          finished.push(name);
          return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) };
        },
      );
    const heavy = [
      post(a.token, uploadForm(heavyDeck()), 'A1'),
      post(a.token, uploadForm(heavyDeck()), 'A2'),
    ];
    // A's first deck is generating (its second, by the old rule, would be on the other thread by now).
    while ((await server.runtime.service.stats()).workers.busy < 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const other = await post(b.token, uploadForm(titleDeck(1)), 'B');
    expect(other.status).toBe(200);
    // Before either of the other account's decks: it did not wait for a thread one of them held.
    expect(finished[0]).toBe('B');
    await expectValidPptx(other.bytes, templateBytes());
    for (const answer of await Promise.all(heavy)) expect(answer.status).toBe(200);
  }, 120_000);

  it('does not generate for a client that went away, and does not log it as a server fault', async () => {
    const gated = await hostGatedPicture();
    try {
      const a = await server.signUp();
      const before = (await server.runtime.service.stats()).generatedDecks;
      const gone = new AbortController();
      const request = fetch(`${server.base}/v1.0/generator/create`, {
        method: 'POST',
        body: picturesForm([`${gated.base}/logo.png`]),
        headers: bearer(a.token),
        signal: gone.signal,
      }).catch(() => null);
      await gated.requested;
      gone.abort();
      await request;
      gated.release(await png(40, 40));
      await waitFor(() => server.logs.some((line) => line.includes('"status":499')));
      expect(server.logs.filter((line) => line.includes('"level":50'))).toEqual([]);
      expect((await server.runtime.service.stats()).generatedDecks).toBe(before);
      expect(await usedSlides(a.token)).toBe(0);
    } finally {
      await gated.close();
    }
  }, 30_000);
});

describe('what one request can make the server download', () => {
  it('cuts a picture off at the picture size limit while it downloads', async () => {
    const { token } = await server.signUp();
    const response = await fetch(`${server.base}/v1.0/generator/create`, {
      method: 'POST',
      body: picturesForm([`${large.base}/40mb/big.png`]),
      headers: bearer(token),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { details: string }).details).toContain('larger than the 1 MB limit');
    // Refused at the limit, not after the whole 40 MB (socket buffers let a little more through).
    expect(large.bytesSent).toBeLessThan(8 * MB);
  }, 30_000);

  it('refuses a request whose pictures together pass DECKFORGE_MAX_FETCH_MB, without fetching them all', async () => {
    const { token } = await server.signUp();
    const sentBefore = large.bytesSent;
    // Each under the 1 MB picture limit, 48 of them far over the 3 MB the request may fetch.
    const urls = Array.from({ length: 48 }, (_, i) => `${large.base}/1mb/${i}.png`);
    const response = await fetch(`${server.base}/v1.0/generator/create`, {
      method: 'POST',
      body: picturesForm(urls),
      headers: bearer(token),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { details: string }).details).toContain('DECKFORGE_MAX_FETCH_MB');
    expect(large.bytesSent - sentBefore).toBeLessThan(16 * MB);
    expect(await usedSlides(token)).toBe(0);
  }, 30_000);
});

/** Far more work than one slide: 2 500 slides of 40 paragraphs each. */
function heavyDeck() {
  const body = Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1}, long enough to wrap once`).join(
    '\n',
  );
  return {
    presentation: {
      template: 'layouts.pptx',
      slides: Array.from({ length: 2500 }, () => ({
        slide_index: 1,
        shapes: [{ name: 'Content Placeholder 2', content: body }],
      })),
    },
  };
}

async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
