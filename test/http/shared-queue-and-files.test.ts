/**
 * One API node with its worker on BullMQ (Redis) and S3 (s3rver), driven over HTTP: a job walks to SUCCEEDED,
 * its download link is a presigned S3 URL fetched without any token, /healthz reports each store and /metrics
 * the queue, and retention deletes the job's S3 objects. (Job records stay in SQLite here: several nodes also
 * need PostgreSQL, and the configuration refuses Redis without it; this test builds its config directly.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../../src/adapters/s3/s3-blob-store.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { deleteKeys, REDIS_URL_VARIABLE, testPrefix, testRedisUrl } from '../support/servers/redis-server.js';
import { startLocalS3, type LocalS3 } from '../support/servers/s3-server.js';
import {
  issueToken,
  startServer,
  type Credentials,
  type RunningServer,
} from '../support/servers/http-harness.js';
import { templateBytes } from '../support/servers/http-harness-paths.js';
import { pollUntil, readStatus, submitJob } from '../support/http/jobs-polling.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';

const redisUrl = await testRedisUrl();
const prefix = testPrefix();
let s3: LocalS3;
let server: RunningServer;
let token: string;
let account: Credentials;

describe.skipIf(!redisUrl)(`a node on BullMQ and S3 (needs Redis: ${REDIS_URL_VARIABLE})`, () => {
  beforeAll(async () => {
    s3 = await startLocalS3();
    // The AWS SDK's own credential chain, as in production (s3rver accepts any key).
    process.env.AWS_ACCESS_KEY_ID = s3.credentials.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = s3.credentials.secretAccessKey;
    server = await startServer({
      overrides: {
        workers: 1,
        redis: { url: redisUrl ?? '', prefix },
        s3: { bucket: s3.bucket, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true },
      },
    });
    account = await server.createAccount({ plan: 'Enterprise' });
    token = await issueToken(server.base, account);
  });
  afterAll(async () => {
    await server?.close();
    await s3?.stop();
    if (redisUrl) await deleteKeys(redisUrl, prefix);
  });

  it('runs a job through BullMQ, serves it from S3 through a presigned link, and reports both stores', async () => {
    const jobId = await submitJob(
      server.base,
      token,
      uploadForm(titleDeck(2, { resultFileName: 'Quarterly' })),
    );
    const { last } = await pollUntil(server.base, token, jobId, ['SUCCEEDED', 'FAILED'], {
      timeoutMs: 60_000,
    });
    expect(last).toMatchObject({ status: 'SUCCEEDED', error_message: null });

    const url = new URL(last.file_url ?? '');
    expect(url.origin).toBe(s3.endpoint);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('response-content-disposition')).toContain('filename="Quarterly.pptx"');
    const download = await fetch(url); // no Authorization header
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('Quarterly.pptx');
    await expectValidPptx(new Uint8Array(await download.arrayBuffer()), templateBytes());
    // Each status call signs anew.
    expect((await readStatus(server.base, token, jobId)).file_url).toMatch(/X-Amz-Signature=[0-9a-f]{64}/);

    const health = await fetch(`${server.base}/healthz`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { checks: Record<string, boolean> }).checks).toMatchObject({
      queue: true,
      blobStore: true,
    });
    const metrics = await (await fetch(`${server.base}/metrics`)).text();
    expect(metrics).toMatch(/^deckforge_queue_depth 0$/m);
    expect(metrics).toMatch(/^deckforge_jobs\{state="SUCCEEDED"\} 1$/m);
  });

  it('deletes the S3 objects of a job when its retention ends', async () => {
    const jobId = await submitJob(server.base, token, uploadForm(titleDeck(1)));
    await pollUntil(server.base, token, jobId, ['SUCCEEDED'], { timeoutMs: 60_000 });
    const bucket = new S3BlobStore({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: s3.credentials,
    });
    try {
      expect(await bucket.open(`jobs/${jobId}/input.bin`)).not.toBeNull();
      server.clock.advance(25 * 3600_000); // past the 24-hour retention; the sweeper runs every 200 ms
      const deadline = Date.now() + 20_000;
      while ((await bucket.open(`jobs/${jobId}/input.bin`)) !== null && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await bucket.open(`jobs/${jobId}/input.bin`)).toBeNull();
      const fresh = await issueToken(server.base, account); // the first token expired with the day skipped
      const gone = await fetch(`${server.base}/v2.0/jobs/${jobId}/status`, {
        headers: { authorization: `Bearer ${fresh}` },
      });
      expect(gone.status).toBe(404);
    } finally {
      bucket.close();
    }
  });
});
