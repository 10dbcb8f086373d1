/** /healthz, /metrics, /openapi.json, /docs, unknown routes, request ids, and the template inspection endpoint. */
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { LIBREOFFICE_MISSING, OFFICE_MISSING, SANDBOX_MISSING } from '../support/servers/libreoffice.js';
import { bearer, expectShapeB, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { TEMPLATE_NAME, templateBytes } from '../support/servers/http-harness-paths.js';
import { pollUntil, submitJob } from '../support/http/jobs-polling.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';

let server: RunningServer;
let token: string;
const template = templateBytes();

beforeAll(async () => {
  server = await startServer();
  token = (await server.signUp()).token;
});
afterAll(async () => server.close());

const ENDPOINTS = [
  ['post', '/v1.0/token/create'],
  ['post', '/v1.0/generator/create'],
  ['post', '/v2.0/generator/create-async'],
  ['get', '/v2.0/jobs/{jobId}/status'],
  ['get', '/v1.0/usage'],
  ['get', '/v1/usage'],
  ['post', '/v1.0/template/inspect'],
  ['post', '/v1.0/render'],
  ['get', '/healthz'],
  ['get', '/metrics'],
  ['get', '/openapi.json'],
  ['get', '/docs'],
] as const;

describe('operations', () => {
  it('/healthz answers ok with its checks, and 503 naming the store that fails', async () => {
    const response = await fetch(`${server.base}/healthz`);
    expect(response.status).toBe(200);
    // Idle server: every generation thread free, none waiting, never saturated.
    const idleThreads = { size: 2, busy: 0, idle: 2, waiting: 0, saturatedMs: 0 };
    // Previews: available where LibreOffice, python3-uno and poppler are installed (CI installs them), and
    // not started yet: no renderer runs before the first preview.
    // Sandboxed where bubblewrap works (CI checks that it does); where not, no renderer starts (the default
    // DECKFORGE_RENDER_ISOLATION=required), and the service says so and why.
    const previews = {
      available: LIBREOFFICE_MISSING === null,
      ...(LIBREOFFICE_MISSING === null ? {} : { reason: expect.any(String) }),
      ...(OFFICE_MISSING !== null
        ? {}
        : SANDBOX_MISSING === null
          ? { isolated: true, isolationPolicy: 'required' }
          : { isolated: false, isolationPolicy: 'required', isolationReason: expect.any(String) }),
      size: server.config.rendering.renderers,
      busy: 0,
      waiting: 0,
    };
    // The Python bridge's interpreter is tried in the background: its verdict may come a moment after start.
    await vi.waitFor(async () =>
      expect(await (await fetch(`${server.base}/healthz`)).json()).toMatchObject({ previews }),
    );
    expect(await response.json()).toEqual({
      status: 'ok',
      checks: { database: true, queue: true, blobStore: true, workers: true },
      workers: idleThreads,
      previews: expect.objectContaining({ size: server.config.rendering.renderers }),
    });
    // The blob folder gone (a lost mount): unhealthy, and the answer says which check failed.
    const blobs = join(server.dataDir, 'blobs');
    renameSync(blobs, `${blobs}.away`);
    try {
      const unhealthy = await fetch(`${server.base}/healthz`);
      expect(unhealthy.status).toBe(503);
      expect(await unhealthy.json()).toEqual({
        status: 'unavailable',
        checks: { database: true, queue: true, blobStore: false, workers: true },
        workers: idleThreads,
        previews,
      });
    } finally {
      renameSync(`${blobs}.away`, blobs);
    }
  });

  it('/healthz says previews are unavailable, and why, when LibreOffice is not on PATH; the service is healthy', async () => {
    const bare = await startServer({
      overrides: { rendering: { searchPath: join(server.dataDir, 'no-programs') } },
    });
    try {
      const response = await fetch(`${bare.base}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        status: 'ok',
        previews: {
          available: false,
          reason: expect.stringMatching(
            /^LibreOffice \(soffice\) is not installed or not on PATH: install it/,
          ),
        },
      });
    } finally {
      await bare.close();
    }
  });

  it('/metrics counts requests by route and status, sync generation, and jobs by state', async () => {
    const sync = await fetch(`${server.base}/v1.0/generator/create`, {
      method: 'POST',
      body: uploadForm(titleDeck(4)),
      headers: bearer(token),
    });
    expect(sync.status).toBe(200);
    await expectValidPptx(new Uint8Array(await sync.arrayBuffer()), template);
    const jobId = await submitJob(server.base, token, uploadForm(titleDeck(1)));
    await pollUntil(server.base, token, jobId, ['SUCCEEDED']);

    const response = await fetch(`${server.base}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toContain(
      'deckforge_http_requests_total{method="POST",route="/v1.0/generator/create",status="200"} 1',
    );
    expect(text).toMatch(
      /deckforge_http_request_duration_seconds_bucket\{le="[^"]+",method="POST",route="\/v1\.0\/generator\/create",status="200"\} 1/,
    );
    expect(text).toContain('deckforge_sync_generation_duration_seconds_count 1');
    expect(text).toContain('deckforge_sync_slides_generated_total 4');
    expect(text).toContain('deckforge_jobs{state="SUCCEEDED"} 1');
    for (const state of ['QUEUED', 'PROCESSING', 'FAILED'])
      expect(text).toContain(`deckforge_jobs{state="${state}"} 0`);
    expect(text).toContain('deckforge_queue_depth 0');
    expect(text).toMatch(/deckforge_generated_slides 5\b/);
  });

  it('/openapi.json describes every endpoint and embeds the jsonData schema', async () => {
    const response = await fetch(`${server.base}/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, Record<string, unknown>> };
    };
    expect(document.openapi).toMatch(/^3\.1/);
    for (const [method, path] of ENDPOINTS)
      expect(document.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    expect(Object.keys(document.paths).some((p) => p.startsWith('/v2.0/files/'))).toBe(true);
    // The payload schema's parts (Presentation, Slide, …) sit beside JsonData in components.schemas.
    expect(document.components.schemas.JsonData).toBeDefined();
    const schemas = JSON.stringify(document.components.schemas);
    for (const field of ['presentation', 'slides', 'slide_index', 'export_version', 'resultFileName']) {
      expect(schemas).toContain(`"${field}"`);
    }
  });

  it('/docs renders the document as HTML without external resources', async () => {
    const response = await fetch(`${server.base}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    for (const [, path] of ENDPOINTS) expect(html).toContain(path);
    expect(html).toContain('slide_index');
    expect(html).not.toMatch(/<script|<link[^>]+href="https?:|src="https?:|url\(https?:/i);
  });

  it('leads a browser from / to the console, between the console and /docs, and has a favicon', async () => {
    const root = await fetch(`${server.base}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/console');
    const docs = await (await fetch(`${server.base}/docs`)).text();
    expect(docs).toContain('<a href="/console">');
    expect(docs).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg">');
    const shell = await (await fetch(`${server.base}/console`)).text();
    expect(shell).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg">');
    for (const path of ['/favicon.ico', '/favicon.svg']) {
      const icon = await fetch(`${server.base}${path}`);
      expect(icon.status, path).toBe(200);
      expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(await icon.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    }
  });

  it('/docs lists the guides in reading order, with plain titles, each linking back and to the console', async () => {
    const docs = await (await fetch(`${server.base}/docs`)).text();
    const guides = [...docs.matchAll(/<li><a href="\/docs\/([a-z0-9-]+)">([^<]*)<\/a><\/li>/g)];
    const names = guides.map((g) => g[1]);
    expect(names.slice(0, 3)).toEqual(['http-api', 'payload', 'payload-tables']);
    expect(names.indexOf('operations')).toBeGreaterThan(names.indexOf('payload-pictures'));
    expect(guides.find((g) => g[1] === 'payload')?.[2]).toBe('The jsonData payload'); // no raw backticks
    const guide = await (await fetch(`${server.base}/docs/payload`)).text();
    expect(guide).toContain('<title>Deckforge: The jsonData payload</title>');
    expect(guide).toContain('<a href="/docs">');
    expect(guide).toContain('<a href="/console">Console</a>');
  });

  it('answers unknown routes with 404 shape B, never to be cached', async () => {
    const response = await fetch(`${server.base}/v3.0/nothing-here`);
    expect(response.headers.get('cache-control')).toBe('no-store'); // a route may exist tomorrow
    await expectShapeB(response, 404, 'Not Found');
  });

  it('returns the client’s X-Request-Id, or a new one, and logs with it', async () => {
    const echoed = await fetch(`${server.base}/healthz`, { headers: { 'x-request-id': 'trace-42.a' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-42.a');
    const fresh = await fetch(`${server.base}/healthz`, {
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const lines = server.logs.map((l) => JSON.parse(l) as { reqId?: string });
    expect(lines.some((l) => l.reqId === 'trace-42.a')).toBe(true);
  });
});

describe('POST /v1.0/template/inspect', () => {
  it('lists slides, layouts and every shape of an uploaded template', async () => {
    const form = new FormData();
    form.append('files', new Blob([template]), TEMPLATE_NAME);
    const response = await fetch(`${server.base}/v1.0/template/inspect`, {
      method: 'POST',
      body: form,
      headers: bearer(token),
    });
    expect(response.status).toBe(200);
    const body = JSON.stringify(await response.json());
    for (const name of ['Title 1', 'Subtitle 2', 'Content Placeholder 2', 'Picture Placeholder 4']) {
      expect(body).toContain(name);
    }
    const parsed = JSON.parse(body) as {
      slides: { shapes: { name: string; id: number; kind: string; text: string; tags: string[] }[] }[];
      layouts: unknown[];
    };
    expect(parsed.slides).toHaveLength(10);
    expect(parsed.layouts.length).toBeGreaterThan(0);
    // Slide 0 of the template: "Title 1" (id 2) and "Subtitle 2" (id 3), both text placeholders.
    expect(parsed.slides[0]?.shapes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'Title 1',
          id: 2,
          kind: expect.any(String),
          text: expect.any(String),
          tags: [],
        }),
        expect.objectContaining({
          name: 'Subtitle 2',
          id: 3,
          kind: expect.any(String),
          text: expect.any(String),
        }),
      ]),
    );
  });

  it('answers 400 shape A without a template and 401 without a token', async () => {
    const empty = await fetch(`${server.base}/v1.0/template/inspect`, {
      method: 'POST',
      body: new URLSearchParams({}),
      headers: bearer(token),
    });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({
      statusCode: 400,
      message: 'Invalid input parameters',
      details: expect.any(String),
    });
    const anonymous = await fetch(`${server.base}/v1.0/template/inspect`, {
      method: 'POST',
      body: new URLSearchParams({}),
    });
    expect(anonymous.status).toBe(401);
  });

  it('answers 400 shape A for a file that is not a presentation', async () => {
    const form = new FormData();
    form.append('files', new Blob([new TextEncoder().encode('not a zip')]), 'broken.pptx');
    const response = await fetch(`${server.base}/v1.0/template/inspect`, {
      method: 'POST',
      body: form,
      headers: bearer(token),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      statusCode: 400,
      message: 'Invalid input parameters',
      details: expect.any(String),
    });
  });
});
