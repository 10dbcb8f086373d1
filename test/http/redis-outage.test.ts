/**
 * A node whose Redis (queue and rate limits) goes away and comes back: requests answer 500 in shape C within
 * seconds instead of hanging, /healthz says the queue is down, and the node recovers by itself. The Redis is the
 * test's own (redis-server on a free port), never the machine's shared one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  redisServerInstalled,
  startPrivateRedis,
  type PrivateRedis,
} from '../support/servers/redis-server.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { pollUntil } from '../support/http/jobs-polling.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';

let redis: PrivateRedis;
let server: RunningServer;
let token: string;

describe.skipIf(!redisServerInstalled())('a Redis outage (redis-server of the test)', () => {
  beforeAll(async () => {
    redis = await startPrivateRedis();
    server = await startServer({ overrides: { workers: 1, redis: { url: redis.url, prefix: 'outage' } } });
    token = (await server.signUp({ plan: 'Enterprise' })).token;
  });
  afterAll(async () => {
    await server?.close();
    await redis?.stop();
  });

  const submit = () =>
    fetch(`${server.base}/v2.0/generator/create-async`, {
      method: 'POST',
      body: uploadForm(titleDeck(1)),
      headers: bearer(token),
    });

  it('answers 500 shape C within seconds while Redis is down, and recovers by itself', async () => {
    await redis.kill();
    const started = Date.now();
    const refused = await submit();
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(refused.status).toBe(500);
    expect(await refused.json()).toEqual({ statusCode: 500, title: 'Error', detail: expect.any(String) });
    const health = await fetch(`${server.base}/healthz`);
    expect(health.status).toBe(503);
    expect(((await health.json()) as { checks: Record<string, boolean> }).checks.queue).toBe(false);

    await redis.start();
    let accepted: Response | null = null;
    for (let i = 0; i < 50 && accepted?.status !== 202; i++) {
      accepted = await submit();
      if (accepted.status !== 202) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(accepted?.status).toBe(202);
    const { job_id: jobId } = (await accepted!.json()) as { job_id: string };
    const { last } = await pollUntil(server.base, token, jobId, ['SUCCEEDED', 'FAILED'], {
      timeoutMs: 60_000,
    });
    expect(last.status).toBe('SUCCEEDED');
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
  }, 90_000);
});
