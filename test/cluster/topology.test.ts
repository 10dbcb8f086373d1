/**
 * The scaled-out topology end to end, with real processes driven over HTTP: three API nodes (`serve
 * --no-worker`) behind a round-robin balancer and two `deckforge worker` processes, on a PostgreSQL server, a
 * Redis (append-only file, fsync always) and an S3 server (s3rver) of the test's own, so that the test can stop,
 * kill and restart them without touching the machine's shared servers. What a team running several machines
 * relies on: every endpoint answers the same from every node, the quota and the request rate hold across nodes,
 * tokens and their revocation reach every node, a template stored through one node is used, downloaded and
 * deleted through the others, a worker killed mid-job loses nothing, and Redis and PostgreSQL can go away and
 * come back without losing an acknowledged job or needing a restart.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { LIBREOFFICE_MISSING } from '../support/servers/libreoffice.js';
import {
  startLocalCluster,
  type ClusterProcess,
  type LocalCluster,
} from '../support/servers/local-cluster.js';
import {
  installedPostgres,
  startPrivatePostgres,
  type PrivatePostgres,
} from '../support/servers/postgres-server.js';
import {
  redisServerInstalled,
  startPrivateRedis,
  type PrivateRedis,
} from '../support/servers/redis-server.js';
import { bearer, issueToken, type Credentials } from '../support/servers/http-harness.js';
import { TEMPLATE_NAME, templateBytes } from '../support/servers/http-harness-paths.js';
import { pollUntil, readStatus, submitJob, type StatusBody } from '../support/http/jobs-polling.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';
import { USAGE_FLUSH_MS } from '../../src/service/usage-writer.js';
import { readPdf } from '../support/readers/preview-files.js';

const postgresBin = installedPostgres();
const PLANS = {
  default: 'Team',
  plans: [
    { name: 'Team', allowedSlideCount: 100_000, requestsPerMinute: 100_000 },
    { name: 'Burst', allowedSlideCount: 10, requestsPerMinute: 100_000 },
    { name: 'Paced', allowedSlideCount: 1_000, requestsPerMinute: 20 },
  ],
};

type Status = StatusBody & { pdf_url?: string | null; preview_urls?: string[] };

describe.skipIf(!postgresBin || !redisServerInstalled())(
  'two or three API nodes and two workers on PostgreSQL, Redis and S3',
  () => {
    let postgres: PrivatePostgres;
    let redis: PrivateRedis;
    let cluster: LocalCluster;
    let token: string;
    let plansDir: string;
    /** Slides of every successful generation of the main account: what its usage must say. */
    let slidesMade = 0;

    const nodes = () => cluster.processes.filter((p) => p.role === 'api').map((p) => p.url!);
    const workers = () => cluster.processes.filter((p) => p.role === 'worker' && p.running());
    const credentials = (): Credentials => cluster.account;
    const usedSlides = async (base: string, bearerToken = token): Promise<number> => {
      const response = await fetch(`${base}/v1.0/usage`, { headers: bearer(bearerToken) });
      expect(response.status).toBe(200);
      return ((await response.json()) as { result: { usedSlideCount: number } }).result.usedSlideCount;
    };
    /**
     * The account's usage as `base` reports it equals `expected`. Each node writes its settlements every 100 ms
     * (USAGE_FLUSH_MS), so a node sees another node's answers within that: allowed up to ten times as long.
     */
    const expectUsage = async (base: string, expected: number, bearerToken = token): Promise<void> => {
      let used = await usedSlides(base, bearerToken);
      for (const until = Date.now() + 10 * USAGE_FLUSH_MS; used !== expected && Date.now() < until;) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        used = await usedSlides(base, bearerToken);
      }
      expect(used).toBe(expected);
    };
    const finish = async (base: string, jobId: string, timeoutMs = 120_000): Promise<Status> =>
      (await pollUntil(base, token, jobId, ['SUCCEEDED', 'FAILED'], { timeoutMs, intervalMs: 100 })).last;
    const newAccount = async (email: string, plan: string): Promise<Credentials> =>
      JSON.parse(
        await cluster.cli(['accounts', 'create', '--email', email, '--plan', plan, '--json']),
      ) as Credentials;

    beforeAll(async () => {
      postgres = await startPrivatePostgres(postgresBin!);
      redis = await startPrivateRedis();
      plansDir = mkdtempSync(join(tmpdir(), 'deckforge-plans-'));
      writeFileSync(join(plansDir, 'plans.json'), JSON.stringify(PLANS));
      cluster = await startLocalCluster({
        postgresUrl: postgres.url,
        redisUrl: redis.url,
        apiNodes: 3,
        workers: 2,
        accountPlan: 'Team',
        env: { DECKFORGE_PLANS: join(plansDir, 'plans.json') },
      });
      token = await issueToken(cluster.url, credentials());
    }, 180_000);

    afterAll(async () => {
      await cluster?.stop();
      await redis?.stop();
      await postgres?.remove();
      rmSync(plansDir, { recursive: true, force: true });
    });

    it('every endpoint answers through the balancer and from each node, on the same shared data', async () => {
      expect(new Set(nodes()).size).toBe(3);
      // Synchronous generation on each node, with a token issued through the balancer.
      for (const [i, base] of nodes().entries()) {
        const response = await fetch(`${base}/v1.0/generator/create`, {
          method: 'POST',
          body: uploadForm(titleDeck(2, { resultFileName: `Node ${i + 1}` })),
          headers: bearer(token),
        });
        expect(response.status, await response.clone().text()).toBe(200);
        expect(response.headers.get('content-disposition')).toContain(`Node ${i + 1}.pptx`);
        await expectValidPptx(new Uint8Array(await response.arrayBuffer()), templateBytes());
        slidesMade += 2;
      }

      // A job submitted to one node is seen by the others, run by a worker, and served from S3.
      const [first, second, third] = nodes() as [string, string, string];
      const jobId = await submitJob(first, token, uploadForm(titleDeck(3, { resultFileName: 'Shared' })));
      const done = await finish(second, jobId);
      expect(done).toMatchObject({ status: 'SUCCEEDED', error_message: null });
      slidesMade += 3;
      const link = new URL(done.file_url!);
      expect(link.origin).toBe(cluster.s3.endpoint);
      expect(link.searchParams.get('X-Amz-Expires')).toBe('900');
      const download = await fetch(link); // no Authorization header
      expect(download.status).toBe(200);
      expect(download.headers.get('content-disposition')).toContain('Shared.pptx');
      await expectValidPptx(new Uint8Array(await download.arrayBuffer()), templateBytes());
      expect((await readStatus(third, token, jobId)).status).toBe('SUCCEEDED');

      // Inspect, usage (both paths), unknown job, bad token: the same answers everywhere.
      const inspectForm = new FormData();
      inspectForm.append('files', new Blob([templateBytes()]), TEMPLATE_NAME);
      const inspected = await fetch(`${third}/v1.0/template/inspect`, {
        method: 'POST',
        body: inspectForm,
        headers: bearer(token),
      });
      expect(inspected.status).toBe(200);
      expect(((await inspected.json()) as { slides: unknown[] }).slides.length).toBeGreaterThan(0);
      for (const base of nodes()) {
        await expectUsage(base, slidesMade);
        const v1 = await fetch(`${base}/v1/usage`, { headers: bearer(token) });
        expect(v1.status).toBe(200);
        const missing = await fetch(`${base}/v2.0/jobs/no-such-job/status`, { headers: bearer(token) });
        expect(missing.status).toBe(404);
        const refused = await fetch(`${base}/v1.0/usage`, { headers: bearer('not-a-token') });
        expect(refused.status).toBe(401);
        const health = await fetch(`${base}/healthz`);
        expect(health.status).toBe(200);
        expect(((await health.json()) as { checks: Record<string, boolean> }).checks).toMatchObject({
          database: true,
          queue: true,
          blobStore: true,
        });
        // Job states come from the shared stores: every node reports the same figures.
        const metrics = await (await fetch(`${base}/metrics`)).text();
        expect(metrics).toMatch(/^deckforge_jobs\{state="SUCCEEDED"\} 1$/m);
        expect(metrics).toMatch(/^deckforge_queue_depth 0$/m);
      }
    }, 120_000);

    it('a stored template: uploaded on one node, used by name on another (sync, and as a job a worker runs), deleted on a third and gone from all', async () => {
      const [first, second, third] = nodes() as [string, string, string];
      const name = 'Cluster stored.pptx';
      const upload = new FormData();
      upload.append('file', new Blob([templateBytes()]), name);
      const stored = await fetch(`${first}/v1.0/templates`, {
        method: 'POST',
        body: upload,
        headers: bearer(token),
      });
      expect(stored.status, await stored.clone().text()).toBe(201);
      const { id } = (await stored.json()) as { id: string };
      for (const base of nodes()) {
        const listed = await fetch(`${base}/v1.0/templates`, { headers: bearer(token) });
        expect(((await listed.json()) as { templates: { id: string; name: string }[] }).templates).toEqual([
          expect.objectContaining({ id, name }),
        ]);
      }

      // By name, synchronously on the second node; by id, as a job submitted there and run by a worker.
      const deck = await fetch(`${second}/v1.0/generator/create`, {
        method: 'POST',
        body: uploadForm(titleDeck(2, { template: name }), []),
        headers: bearer(token),
      });
      expect(deck.status, await deck.clone().text()).toBe(200);
      await expectValidPptx(new Uint8Array(await deck.arrayBuffer()), templateBytes());
      slidesMade += 2;
      const jobId = await submitJob(second, token, uploadForm(titleDeck(3, { template: id }), []));
      const done = await finish(third, jobId);
      expect(done).toMatchObject({ status: 'SUCCEEDED', error_message: null });
      slidesMade += 3;
      await expectValidPptx(
        new Uint8Array(await (await fetch(done.file_url!)).arrayBuffer()),
        templateBytes(),
      );
      const file = await fetch(`${third}/v1.0/templates/${id}/file`, { headers: bearer(token) });
      expect(new Uint8Array(await file.arrayBuffer())).toEqual(templateBytes());

      const deleted = await fetch(`${third}/v1.0/templates/${id}`, {
        method: 'DELETE',
        headers: bearer(token),
      });
      expect(await deleted.json()).toEqual({ deleted_versions: 1 });
      for (const base of nodes()) {
        expect((await fetch(`${base}/v1.0/templates/${id}`, { headers: bearer(token) })).status).toBe(404);
        expect((await fetch(`${base}/v1.0/templates/${id}/file`, { headers: bearer(token) })).status).toBe(
          404,
        );
        const listed = await fetch(`${base}/v1.0/templates`, { headers: bearer(token) });
        expect(((await listed.json()) as { templates: unknown[] }).templates).toEqual([]);
        const byName = await fetch(`${base}/v1.0/generator/create`, {
          method: 'POST',
          body: uploadForm(titleDeck(1, { template: name }), []),
          headers: bearer(token),
        });
        expect(byName.status).toBe(400);
      }
      await expectUsage(first, slidesMade);
    }, 120_000);

    it.skipIf(LIBREOFFICE_MISSING !== null)(
      'a job with its PDF and PNG previews, rendered by a worker and served from S3; /v1.0/render on a node',
      async () => {
        const form = uploadForm(titleDeck(2, { resultFileName: 'Previewed' }));
        form.append('format', 'pptx+pdf');
        form.append('previews', 'png');
        const jobId = await submitJob(cluster.url, token, form);
        const done = await finish(cluster.url, jobId, 180_000);
        expect(done.error_message).toBeNull();
        slidesMade += 2;
        const pdf = await fetch(done.pdf_url!);
        expect(pdf.status).toBe(200);
        expect(new URL(done.pdf_url!).origin).toBe(cluster.s3.endpoint);
        expect(readPdf(new Uint8Array(await pdf.arrayBuffer())).texts[1]).toContain('Slide 2 title');
        expect(done.preview_urls).toHaveLength(2);
        const png = new Uint8Array(await (await fetch(done.preview_urls![1]!)).arrayBuffer());
        expect(Buffer.from(png.subarray(1, 4)).toString()).toBe('PNG');

        const deck = await fetch(done.file_url!);
        const render = new FormData();
        render.append('files', new Blob([await deck.arrayBuffer()]), 'Previewed.pptx');
        render.append('format', 'pdf');
        const rendered = await fetch(`${nodes()[2]}/v1.0/render`, {
          method: 'POST',
          body: render,
          headers: bearer(token),
        });
        expect(rendered.status).toBe(200);
        expect(readPdf(new Uint8Array(await rendered.arrayBuffer())).pages).toBe(2);
        slidesMade += 2;
        await expectUsage(nodes()[0]!, slidesMade);
      },
      240_000,
    );

    it('50 concurrent requests over 3 API nodes against an allowance that fits 10: exactly 10 succeed', async () => {
      const burst = await newAccount('burst@cluster.test', 'Burst');
      const burstToken = await issueToken(nodes()[0]!, burst);
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          fetch(`${nodes()[i % 3]}/v1.0/generator/create`, {
            method: 'POST',
            body: uploadForm(titleDeck(1)),
            headers: bearer(burstToken),
          }).then(async (response) => {
            await response.arrayBuffer();
            return response.status;
          }),
        ),
      );
      expect(answers.filter((s) => s === 200)).toHaveLength(10);
      expect(answers.filter((s) => s === 429)).toHaveLength(40);
      for (const base of nodes()) await expectUsage(base, 10, burstToken);
    }, 120_000);

    it('the request rate holds across nodes: 30 calls spread over 3 nodes at 20 a minute, exactly 20 answered', async () => {
      const paced = await newAccount('paced@cluster.test', 'Paced');
      const pacedToken = await issueToken(nodes()[1]!, paced);
      const statuses = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          fetch(`${nodes()[i % 3]}/v1.0/usage`, { headers: bearer(pacedToken) }).then((r) => r.status),
        ),
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(20);
      expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    });

    it('a token from one node works on every node; rotating the key revokes it on all of them at once', async () => {
      const rotating = await newAccount('rotate@cluster.test', 'Team');
      const issued = await issueToken(nodes()[0]!, rotating);
      for (const base of nodes()) await expectUsage(base, 0, issued);
      await cluster.cli(['accounts', 'rotate-key', '--email', rotating.email]);
      for (const base of nodes()) {
        const refused = await fetch(`${base}/v1.0/usage`, { headers: bearer(issued) });
        expect(refused.status).toBe(401);
      }
    });

    it('a worker killed with SIGKILL mid-job: another worker runs the job to SUCCEEDED, charged once', async () => {
      // One worker only, so the job is known to be on it when it is killed.
      const [kept, ...others] = workers() as [ClusterProcess, ...ClusterProcess[]];
      for (const other of others) await other.kill('SIGTERM');
      const jobId = await submitJob(cluster.url, token, uploadForm(titleDeck(3000)));
      await pollUntil(cluster.url, token, jobId, ['PROCESSING', 'SUCCEEDED', 'FAILED'], { intervalMs: 20 });
      await kept.kill('SIGKILL');
      expect((await readStatus(cluster.url, token, jobId)).status).toBe('PROCESSING');

      await cluster.addWorker();
      await cluster.addWorker();
      // BullMQ's stalled-job checker hands the job on once the killed worker's lock runs out (30 s).
      const done = await finish(cluster.url, jobId, 150_000);
      expect(done).toMatchObject({ status: 'SUCCEEDED', error_message: null });
      slidesMade += 3000;
      await expectUsage(nodes()[1]!, slidesMade);
    }, 240_000);

    it('Redis killed and restarted: jobs acknowledged with 202 before are all run, none lost', async () => {
      for (const worker of workers()) await worker.kill('SIGTERM');
      const acknowledged = [];
      for (let i = 0; i < 5; i++)
        acknowledged.push(await submitJob(nodes()[i % 3]!, token, uploadForm(titleDeck(2))));
      await redis.kill(); // SIGKILL: only the append-only file keeps the queue
      const refused = await fetch(`${nodes()[0]}/v2.0/generator/create-async`, {
        method: 'POST',
        body: uploadForm(titleDeck(1)),
        headers: bearer(token),
      });
      expect(refused.status).toBe(500);
      expect(await refused.json()).toEqual({ statusCode: 500, title: 'Error', detail: expect.any(String) });
      const health = await fetch(`${nodes()[1]}/healthz`);
      expect(health.status).toBe(503);
      expect(((await health.json()) as { checks: Record<string, boolean> }).checks.queue).toBe(false);

      await redis.start();
      await cluster.addWorker();
      await cluster.addWorker();
      for (const jobId of acknowledged) {
        expect((await finish(cluster.url, jobId)).status).toBe('SUCCEEDED');
        slidesMade += 2;
      }
      // The API nodes reconnected by themselves.
      const after = await submitJob(nodes()[0]!, token, uploadForm(titleDeck(1)));
      expect((await finish(nodes()[2]!, after)).status).toBe('SUCCEEDED');
      slidesMade += 1;
      await expectUsage(nodes()[0]!, slidesMade);
    }, 180_000);

    it('PostgreSQL stopped and started: 500 in shape C while it is away, every node serves again by itself', async () => {
      await postgres.stop();
      for (const base of nodes()) {
        const started = Date.now();
        const answer = await fetch(`${base}/v1.0/usage`, { headers: bearer(token) });
        expect(Date.now() - started).toBeLessThan(15_000);
        expect(answer.status).toBe(500);
        expect(await answer.json()).toEqual({ statusCode: 500, title: 'Error', detail: expect.any(String) });
        const health = await fetch(`${base}/healthz`);
        expect(health.status).toBe(503);
        expect(((await health.json()) as { checks: Record<string, boolean> }).checks.database).toBe(false);
      }
      await postgres.start();
      for (const base of nodes()) {
        let status = 0;
        for (let i = 0; i < 50 && status !== 200; i++) {
          status = (await fetch(`${base}/v1.0/usage`, { headers: bearer(token) })).status;
          if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
        }
        expect(status).toBe(200);
      }
      // The workers recovered too: a job runs, and usage is still exact.
      const jobId = await submitJob(nodes()[1]!, token, uploadForm(titleDeck(4)));
      expect((await finish(nodes()[0]!, jobId)).status).toBe('SUCCEEDED');
      slidesMade += 4;
      for (const base of nodes()) await expectUsage(base, slidesMade);
    }, 120_000);
  },
);
