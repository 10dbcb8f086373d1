/**
 * WebhookSender over node:http(s), guarded like template URLs by the same checks (guarded-url-fetcher.ts): the
 * URL is vetted, the host resolved through the guarded lookup, and the socket connects to the vetted address.
 * Redirects are not followed; the receiver's answer body is not read beyond the status.
 */
import http from 'node:http';
import https from 'node:https';
import { FetchError, type WebhookSender } from '../../service/ports/index.js';
import type { GuardedUrlFetcher } from './guarded-url-fetcher.js';

export class GuardedWebhookSender implements WebhookSender {
  constructor(private readonly guard: GuardedUrlFetcher) {}

  async check(url: string): Promise<void> {
    const target = this.guard.checkUrl(url, url);
    const lookup = this.guard.guardedLookup(url, url);
    await new Promise<void>((resolve, reject) => {
      lookup(target.hostname.replace(/^\[|\]$/g, ''), { all: true }, (error) =>
        error ? reject(error) : resolve(),
      );
    });
  }

  post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<number> {
    const target = this.guard.checkUrl(url, url);
    const client = target.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const request = client.request(target, {
        method: 'POST',
        agent: false,
        lookup: this.guard.guardedLookup(url, url),
        headers: {
          'user-agent': 'deckforge-webhook',
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          ...headers,
        },
        timeout: timeoutMs,
      });
      request.on('timeout', () =>
        request.destroy(new FetchError(url, `no answer within ${timeoutMs / 1000} s`)),
      );
      request.on('error', (error) =>
        reject(error instanceof FetchError ? error : new FetchError(url, error.message)),
      );
      request.on('response', (response) => {
        response.resume(); // the body is not needed; reading it lets the socket close cleanly
        resolve(response.statusCode ?? 0);
      });
      request.end(body);
    });
  }
}
