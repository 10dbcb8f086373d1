/**
 * What a browser, a cache or a forged header could abuse: security headers on every response, no
 * caching of credentials, usage, status or files, the metrics token, sign-in throttling over HTTP, and download
 * links that only carry a host the operator trusts.
 */
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import {
  bearer,
  expectShapeB,
  startServer,
  type Credentials,
  type RunningServer,
} from '../support/servers/http-harness.js';
import { templateBytes } from '../support/servers/http-harness-paths.js';
import { pollUntil, submitJob, type StatusBody } from '../support/http/jobs-polling.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
let open: RunningServer; // default settings
let guarded: RunningServer; // DECKFORGE_METRICS_TOKEN and DECKFORGE_PUBLIC_URL set
let account: Credentials & { token: string };
let jobId: string;
const template = templateBytes();

beforeAll(async () => {
  [open, guarded] = await Promise.all([
    startServer(),
    startServer({ overrides: { metricsToken: METRICS_TOKEN, publicBaseUrl: 'https://decks.example.com' } }),
  ]);
  account = await open.signUp();
  jobId = await submitJob(open.base, account.token, uploadForm(titleDeck(1)));
  await pollUntil(open.base, account.token, jobId, ['SUCCEEDED']);
});
afterAll(async () => Promise.all([open.close(), guarded.close()]));

/** GET with a Host header of our choosing (fetch does not let a caller set Host). */
function getWithHost(
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const statusPath = () => `/v2.0/jobs/${jobId}/status`;

describe('headers', () => {
  it('/docs: a strict Content-Security-Policy that admits its own style, no framing, nosniff', async () => {
    const response = await fetch(`${open.base}/docs`);
    const html = await response.text();
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    const hash = createHash('sha256').update(style).digest('base64');
    expect(csp).toContain(`style-src 'sha256-${hash}'`);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('nosniff on every kind of answer: JSON, a .pptx, an error, an unknown route', async () => {
    const answers = await Promise.all([
      fetch(`${open.base}/healthz`),
      fetch(`${open.base}/v1.0/generator/create`, {
        method: 'POST',
        body: uploadForm(titleDeck(1)),
        headers: bearer(account.token),
      }),
      fetch(`${open.base}/v1.0/usage`),
      fetch(`${open.base}/no/such/route`),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 401, 404]);
    for (const response of answers) expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const [, deck, ...others] = await Promise.all(answers.map((r) => r.arrayBuffer()));
    expect(others).toHaveLength(2);
    await expectValidPptx(new Uint8Array(deck ?? new ArrayBuffer(0)), template);
  });

  it('Cache-Control no-store on token, usage, status and download answers, errors included', async () => {
    const status = (await (
      await fetch(`${open.base}${statusPath()}`, { headers: bearer(account.token) })
    ).json()) as StatusBody;
    const answers = await Promise.all([
      fetch(`${open.base}/v1.0/token/create`, {
        method: 'POST',
        body: new URLSearchParams({ username: account.email, password: account.password, key: account.key }),
      }),
      fetch(`${open.base}/v1.0/token/create`, { method: 'POST', body: new URLSearchParams({}) }),
      fetch(`${open.base}/v1.0/usage`, { headers: bearer(account.token) }),
      fetch(`${open.base}${statusPath()}`, { headers: bearer(account.token) }),
      fetch(`${open.base}/v2.0/jobs/unknown/status`, { headers: bearer(account.token) }),
      fetch(status.file_url ?? ''),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 400, 200, 200, 404, 200]);
    for (const response of answers) expect(response.headers.get('cache-control')).toBe('no-store');
    await Promise.all(answers.map((r) => r.arrayBuffer()));
  });
});

describe('/metrics', () => {
  it('is open when no metrics token is configured', async () => {
    expect((await fetch(`${open.base}/metrics`)).status).toBe(200);
  });

  it('wants the metrics token when one is configured: 401 in shape B without it or with another', async () => {
    await expectShapeB(await fetch(`${guarded.base}/metrics`), 401, 'Unauthorized');
    await expectShapeB(
      await fetch(`${guarded.base}/metrics`, { headers: bearer(`${METRICS_TOKEN}x`) }),
      401,
      'Unauthorized',
    );
    // A token of the same length differing in its first or last character.
    const last = METRICS_TOKEN.length - 1;
    for (const wrong of [
      `${METRICS_TOKEN[0] === 'x' ? 'y' : 'x'}${METRICS_TOKEN.slice(1)}`,
      `${METRICS_TOKEN.slice(0, last)}${METRICS_TOKEN[last] === 'x' ? 'y' : 'x'}`,
    ]) {
      await expectShapeB(
        await fetch(`${guarded.base}/metrics`, { headers: bearer(wrong) }),
        401,
        'Unauthorized',
      );
    }
    const response = await fetch(`${guarded.base}/metrics`, { headers: bearer(METRICS_TOKEN) });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('deckforge_generation_workers');
  });
});

describe('download links and the Host header', () => {
  it('a forged Host header never reaches file_url: refused, naming the settings', async () => {
    const forged = await getWithHost(open.base, statusPath(), {
      host: 'evil.example',
      ...bearer(account.token),
    });
    expect(forged.status).toBe(400);
    expect(JSON.parse(forged.body)).toEqual({
      statusCode: 400,
      message: 'Invalid input parameters',
      details: expect.stringMatching(/"evil\.example".*DECKFORGE_PUBLIC_URL.*DECKFORGE_TRUSTED_HOSTS/),
    });
    expect(forged.body).not.toMatch(/https?:\/\/evil/);
    // Userinfo tricks are not a trusted host either.
    const port = new URL(open.base).port;
    const tricked = await getWithHost(open.base, statusPath(), {
      host: `localhost:${port}@evil.example`,
      ...bearer(account.token),
    });
    expect(tricked.status).toBe(400);
  });

  it('a trusted Host (the listen address, localhost) is used; X-Forwarded-Host is ignored without a trusted proxy', async () => {
    const port = new URL(open.base).port;
    const viaLocalhost = await getWithHost(open.base, statusPath(), {
      host: `localhost:${port}`,
      'x-forwarded-host': 'evil.example',
      ...bearer(account.token),
    });
    expect(viaLocalhost.status).toBe(200);
    const fileUrl = (JSON.parse(viaLocalhost.body) as StatusBody).file_url ?? '';
    expect(fileUrl.startsWith(`http://localhost:${port}/v2.0/files/`)).toBe(true);
    const download = await fetch(fileUrl.replace('localhost', '127.0.0.1'));
    expect(download.status).toBe(200);
    await expectValidPptx(new Uint8Array(await download.arrayBuffer()), template);
  });

  it('behind a trusted proxy (DECKFORGE_TRUST_PROXY), its X-Forwarded-Host and -Proto build the link, if trusted', async () => {
    const proxied = await startServer({
      overrides: { trustProxy: ['127.0.0.1'], trustedHosts: ['decks.example.com', '127.0.0.1'] },
    });
    try {
      const user = await proxied.signUp();
      const id = await submitJob(proxied.base, user.token, uploadForm(titleDeck(1)));
      await pollUntil(proxied.base, user.token, id, ['SUCCEEDED']);
      const ask = (forwardedHost: string) =>
        getWithHost(proxied.base, `/v2.0/jobs/${id}/status`, {
          host: '127.0.0.1',
          'x-forwarded-host': forwardedHost,
          'x-forwarded-proto': 'https',
          ...bearer(user.token),
        });
      const trusted = await ask('decks.example.com');
      expect(trusted.status).toBe(200);
      expect((JSON.parse(trusted.body) as StatusBody).file_url).toMatch(
        /^https:\/\/decks\.example\.com\/v2\.0\/files\//,
      );
      expect((await ask('evil.example')).status).toBe(400);
    } finally {
      await proxied.close();
    }
  });

  it('DECKFORGE_PUBLIC_URL wins over any Host header', async () => {
    const user = await guarded.signUp();
    const id = await submitJob(guarded.base, user.token, uploadForm(titleDeck(1)));
    await pollUntil(guarded.base, user.token, id, ['SUCCEEDED']);
    const forged = await getWithHost(guarded.base, `/v2.0/jobs/${id}/status`, {
      host: 'evil.example',
      ...bearer(user.token),
    });
    expect(forged.status).toBe(200);
    expect((JSON.parse(forged.body) as StatusBody).file_url).toMatch(
      /^https:\/\/decks\.example\.com\/v2\.0\/files\//,
    );
  });
});

describe('sign-in throttling over HTTP', () => {
  const attempt = (password: string) =>
    fetch(`${open.base}/v1.0/token/create`, {
      method: 'POST',
      body: new URLSearchParams({ username: account.email, password, key: account.key }),
    });

  it('failures slow down to a 429 in shape B with Retry-After; the right password then waits too', async () => {
    open.clock.freeze();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await attempt('wrong password')).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
      const refused = await attempt(account.password);
      expect(refused.headers.get('retry-after')).toBe('1');
      await expectShapeB(refused, 429, 'Too Many Requests - usage or rate limit exceeded');
      open.clock.advance(1000);
      expect((await attempt(account.password)).status).toBe(200);
      expect((await attempt('wrong password')).status).toBe(401); // the success forgot the failures
    } finally {
      open.clock.thaw();
    }
  });
});
