/**
 * WebhookSender over node:http(s), guarded like template URLs by the same checks (guarded-url-fetcher.ts): the
 * URL is vetted, the host resolved through the guarded lookup at every delivery (not only at submission), and the
 * socket connects to the vetted address. Redirects are not followed. One deadline covers the whole exchange:
 * connecting, the answer's headers and its body (read and dropped). A receiver that has answered its status but
 * sends its body a byte at a time keeps the socket until the deadline, no longer; its status stands.
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
      let status: number | null = null;
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
      });
      const deadline = setTimeout(() => {
        if (status !== null) resolve(status);
        else reject(new FetchError(url, `no answer within ${timeoutMs / 1000} s`));
        request.destroy();
      }, timeoutMs);
      request.on('error', (error) => {
        clearTimeout(deadline);
        reject(error instanceof FetchError ? error : new FetchError(url, error.message));
      });
      request.on('response', (response) => {
        status = response.statusCode ?? 0;
        response.on('error', () => undefined); // cut at the deadline: the status is known already
        response.on('end', () => {
          clearTimeout(deadline);
          resolve(status ?? 0);
        });
        response.resume();
      });
      request.end(body);
    });
  }
}
