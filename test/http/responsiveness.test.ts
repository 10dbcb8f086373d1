/**
 * Generation runs off the event loop (issue 3): while a 2000-slide deck is being generated, other endpoints keep
 * answering promptly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/expect-valid-pptx.js';
import { bearer, startServer, type RunningServer } from './http-harness.js';
import { templateBytes } from './http-harness-paths.js';
import { pollUntil, readStatus, submitJob } from './jobs-polling.js';
import { titleDeck, uploadForm } from './payloads.js';
import { slideTexts } from './pptx-reading.js';

let server: RunningServer;
let token: string;

beforeAll(async () => {
  server = await startServer({ overrides: { workers: 1 } });
  token = (await server.signUp({ plan: 'Enterprise' })).token;
});
afterAll(async () => server.close());

async function timed(url: string, headers: Record<string, string> = {}): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  expect(response.status).toBe(200);
  return performance.now() - started;
}

describe('responsiveness during a 2000-slide generation', () => {
  it('answers health, usage and status promptly while the deck is built', async () => {
    const jobId = await submitJob(
      server.base,
      token,
      uploadForm(titleDeck(2000, { resultFileName: 'Huge' })),
    );
    await pollUntil(server.base, token, jobId, ['PROCESSING'], { intervalMs: 10 });
    const latencies: number[] = [];
    let samplesWhileProcessing = 0;
    while ((await readStatus(server.base, token, jobId)).status === 'PROCESSING') {
      latencies.push(await timed(`${server.base}/healthz`));
      latencies.push(await timed(`${server.base}/v1.0/usage`, bearer(token)));
      samplesWhileProcessing += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(samplesWhileProcessing).toBeGreaterThanOrEqual(5);
    latencies.sort((a, b) => a - b);
    const p50 = latencies[Math.floor(latencies.length / 2)] ?? Infinity;
    const max = latencies[latencies.length - 1] ?? Infinity;
    expect(p50, `p50 ${p50.toFixed(1)} ms`).toBeLessThan(100);
    expect(max, `max ${max.toFixed(1)} ms`).toBeLessThan(1000);

    const { last } = await pollUntil(server.base, token, jobId, ['SUCCEEDED', 'FAILED']);
    expect(last.status).toBe('SUCCEEDED');
    const bytes = new Uint8Array(await (await fetch(last.file_url ?? '')).arrayBuffer());
    await expectValidPptx(bytes, templateBytes());
    expect(slideTexts(bytes)).toHaveLength(2000);
  }, 300_000);
});
