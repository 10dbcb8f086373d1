/**
 * The console's data routes over a real socket, each with a signed-in session cookie and its CSRF token: tokens
 * (made here, used on every endpoint like one from token/create, last use recorded, revoked and refused at
 * once), usage with per-day figures, the job list (never another account's), the inspector (upload and URL) and
 * the playground (a deck that passes expectValidPptx, a job walking to its download link, errors in shape A),
 * stored templates (the API's store, counted as its calls, never another account's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import {
  bearer,
  expectShapeB,
  startServer,
  type Credentials,
  type RunningServer,
} from '../support/servers/http-harness.js';
import { TEMPLATE_NAME, templateBytes } from '../support/servers/http-harness-paths.js';
import { pollUntil, readStatus, submitJob } from '../support/http/jobs-polling.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';
import { hostTemplate, type TemplateHost } from '../support/servers/template-host.js';
import { ConsoleVisitor } from '../support/http/console-client.js';
import { BUILT_IN_PLANS } from '../../src/config/index.js';

/**
 * A signed-in visitor (their ConsoleVisitor keeps the cookie and CSRF token) and raw requests with them:
 * multipart bodies and binary answers, which the visitor's JSON helpers do not send or read.
 */
interface ConsoleClient {
  call(
    method: string,
    path: string,
    options?: { body?: FormData; json?: unknown; csrf?: boolean },
  ): Promise<Response>;
}

async function consoleSignIn(base: string, credentials: Credentials): Promise<ConsoleClient> {
  const visitor = new ConsoleVisitor(base);
  const answer = await visitor.signIn(credentials.email, credentials.password);
  if (answer.status !== 200) throw new Error(`sign-in answered ${answer.status}`);
  if (visitor.cookie === null) throw new Error('sign-in set no cookie');
  const answerBody = answer.body as { csrfToken?: string };
  if (answerBody.csrfToken) visitor.csrfToken = answerBody.csrfToken;
  return {
    call(method, path, options = {}) {
      const headers: Record<string, string> = { cookie: `deckforge_console=${visitor.cookie ?? ''}` };
      if (method !== 'GET' && options.csrf !== false) headers['x-csrf-token'] = visitor.csrfToken ?? '';
      let body: FormData | string | undefined = options.body;
      if (options.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(options.json);
      }
      return fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
    },
  };
}

let server: RunningServer;
let host: TemplateHost;
let ann: ConsoleClient;
let annCredentials: Credentials;
let bob: ConsoleClient;

beforeAll(async () => {
  // Template URLs on loopback are refused by default (ssrf.test.ts); the inspector's URL variant uses one here.
  server = await startServer({
    overrides: { allowPrivateUrls: true },
    plans: [...BUILT_IN_PLANS.plans, { name: 'Three', allowedSlideCount: 3, requestsPerMinute: 1_000 }],
  });
  host = await hostTemplate();
  annCredentials = await server.createAccount();
  ann = await consoleSignIn(server.base, annCredentials);
  bob = await consoleSignIn(server.base, await server.createAccount());
});
afterAll(async () => {
  await server?.close();
  await host?.close();
});

interface TokenList {
  tokens: { id: string; createdAt: string; expiresAt: string; lastUsedAt: string | null }[];
}

describe('console tokens', () => {
  it('a token made in the console works on every endpoint like an API one, shows its last use, and is refused at once once revoked', async () => {
    const created = await ann.call('POST', '/console/api/tokens');
    expect(created.status).toBe(201);
    const { id, token, expiresAt } = (await created.json()) as {
      id: string;
      token: string;
      expiresAt: string;
    };
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(23 * 60 * 60 * 1000);

    let list = (await (await ann.call('GET', '/console/api/tokens')).json()) as TokenList;
    expect(list.tokens.map((t) => t.id)).toContain(id);
    expect(JSON.stringify(list)).not.toContain(token);
    expect(list.tokens.find((t) => t.id === id)?.lastUsedAt).toBeNull();

    // Every endpoint: usage, inspect, sync generation, a job with its status and download.
    const usage = await fetch(`${server.base}/v1.0/usage`, { headers: bearer(token) });
    expect(usage.status).toBe(200);
    const inspectForm = new FormData();
    inspectForm.append('files', new Blob([templateBytes()]), TEMPLATE_NAME);
    const inspected = await fetch(`${server.base}/v1.0/template/inspect`, {
      method: 'POST',
      body: inspectForm,
      headers: bearer(token),
    });
    expect(inspected.status).toBe(200);
    const generated = await fetch(`${server.base}/v1.0/generator/create`, {
      method: 'POST',
      body: uploadForm(titleDeck(1)),
      headers: bearer(token),
    });
    expect(generated.status).toBe(200);
    await expectValidPptx(new Uint8Array(await generated.arrayBuffer()), templateBytes());
    const jobId = await submitJob(server.base, token, uploadForm(titleDeck(1)));
    const { last } = await pollUntil(server.base, token, jobId, ['SUCCEEDED', 'FAILED']);
    expect(last.status).toBe('SUCCEEDED');
    const download = await fetch(last.file_url ?? '');
    expect(download.status).toBe(200);

    list = (await (await ann.call('GET', '/console/api/tokens')).json()) as TokenList;
    const used = list.tokens.find((t) => t.id === id)?.lastUsedAt;
    expect(used).not.toBeNull();
    expect(Math.abs(Date.parse(used ?? '') - Date.now())).toBeLessThan(60_000);

    // Bob's session cannot revoke Ann's token; Ann's can, and it is refused at once.
    await expectShapeB(await bob.call('DELETE', `/console/api/tokens/${id}`), 404, 'Not Found');
    expect((await ann.call('DELETE', `/console/api/tokens/${id}`)).status).toBe(204);
    await expectShapeB(
      await fetch(`${server.base}/v1.0/usage`, { headers: bearer(token) }),
      401,
      'Unauthorized',
    );
    await expectShapeB(
      await fetch(`${server.base}/v2.0/jobs/${jobId}/status`, { headers: bearer(token) }),
      401,
      'Unauthorized',
    );
    await expectShapeB(await ann.call('DELETE', `/console/api/tokens/${id}`), 404, 'Not Found');
    list = (await (await ann.call('GET', '/console/api/tokens')).json()) as TokenList;
    expect(list.tokens.map((t) => t.id)).not.toContain(id);
  });

  it('refuses a change without the CSRF header, and any call without a signed-in session', async () => {
    await expectShapeB(await ann.call('POST', '/console/api/tokens', { csrf: false }), 403, 'Forbidden');
    await expectShapeB(await fetch(`${server.base}/console/api/tokens`), 401, 'Unauthorized');
    await expectShapeB(await fetch(`${server.base}/console/api/usage`), 401, 'Unauthorized');
    await expectShapeB(await fetch(`${server.base}/console/api/jobs`), 401, 'Unauthorized');
  });
});

describe('console playground, jobs and usage', () => {
  it('generates a valid deck, counts it in usage per day and as an API call, like the API does', async () => {
    const startedOn = new Date().toISOString().slice(0, 10);
    const before = (await (await ann.call('GET', '/console/api/usage')).json()) as UsageBody;
    const response = await ann.call('POST', '/console/api/generate', { body: uploadForm(titleDeck(3)) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/presentationml/);
    await expectValidPptx(new Uint8Array(await response.arrayBuffer()), templateBytes());

    // A payload error: shape A naming the JSON path, counted as a failed call.
    const bad = await ann.call('POST', '/console/api/generate', {
      body: uploadForm({
        presentation: { template: TEMPLATE_NAME, slides: [{ type: 'slide', slide_index: 'one' }] },
      }),
    });
    expect(bad.status).toBe(400);
    const badBody = (await bad.json()) as { statusCode: number; message: string; details: string };
    expect(badBody).toMatchObject({ statusCode: 400, message: 'Invalid input parameters' });
    expect(badBody.details).toContain('presentation.slides[0].slide_index');

    const after = (await (await ann.call('GET', '/console/api/usage')).json()) as UsageBody;
    expect(after.usedSlideCount - before.usedSlideCount).toBe(3);
    // Today (UTC) is the last day listed; read before and after, in case midnight passed in between.
    const today = [startedOn, new Date().toISOString().slice(0, 10)];
    expect(today).toContain(after.perDay.at(-1)?.date);
    expect(after.perDay.reduce((sum, d) => sum + d.slides, 0)).toBe(after.usedSlideCount);
    expect(after.apiCalls.total - before.apiCalls.total).toBe(2);
    expect(after.apiCalls.successful - before.apiCalls.successful).toBe(1);
    expect(after.apiCalls.failed - before.apiCalls.failed).toBe(1);
    expect(after.previousPeriod).toMatchObject({
      usedSlideCount: 0,
      apiCalls: { total: 0, successful: 0, failed: 0 },
    });
    expect(Date.parse(after.previousPeriod.end)).toBeLessThanOrEqual(Date.now());

    // The /v1.0 figures agree with the console's.
    const token = await apiToken(annCredentials);
    const api = (await (await fetch(`${server.base}/v1.0/usage`, { headers: bearer(token) })).json()) as {
      result: { usedSlideCount: number; allowedSlideCount: number; plan: string };
    };
    expect(api.result.usedSlideCount).toBe(after.usedSlideCount);
    expect([after.plan, after.allowedSlideCount]).toEqual([api.result.plan, api.result.allowedSlideCount]);
  });

  it('submits a job that walks to SUCCEEDED with a download link; the list never shows another account’s jobs', async () => {
    const submitted = await ann.call('POST', '/console/api/jobs', { body: uploadForm(titleDeck(2)) });
    expect(submitted.status).toBe(202);
    const { jobId } = (await submitted.json()) as { jobId: string };
    const seen: string[] = [];
    let job: JobBody;
    for (const deadline = Date.now() + 60_000; ;) {
      job = (await (await ann.call('GET', `/console/api/jobs/${jobId}`)).json()) as JobBody;
      if (seen.at(-1) !== job.state) seen.push(job.state);
      if (job.state === 'SUCCEEDED' || job.state === 'FAILED' || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The states it was seen in come in the order jobs walk, ending SUCCEEDED.
    const order = ['QUEUED', 'PROCESSING', 'SUCCEEDED'];
    expect(seen.at(-1)).toBe('SUCCEEDED');
    expect(seen.map((state) => order.indexOf(state))).toEqual(
      [...seen.map((state) => order.indexOf(state))].sort((a, b) => a - b).filter((i) => i >= 0),
    );
    expect(job).toMatchObject({ jobId, slideCount: 2, errorMessage: null, warnings: [] });
    expect(job.finishedAt).not.toBeNull();
    const download = await fetch(job.downloadUrl ?? '');
    expect(download.status).toBe(200);
    await expectValidPptx(new Uint8Array(await download.arrayBuffer()), templateBytes());

    const carolToken = await apiToken(await server.createAccount());
    const carolsApiJob = await submitJob(server.base, carolToken, uploadForm(titleDeck(1)));
    const bobsConsoleJob = (
      (await (await bob.call('POST', '/console/api/jobs', { body: uploadForm(titleDeck(1)) })).json()) as {
        jobId: string;
      }
    ).jobId;
    const annsList = (await (await ann.call('GET', '/console/api/jobs')).json()) as { jobs: JobBody[] };
    expect(annsList.jobs[0]?.jobId).toBe(jobId);
    expect(annsList.jobs.map((j) => j.jobId)).not.toContain(carolsApiJob);
    expect(await jobIdsIn(await bob.call('GET', '/console/api/jobs'))).not.toContain(carolsApiJob);
    expect(annsList.jobs.map((j) => j.jobId)).not.toContain(bobsConsoleJob);
    await expectShapeB(await ann.call('GET', `/console/api/jobs/${bobsConsoleJob}`), 404, 'Not Found');
    const bobsList = (await (await bob.call('GET', '/console/api/jobs')).json()) as { jobs: JobBody[] };
    expect(bobsList.jobs.map((j) => j.jobId)).toEqual([bobsConsoleJob]);
    // A third account's API job: not in Ann's list nor Bob's, readable with its own token.
    expect((await readStatus(server.base, carolToken, carolsApiJob)).status).toMatch(
      /^(QUEUED|PROCESSING|SUCCEEDED)$/,
    );
  });

  it('draws on the same allowance as the API: past it, 429 in the console and the API alike, each a failed call', async () => {
    const credentials = await server.createAccount({ plan: 'Three' });
    const small = await consoleSignIn(server.base, credentials);
    const first = await small.call('POST', '/console/api/generate', { body: uploadForm(titleDeck(3)) });
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    // The allowance is spent: refused for sync generation and jobs alike.
    await expectShapeB(
      await small.call('POST', '/console/api/generate', { body: uploadForm(titleDeck(1)) }),
      429,
      'Too Many Requests - usage or rate limit exceeded',
    );
    await expectShapeB(
      await small.call('POST', '/console/api/jobs', { body: uploadForm(titleDeck(1)) }),
      429,
      'Too Many Requests - usage or rate limit exceeded',
    );
    // The API agrees with the console: the token/create token sees the same allowance spent.
    const token = await apiToken(credentials);
    await expectShapeB(
      await fetch(`${server.base}/v1.0/generator/create`, {
        method: 'POST',
        body: uploadForm(titleDeck(1)),
        headers: bearer(token),
      }),
      429,
      'Too Many Requests - usage or rate limit exceeded',
    );
    const usage = (await (await small.call('GET', '/console/api/usage')).json()) as UsageBody;
    expect(usage.usedSlideCount).toBe(3);
    expect(usage.apiCalls).toEqual({ total: 4, successful: 1, failed: 3 });
  });

  it('inspects an uploaded template and one given by URL, with every shape’s box; bad input is shape A', async () => {
    const form = new FormData();
    form.append('template', new Blob([templateBytes()]), TEMPLATE_NAME);
    const uploaded = await ann.call('POST', '/console/api/inspect', { body: form });
    expect(uploaded.status).toBe(200);
    const result = (await uploaded.json()) as InspectBody;
    expect(result.slideSize).toEqual({ cx: 9144000, cy: 6858000 });
    expect(result.slides).toHaveLength(10);
    expect(result.slides[0]?.shapes.find((s) => s.name === 'Title 1')?.box).toEqual({
      x: 685800,
      y: 2130425,
      cx: 7772400,
      cy: 1470025,
    });

    const byUrl = await ann.call('POST', '/console/api/inspect', { json: { url: host.url } });
    expect(byUrl.status).toBe(200);
    expect(await byUrl.json()).toEqual(result);

    const notAPptx = new FormData();
    notAPptx.append('template', new Blob([new TextEncoder().encode('not a deck')]), 'x.pptx');
    const refused = await ann.call('POST', '/console/api/inspect', { body: notAPptx });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ statusCode: 400, message: 'Invalid input parameters' });
  });
});

describe('console templates', () => {
  const templateForm = (name?: string): FormData => {
    const form = new FormData();
    form.append('file', new Blob([templateBytes()]), TEMPLATE_NAME);
    if (name !== undefined) form.append('name', name);
    return form;
  };

  it("stores, lists, reads and deletes in the API's own store; upload, read and delete count as API calls, the list does not", async () => {
    await expectShapeB(await fetch(`${server.base}/console/api/templates`), 401, 'Unauthorized');
    await expectShapeB(
      await ann.call('POST', '/console/api/templates', { body: templateForm(), csrf: false }),
      403,
      'Forbidden',
    );
    const before = (await (await ann.call('GET', '/console/api/usage')).json()) as UsageBody;

    const stored = await ann.call('POST', '/console/api/templates', { body: templateForm('console.pptx') });
    expect(stored.status).toBe(201);
    const template = (await stored.json()) as { id: string; name: string; version: number; created: boolean };
    expect(template).toMatchObject({ name: 'console.pptx', version: 1, created: true });
    const again = await ann.call('POST', '/console/api/templates', { body: templateForm('console.pptx') });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ id: template.id, created: false });

    const listed = (await (await ann.call('GET', '/console/api/templates')).json()) as {
      templates: { id: string; bytes: number; slides: number; createdAt: string }[];
    };
    expect(listed.templates).toEqual([
      expect.objectContaining({
        id: template.id,
        bytes: templateBytes().byteLength,
        createdAt: expect.any(String),
      }),
    ]);
    const detail = (await (await ann.call('GET', `/console/api/templates/${template.id}`)).json()) as {
      versions: { id: string }[];
      inspect: InspectBody;
    };
    expect(detail.versions.map((v) => v.id)).toEqual([template.id]);
    expect(detail.inspect.slides.length).toBe(listed.templates[0]!.slides);

    // The API sees the same template under the same id; Bob's session does not.
    const token = await apiToken(annCredentials);
    const api = (await (await fetch(`${server.base}/v1.0/templates`, { headers: bearer(token) })).json()) as {
      templates: { id: string }[];
    };
    expect(api.templates.map((t) => t.id)).toContain(template.id);
    expect(
      ((await (await bob.call('GET', '/console/api/templates')).json()) as { templates: [] }).templates,
    ).toEqual([]);
    await expectShapeB(await bob.call('DELETE', `/console/api/templates/${template.id}`), 404, 'Not Found');

    // Not a presentation: shape A, as the API answers it.
    const notOne = new FormData();
    notOne.append('file', new Blob(['not a zip']), 'notes.pptx');
    const refused = await ann.call('POST', '/console/api/templates', { body: notOne });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ statusCode: 400, message: 'Invalid input parameters' });

    const deleted = await ann.call('DELETE', `/console/api/templates/${template.id}`);
    expect(await deleted.json()).toEqual({ deletedVersions: 1 });
    await expectShapeB(await ann.call('GET', `/console/api/templates/${template.id}`), 404, 'Not Found');

    // Counted: two uploads, one read, the API's list, one delete; failed: the refused upload and the read of a
    // deleted id. The console's lists and the usage reads are not API calls.
    const after = (await (await ann.call('GET', '/console/api/usage')).json()) as UsageBody;
    expect(after.apiCalls.successful - before.apiCalls.successful).toBe(5);
    expect(after.apiCalls.failed - before.apiCalls.failed).toBe(2);
  });
});

interface UsageBody {
  usedSlideCount: number;
  allowedSlideCount: number;
  plan: string;
  apiCalls: { total: number; successful: number; failed: number };
  previousPeriod: { start: string; end: string; usedSlideCount: number; apiCalls: UsageBody['apiCalls'] };
  perDay: { date: string; slides: number }[];
}

interface JobBody {
  jobId: string;
  state: string;
  slideCount: number | null;
  submittedAt: string;
  finishedAt: string | null;
  errorMessage: string | null;
  warnings: unknown[];
  downloadUrl: string | null;
}

interface InspectBody {
  slideSize: { cx: number; cy: number };
  slides: { shapes: { name: string; box: { x: number; y: number; cx: number; cy: number } | null }[] }[];
}

async function jobIdsIn(response: Response): Promise<string[]> {
  return ((await response.json()) as { jobs: JobBody[] }).jobs.map((j) => j.jobId);
}

async function apiToken(credentials: Credentials): Promise<string> {
  const body = new URLSearchParams({
    username: credentials.email,
    password: credentials.password,
    key: credentials.key,
  });
  const response = await fetch(`${server.base}/v1.0/token/create`, { method: 'POST', body });
  return ((await response.json()) as { Result: { Access_Token: string } }).Result.Access_Token;
}
