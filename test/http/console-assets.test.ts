/**
 * The console's shell and assets as the server sends them: one HTML shell for every page with a strict CSP and no
 * caching, hashed assets cached for a year and sent brotli- or gzip-compressed to clients that accept it, and
 * nothing else under /console/assets. Prints the compressed weight of the assets (under 300 KB).
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/servers/build-once.js';
import { startServer, type RunningServer } from '../support/servers/http-harness.js';

let server: RunningServer;

beforeAll(async () => {
  await ensureBuilt();
  server = await startServer();
});
afterAll(() => server?.close());

/** A GET with exactly these headers (fetch would add its own Accept-Encoding and decode the body). */
function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

function assetsOf(shell: string): string[] {
  return [...shell.matchAll(/\/console\/assets\/([\w.-]+)/g)].map((m) => m[1] ?? '');
}

describe('the console shell', () => {
  it('answers /console and every page with the same shell, a strict CSP and no caching', async () => {
    const first = await get('/console');
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(first.headers['cache-control']).toBe('no-store');
    const csp = String(first.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    const shell = first.body.toString();
    expect(shell).not.toMatch(/<script>|<style>|\son\w+=/);
    expect(assetsOf(shell)).toEqual([
      expect.stringMatching(/^main-[A-Z0-9]+\.css$/),
      expect.stringMatching(/^main-[A-Z0-9]+\.js$/),
    ]);
    for (const page of [
      'sign-in',
      'sign-up',
      'confirm',
      'reset',
      'tokens',
      'usage',
      'jobs',
      'templates',
      'inspector',
      'playground',
      'account',
    ]) {
      const answer = await get(`/console/${page}`);
      expect(answer.status, page).toBe(200);
      expect(answer.body.toString(), page).toBe(shell);
    }
  });

  it('answers an unknown page, and anything not built, with 404 shape B', async () => {
    for (const path of [
      '/console/nope',
      '/console/assets/main.js',
      '/console/assets/..%2Fmanifest.json',
      '/console/assets/%2e%2e%2fmanifest.json',
    ]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(404);
      expect(JSON.parse(answer.body.toString()), path).toEqual({
        statusCode: 404,
        message: expect.any(String),
        detail: expect.any(String),
      });
    }
  });
});

describe('the console assets', () => {
  it('are cached for a year, typed, and compressed for clients that accept it; under 300 KB compressed', async () => {
    const names = assetsOf((await get('/console')).body.toString());
    let brotliBytes = 0;
    let rawBytes = 0;
    for (const name of names) {
      const plain = await get(`/console/assets/${name}`);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(plain.headers['content-type']).toBe(
        name.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
      );
      expect(plain.headers['x-content-type-options']).toBe('nosniff');
      const br = await get(`/console/assets/${name}`, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toContain('accept-encoding');
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      const gz = await get(`/console/assets/${name}`, { 'accept-encoding': 'gzip;q=1, br;q=0' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
      brotliBytes += br.body.length;
      rawBytes += plain.body.length;
    }
    console.log(`console assets: ${rawBytes} bytes, ${brotliBytes} bytes with brotli`);
    expect(brotliBytes).toBeLessThan(300 * 1024);
  });
});
