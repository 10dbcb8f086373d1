/**
 * Idempotency-Key on both generation endpoints (docs/http-api.md "Retrying safely"): the same key and
 * request get the first answer and one charge; another request with the key is a 409 in shape B naming it; keys
 * are per account; a server killed with kill -9 mid-request, then the same request again: one job, one charge.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_PLANS, configWith } from '../../src/config/index.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import {
  bearer,
  createAccountIn,
  issueToken,
  startServer,
  tempDataDir,
  type RunningServer,
} from '../support/servers/http-harness.js';
import { templateBytes } from '../support/servers/http-harness-paths.js';
import { pollUntil } from '../support/http/jobs-polling.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';
import { startServe, type ServeProcess } from '../support/servers/serve-process.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    plans: [...BUILT_IN_PLANS.plans, { name: 'Three', allowedSlideCount: 3, requestsPerMinute: 1_000 }],
  });
});
afterAll(async () => server.close());

const keyed = (token: string, key: string) => ({ ...bearer(token), 'idempotency-key': key });

async function usedSlides(base: string, token: string): Promise<number> {
  const response = await fetch(`${base}/v1.0/usage`, { headers: bearer(token) });
  return ((await response.json()) as { result: { usedSlideCount: number } }).result.usedSlideCount;
}

async function submit(
  base: string,
  token: string,
  key: string,
  slides: number,
  fields: Record<string, string> = {},
) {
  const body = uploadForm(titleDeck(slides));
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  const response = await fetch(`${base}/v2.0/generator/create-async`, {
    method: 'POST',
    headers: keyed(token, key),
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('Idempotency-Key', () => {
  it('20 concurrent identical create-async requests with one key: one job, one charge', async () => {
    const { token } = await server.signUp({ plan: 'Enterprise' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => submit(server.base, token, 'order-42', 3)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 20 }, () => 202));
    const jobIds = new Set(answers.map((a) => a.body.job_id));
    expect(jobIds.size).toBe(1);
    const [jobId] = [...jobIds] as string[];
    const done = await pollUntil(server.base, token, jobId!, ['SUCCEEDED', 'FAILED']);
    expect(done.last.status).toBe('SUCCEEDED');
    const deck = await fetch(done.last.file_url ?? '');
    await expectValidPptx(new Uint8Array(await deck.arrayBuffer()), templateBytes());
    expect(await usedSlides(server.base, token)).toBe(3);
    // A retry later still gets the same job.
    expect((await submit(server.base, token, 'order-42', 3)).body.job_id).toBe(jobId);
  }, 120_000);

  it('the same key with another request is a 409 in shape B naming the key; keys are per account', async () => {
    const { token } = await server.signUp({ plan: 'Enterprise' });
    const first = await submit(server.base, token, 'same-key', 1);
    expect(first.status).toBe(202);
    const other = await submit(server.base, token, 'same-key', 2);
    expect(other).toEqual({
      status: 409,
      body: { statusCode: 409, message: 'Conflict', detail: expect.stringContaining('"same-key"') },
    });
    const { token: otherAccount } = await server.signUp({ plan: 'Enterprise' });
    const theirs = await submit(server.base, otherAccount, 'same-key', 2);
    expect(theirs.status).toBe(202);
    expect(theirs.body.job_id).not.toBe(first.body.job_id);
  });

  it('the same key and payload asking for another output (a PDF, slide images) is a 409, not the first job', async () => {
    const { token } = await server.signUp({ plan: 'Enterprise' });
    const first = await submit(server.base, token, 'output-key', 1);
    expect(first.status).toBe(202);
    const others: Record<string, string>[] = [{ format: 'pdf' }, { format: 'pptx+pdf' }, { previews: 'png' }];
    for (const fields of others) {
      const other = await submit(server.base, token, 'output-key', 1, fields);
      expect(other.status, JSON.stringify(fields)).toBe(409);
      expect((other.body as { detail: string }).detail).toContain('"output-key"');
    }
    expect((await submit(server.base, token, 'output-key', 1)).body.job_id).toBe(first.body.job_id);
  });

  it('a synchronous request repeated with its key is charged once and answered 409 (the deck is not kept)', async () => {
    const { token } = await server.signUp({ plan: 'Enterprise' });
    const send = () =>
      fetch(`${server.base}/v1.0/generator/create`, {
        method: 'POST',
        headers: keyed(token, 'sync-1'),
        body: uploadForm(titleDeck(2)),
      });
    const first = await send();
    expect(first.status).toBe(200);
    await expectValidPptx(new Uint8Array(await first.arrayBuffer()), templateBytes());
    const again = await send();
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      statusCode: 409,
      message: 'Conflict',
      detail: expect.stringMatching(/"sync-1".*not kept/),
    });
    expect(await usedSlides(server.base, token)).toBe(2);
  });

  it('a retry gets its job even when that job used up the allowance; a new request is a 429', async () => {
    const { token } = await server.signUp({ plan: 'Three' });
    const first = await submit(server.base, token, 'all-of-it', 3);
    expect(first.status).toBe(202);
    expect(await submit(server.base, token, 'all-of-it', 3)).toEqual(first);
    expect((await submit(server.base, token, 'another', 1)).status).toBe(429);
  });

  it('a request that failed gives its key back; a malformed key is a 400', async () => {
    const { token } = await server.signUp({ plan: 'Enterprise' });
    const refused = await fetch(`${server.base}/v2.0/generator/create-async`, {
      method: 'POST',
      headers: keyed(token, 'retry-me'),
      body: uploadForm('{not json'),
    });
    expect(refused.status).toBe(400);
    expect((await submit(server.base, token, 'retry-me', 1)).status).toBe(202);
    const malformed = await fetch(`${server.base}/v2.0/generator/create-async`, {
      method: 'POST',
      headers: keyed(token, 'has space'),
      body: uploadForm(titleDeck(1)),
    });
    expect(malformed.status).toBe(400);
  });
});

describe('Idempotency-Key across a crash', () => {
  const dataDir = tempDataDir();
  const processes: ServeProcess[] = [];
  afterAll(async () => {
    for (const serve of processes) await serve.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('kill -9 while the request is being answered, then the same request again: one job, one charge', async () => {
    const account = await createAccountIn(configWith({ dataDir }), 'Enterprise');
    const first = await startServe(dataDir, { DECKFORGE_WORKERS: '1' });
    processes.push(first);
    const token = await issueToken(first.base, account);
    const answered = submit(first.base, token, 'crash-1', 4).catch(() => null);
    // Killed as soon as the server has queued the job: the answer may or may not have left.
    while (!first.output().includes('job queued')) await new Promise((resolve) => setTimeout(resolve, 1));
    await first.kill();
    const firstAnswer = await answered;

    const second = await startServe(dataDir, { DECKFORGE_WORKERS: '1' });
    processes.push(second);
    const retry = await submit(second.base, token, 'crash-1', 4);
    expect(retry.status).toBe(202);
    if (firstAnswer?.status === 202) expect(retry.body.job_id).toBe(firstAnswer.body.job_id);
    const done = await pollUntil(second.base, token, retry.body.job_id as string, ['SUCCEEDED', 'FAILED'], {
      timeoutMs: 180_000,
    });
    expect(done.last.status).toBe('SUCCEEDED');
    const deck = await fetch(done.last.file_url ?? '');
    await expectValidPptx(new Uint8Array(await deck.arrayBuffer()), templateBytes());
    // Give a second job, had there been one, time to run and be charged.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await usedSlides(second.base, token)).toBe(4);
  }, 240_000);
});
