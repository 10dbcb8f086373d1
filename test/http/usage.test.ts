/**
 * Endpoint 6 (both paths, every field with real values), the shared allowance under concurrency, and the
 * per-account request rate (429 shape B with Retry-After).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import {
  bearer,
  expectShapeB,
  issueToken,
  startServer,
  type RunningServer,
} from '../support/servers/http-harness.js';
import { templateBytes } from '../support/servers/http-harness-paths.js';
import { pollUntil, submitJob } from '../support/http/jobs-polling.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';

const template = templateBytes();
const PLANS = [
  { name: 'Free', allowedSlideCount: 100, requestsPerMinute: 600 },
  { name: 'Thirty', allowedSlideCount: 30, requestsPerMinute: 600 },
  { name: 'Slow', allowedSlideCount: 100, requestsPerMinute: 3 },
];
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ plans: PLANS });
});
afterAll(async () => server.close());

interface UsageBody {
  result: Record<string, unknown> & { usedSlideCount: number; totalApiCallCount: number };
}

async function usage(token: string, path = '/v1.0/usage'): Promise<UsageBody> {
  const response = await fetch(`${server.base}${path}`, {
    headers: { ...bearer(token), accept: 'application/json' },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as UsageBody;
}

describe('GET /v1.0/usage and /v1/usage', () => {
  it('reports every field of the usage response for a new account', async () => {
    const { token } = await server.signUp();
    const body = await usage(token);
    expect(body).toEqual({
      result: {
        usedSlideCount: 0,
        plan: 'Free',
        allowedSlideCount: 100,
        subscriptions: expect.any(Array),
        resetDate: expect.stringMatching(
          /^\d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December) \d{4}$/,
        ),
        totalApiCallCount: 0,
        successfulApiCallCount: 0,
        failedApiCallCount: 0,
        previousMonthUsedSlideCount: 0,
        subscriptionStartDate: expect.any(String),
      },
      isSuccess: true,
      message: null,
      fileName: null,
      fileNameFullPath: null,
      isValidJson: false,
      resultType: 0,
    });
    const start = new Date(String(body.result.subscriptionStartDate));
    expect(Math.abs(start.getTime() - Date.now())).toBeLessThan(5 * 60_000);
    // The period resets on the subscription's day of the next month (the 31st becomes that month's last day).
    expect(body.result.resetDate).toBe(nextMonthSameDay(start));
    expect(await usage(token, '/v1/usage')).toEqual({
      ...body,
      result: { ...body.result, totalApiCallCount: 1, successfulApiCallCount: 1 },
    });
  });

  it('counts slides of both generation styles and API calls, successful and failed', async () => {
    const { token } = await server.signUp();
    const sync = await fetch(`${server.base}/v1.0/generator/create`, {
      method: 'POST',
      body: uploadForm(titleDeck(3)),
      headers: bearer(token),
    });
    expect(sync.status).toBe(200);
    await expectValidPptx(new Uint8Array(await sync.arrayBuffer()), template);
    const jobId = await submitJob(server.base, token, uploadForm(titleDeck(2)));
    expect((await pollUntil(server.base, token, jobId, ['SUCCEEDED', 'FAILED'])).last.status).toBe(
      'SUCCEEDED',
    );
    const bad = await fetch(`${server.base}/v1.0/generator/create`, {
      method: 'POST',
      body: uploadForm('not json'),
      headers: bearer(token),
    });
    expect(bad.status).toBe(400);

    const { result } = await usage(token);
    expect(result.usedSlideCount).toBe(5);
    // sync + submit + bad sync + the status polls; the usage call itself is counted after it answers.
    expect(result.totalApiCallCount).toBe(
      Number(result.successfulApiCallCount) + Number(result.failedApiCallCount),
    );
    expect(result.failedApiCallCount).toBe(1);
    expect(result.successfulApiCallCount).toBeGreaterThanOrEqual(3);
    const again = await usage(token, '/v1/usage');
    expect(again.result.totalApiCallCount).toBe(result.totalApiCallCount + 1);
  });

  it('reserves the allowance atomically: 50 concurrent requests that fit 10 times give 10 × 200 and 40 × 429', async () => {
    const { token } = await server.signUp({ plan: 'Thirty' });
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        fetch(`${server.base}/v1.0/generator/create`, {
          method: 'POST',
          body: uploadForm(titleDeck(3)),
          headers: bearer(token),
        }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    for (const response of responses) {
      if (response.status === 200) {
        await expectValidPptx(new Uint8Array(await response.arrayBuffer()), template);
      } else {
        const body = (await response.json()) as { detail: string };
        expect(body).toEqual({
          statusCode: 429,
          message: 'Too Many Requests - usage or rate limit exceeded',
          detail: expect.any(String),
        });
        expect(body.detail.toLowerCase()).toMatch(/slide/);
      }
    }
    expect((await usage(token)).result.usedSlideCount).toBe(30);

    // Over the allowance, the asynchronous style is refused before any work is done, too.
    const async = await fetch(`${server.base}/v2.0/generator/create-async`, {
      method: 'POST',
      body: uploadForm(titleDeck(1)),
      headers: bearer(token),
    });
    expect(async.status).toBe(429);
  });

  it('applies the plan’s request rate with 429 shape B and Retry-After', async () => {
    const { token } = await server.signUp({ plan: 'Slow' });
    // The limit counts per clock minute: the server's clock is moved to just past a minute's start, so the five
    // requests fall in one minute however slowly they run (moving it forward changes nothing else here).
    const now = server.clock.now().getTime();
    server.clock.advance(60_000 - (now % 60_000) + 1);
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 5; i += 1) {
      const response = await fetch(`${server.base}/v1.0/usage`, { headers: bearer(token) });
      statuses.push(response.status);
      if (response.status === 429) limited = response;
      else await response.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(limited).toBeDefined();
    // The rest of the minute, in whole seconds.
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited?.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await limited?.json()).toEqual({
      statusCode: 429,
      message: 'Too Many Requests - usage or rate limit exceeded',
      detail: expect.any(String),
    });
  });

  it('answers 401 shape B without a token on both paths', async () => {
    for (const path of ['/v1.0/usage', '/v1/usage']) {
      const response = await fetch(`${server.base}${path}`);
      await expectShapeB(response, 401, 'Unauthorized');
    }
  });

  // Moves the server's clock, so it runs last.
  it('starts a new period on the subscription day: the old count becomes previousMonthUsedSlideCount', async () => {
    const account = await server.signUp();
    const sync = await fetch(`${server.base}/v1.0/generator/create`, {
      method: 'POST',
      body: uploadForm(titleDeck(4)),
      headers: bearer(account.token),
    });
    expect(sync.status).toBe(200);
    await expectValidPptx(new Uint8Array(await sync.arrayBuffer()), template);
    const before = (await usage(account.token)).result;
    expect(before.usedSlideCount).toBe(4);

    server.clock.advance(32 * 24 * 3_600_000);
    const token = await issueToken(server.base, account); // the old token expired after 24 h
    const after = (await usage(token)).result;
    expect(after.usedSlideCount).toBe(0);
    expect(after.previousMonthUsedSlideCount).toBe(4);
    expect(after.resetDate).not.toBe(before.resetDate);
  });
});

/** `D Month YYYY` one month after `start`, the day clamped to that month's length; written with Intl. */
function nextMonthSameDay(start: Date): string {
  const year = start.getUTCFullYear();
  const month = start.getUTCMonth() + 1;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const reset = new Date(Date.UTC(year, month, Math.min(start.getUTCDate(), lastDay)));
  const monthName = reset.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' });
  return `${reset.getUTCDate()} ${monthName} ${reset.getUTCFullYear()}`;
}
