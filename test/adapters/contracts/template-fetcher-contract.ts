/**
 * TemplateFetcher contract, against a real HTTP server on 127.0.0.1: downloads, redirects (at most 3), size cap,
 * timeout, schemes; with private URLs allowed (the test configuration) and refused (the default, which must not
 * even connect to loopback, private, link-local/metadata or IPv4-mapped addresses).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError, type TemplateFetcher } from '../../../src/service/ports/index.js';

export interface FetcherOptions {
  allowPrivateUrls: boolean;
  timeoutMs: number;
  maxBytes: number;
}

/** The test server's base URL, for adapter-specific tests in the same file. */
export const fetcherTestServer = { base: '' };

export function describeTemplateFetcherContract(
  name: string,
  make: (options: FetcherOptions) => TemplateFetcher,
): void {
  let server: Server;
  let base = '';
  let hits = 0;

  beforeAll(async () => {
    server = createServer((request, response) => {
      hits += 1;
      const url = new URL(request.url ?? '/', 'http://x');
      const hop = Number(url.searchParams.get('hops') ?? 0);
      switch (url.pathname) {
        case '/deck.pptx':
          response
            .writeHead(200, { 'content-type': 'application/octet-stream' })
            .end(Buffer.from('PK-deck-bytes'));
          return;
        case '/redirect':
          response.writeHead(302, { location: hop > 0 ? `/redirect?hops=${hop - 1}` : '/deck.pptx' }).end();
          return;
        case '/to-metadata':
          response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
          return;
        case '/big':
          response.writeHead(200).end(Buffer.alloc(4096, 1));
          return;
        case '/big-chunked':
          response.writeHead(200);
          response.write(Buffer.alloc(3000, 1));
          response.end(Buffer.alloc(3000, 1));
          return;
        case '/slow':
          setTimeout(() => response.writeHead(200).end('late'), 2000);
          return;
        default:
          response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    fetcherTestServer.base = base;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const allowing = (overrides: Partial<FetcherOptions> = {}) =>
    make({ allowPrivateUrls: true, timeoutMs: 5000, maxBytes: 5000, ...overrides });
  const byDefault = () => make({ allowPrivateUrls: false, timeoutMs: 5000, maxBytes: 5000 });

  async function failure(promise: Promise<unknown>): Promise<FetchError> {
    try {
      await promise;
    } catch (error) {
      expect(error).toBeInstanceOf(FetchError);
      return error as FetchError;
    }
    throw new Error('expected the fetch to fail');
  }

  describe(`TemplateFetcher contract: ${name}, private URLs allowed (test configuration)`, () => {
    it('downloads a template', async () => {
      const bytes = await allowing().fetch(`${base}/deck.pptx`);
      expect(Buffer.from(bytes).toString()).toBe('PK-deck-bytes');
    });

    it('follows up to three redirects, and no more', async () => {
      expect(Buffer.from(await allowing().fetch(`${base}/redirect?hops=2`)).toString()).toBe('PK-deck-bytes');
      const error = await failure(allowing().fetch(`${base}/redirect?hops=3`));
      expect(error.message).toMatch(/more than 3 redirects/);
    });

    it('answers a non-200 status with a message naming it', async () => {
      expect((await failure(allowing().fetch(`${base}/missing.pptx`))).message).toMatch(/answered HTTP 404/);
    });

    it('stops at the size cap, declared or streamed', async () => {
      const small = allowing({ maxBytes: 1000 });
      expect((await failure(small.fetch(`${base}/big`))).message).toMatch(/larger than the .* MB limit/);
      expect((await failure(small.fetch(`${base}/big-chunked`))).message).toMatch(
        /larger than the .* MB limit/,
      );
    });

    it('times out', async () => {
      const started = Date.now();
      const error = await failure(allowing({ timeoutMs: 300 }).fetch(`${base}/slow`));
      expect(error.message).toMatch(/timed out/);
      expect(Date.now() - started).toBeLessThan(1500);
    });

    it('refuses schemes other than http(s) and URLs with credentials', async () => {
      expect((await failure(allowing().fetch('file:///etc/passwd'))).message).toMatch(/only http and https/);
      expect((await failure(allowing().fetch('ftp://example.com/a.pptx'))).message).toMatch(
        /only http and https/,
      );
      expect((await failure(allowing().fetch(`http://user:pw@127.0.0.1:1/a`))).message).toMatch(
        /credentials/,
      );
      expect((await failure(allowing().fetch('not a url'))).message).toMatch(/not a valid URL/);
    });
  });

  describe(`TemplateFetcher contract: ${name}, default configuration`, () => {
    it.each([
      ['127.0.0.1', () => `${base}/deck.pptx`],
      ['localhost', () => `${base.replace('127.0.0.1', 'localhost')}/deck.pptx`],
      ['10.x', () => 'http://10.0.0.1/deck.pptx'],
      ['169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/'],
      ['::1', () => 'http://[::1]:8080/deck.pptx'],
      ['[::ffff:127.0.0.1]', () => `http://[::ffff:127.0.0.1]:${new URL(base).port}/deck.pptx`],
      ['0.0.0.0', () => 'http://0.0.0.0/deck.pptx'],
    ])('refuses %s without connecting', async (_label, url) => {
      const before = hits;
      const error = await failure(byDefault().fetch(url()));
      expect(error.message).toMatch(/is refused: its host resolves to .* address/);
      expect(hits).toBe(before);
    });
  });
}
