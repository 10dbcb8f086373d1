/**
 * Template URLs that resolve to loopback, private, link-local or metadata addresses are refused by default
 * (docs/security.md); DECKFORGE_ALLOW_PRIVATE_URLS=true lets a local template server through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { templateBytes } from '../support/servers/http-harness-paths.js';
import { pollUntil } from '../support/http/jobs-polling.js';
import { titleDeck } from '../support/http/payloads.js';
import { hostTemplate, type TemplateHost } from '../support/servers/template-host.js';

let guarded: RunningServer;
let open: RunningServer;
let host: TemplateHost;
let guardedToken: string;
let openToken: string;

beforeAll(async () => {
  host = await hostTemplate();
  guarded = await startServer();
  open = await startServer({ overrides: { allowPrivateUrls: true } });
  guardedToken = (await guarded.signUp()).token;
  openToken = (await open.signUp()).token;
});
afterAll(async () => {
  await guarded.close();
  await open.close();
  await host.close();
});

const linkBody = (url: string) =>
  new URLSearchParams({ jsonData: JSON.stringify(titleDeck(1, { template: url })) });

describe('template URL guard, default configuration', () => {
  it.each([
    ['loopback', () => host.url],
    ['localhost by name', () => host.url.replace('127.0.0.1', 'localhost')],
    ['a private address', () => 'http://10.1.2.3/t.pptx'],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/t.pptx'],
    ['IPv6 loopback', () => 'http://[::1]:9/t.pptx'],
  ])('refuses %s with 400 on the synchronous endpoint', async (_case, url) => {
    const response = await fetch(`${guarded.base}/v1.0/generator/create`, {
      method: 'POST',
      body: linkBody(url()),
      headers: bearer(guardedToken),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { details: string };
    expect(body).toEqual({
      statusCode: 400,
      message: 'Invalid input parameters',
      details: expect.any(String),
    });
    expect(body.details.toLowerCase()).toMatch(/address|private|loopback|not allowed|refused/);
  });

  it('refuses loopback on the asynchronous endpoint (400 at submission or a FAILED job)', async () => {
    const response = await fetch(`${guarded.base}/v2.0/generator/create-async`, {
      method: 'POST',
      body: linkBody(host.url),
      headers: bearer(guardedToken),
    });
    if (response.status === 400) {
      expect(((await response.json()) as { message: string }).message).toBe('Invalid input parameters');
    } else {
      expect(response.status).toBe(202);
      const { job_id } = (await response.json()) as { job_id: string };
      const { last } = await pollUntil(guarded.base, guardedToken, job_id, ['SUCCEEDED', 'FAILED']);
      expect(last.status).toBe('FAILED');
      expect(last.error_message?.toLowerCase()).toMatch(/address|private|loopback|not allowed|refused/);
    }
  });

  it('refuses loopback on template inspection', async () => {
    const response = await fetch(`${guarded.base}/v1.0/template/inspect`, {
      method: 'POST',
      body: new URLSearchParams({ templateUrl: host.url }),
      headers: bearer(guardedToken),
    });
    expect(response.status).toBe(400);
  });

  it('never contacted the local server', () => {
    expect(host.hits).toBe(0);
  });
});

describe('template URL guard, DECKFORGE_ALLOW_PRIVATE_URLS=true', () => {
  it('generates from a template served on loopback, synchronously and as a job', async () => {
    const sync = await fetch(`${open.base}/v1.0/generator/create`, {
      method: 'POST',
      body: linkBody(host.url),
      headers: bearer(openToken),
    });
    expect(sync.status).toBe(200);
    await expectValidPptx(new Uint8Array(await sync.arrayBuffer()), templateBytes());

    const submitted = await fetch(`${open.base}/v2.0/generator/create-async`, {
      method: 'POST',
      body: linkBody(host.url),
      headers: bearer(openToken),
    });
    expect(submitted.status).toBe(202);
    const { job_id } = (await submitted.json()) as { job_id: string };
    const { last } = await pollUntil(open.base, openToken, job_id, ['SUCCEEDED', 'FAILED']);
    expect(last.status).toBe('SUCCEEDED');
    const download = await fetch(last.file_url ?? '');
    await expectValidPptx(new Uint8Array(await download.arrayBuffer()), templateBytes());
  });

  it('inspects a template given by URL', async () => {
    const response = await fetch(`${open.base}/v1.0/template/inspect`, {
      method: 'POST',
      body: new URLSearchParams({ templateUrl: host.url }),
      headers: bearer(openToken),
    });
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain('Subtitle 2');
  });
});
