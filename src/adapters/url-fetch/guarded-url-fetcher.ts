/**
 * Fetches a template (or picture) URL for the service: http(s) only, an overall timeout, a size cap, at most
 * three redirects with every hop checked again. Unless private URLs are allowed, the host's addresses are
 * resolved once, checked (address-policy.ts), and the socket connects to exactly the address checked: the
 * `lookup` hook hands the vetted address to the connection, so there is no DNS-rebinding window.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { FetchError, type TemplateFetcher } from '../../service/ports/index.js';
import { refusedAddressReason } from './address-policy.js';

export interface UrlFetcherOptions {
  allowPrivateUrls: boolean;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects?: number;
  /** Which resolved addresses are refused (reason) or allowed (null); default address-policy.ts. Tests narrow it. */
  refusedAddress?: (address: string) => string | null;
}

export class GuardedUrlFetcher implements TemplateFetcher {
  private readonly maxRedirects: number;
  private readonly refusedAddress: (address: string) => string | null;

  constructor(private readonly options: UrlFetcherOptions) {
    this.maxRedirects = options.maxRedirects ?? 3;
    this.refusedAddress = options.allowPrivateUrls
      ? () => null
      : (options.refusedAddress ?? refusedAddressReason);
  }

  async fetch(url: string): Promise<Uint8Array> {
    const deadline = Date.now() + this.options.timeoutMs;
    let current = url;
    for (let hop = 0; ; hop++) {
      const target = this.checkUrl(url, current);
      const outcome = await this.request(url, target, deadline);
      if (outcome.kind === 'body') return outcome.bytes;
      if (hop >= this.maxRedirects) {
        throw new FetchError(url, `URL ${url}: more than ${this.maxRedirects} redirects`);
      }
      current = new URL(outcome.location, target).toString();
    }
  }

  /** The URL parsed, or FetchError: not http(s), credentials in it, or a literal address that is refused. */
  checkUrl(original: string, current: string): URL {
    let target: URL;
    try {
      target = new URL(current);
    } catch {
      throw new FetchError(original, `URL "${current}" is not a valid URL`);
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      throw new FetchError(original, `URL ${current}: only http and https URLs can be fetched`);
    }
    if (target.username || target.password) {
      throw new FetchError(original, `URL ${current}: URLs with credentials are not fetched`);
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      const reason = this.refusedAddress(host);
      if (reason) throw this.refusal(original, current, host, reason);
    }
    return target;
  }

  private refusal(original: string, current: string, address: string, reason: string): FetchError {
    return new FetchError(
      original,
      `URL ${current} is refused: its host resolves to ${address}, a ${reason} address ` +
        '(the server fetches only public addresses unless DECKFORGE_ALLOW_PRIVATE_URLS is set)',
    );
  }

  /** A socket `lookup` that resolves the host and refuses it when any of its addresses is refused. */
  guardedLookup(original: string, current: string): LookupFunction {
    return (hostname, lookupOptions, callback) => {
      dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses: LookupAddress[]) => {
        if (error) {
          callback(
            new FetchError(
              original,
              `URL ${current}: cannot resolve ${hostname} (${error.code ?? error.message})`,
            ),
            '',
            4,
          );
          return;
        }
        // Any refused answer refuses the host: a mixed answer is how rebinding attacks start.
        for (const entry of addresses) {
          const reason = this.refusedAddress(entry.address);
          if (reason) {
            callback(this.refusal(original, current, entry.address, reason), '', 4);
            return;
          }
        }
        const wanted = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
        const usable = addresses.filter((a) => wanted === 0 || a.family === wanted);
        const first = usable[0];
        if (!first) {
          callback(new FetchError(original, `URL ${current}: ${hostname} has no usable address`), '', 4);
          return;
        }
        if (lookupOptions.all) {
          (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      });
    };
  }

  private request(
    original: string,
    target: URL,
    deadline: number,
  ): Promise<{ kind: 'body'; bytes: Uint8Array } | { kind: 'redirect'; location: string }> {
    const current = target.toString();
    return new Promise((resolve, reject) => {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        reject(
          new FetchError(original, `URL ${original}: timed out after ${this.options.timeoutMs / 1000} s`),
        );
        return;
      }
      const client = target.protocol === 'https:' ? https : http;
      const request = client.request(target, {
        method: 'GET',
        agent: false,
        lookup: this.guardedLookup(original, current),
        headers: { 'user-agent': 'deckforge', accept: '*/*' },
      });
      let settled = false;
      const timer = setTimeout(() => {
        fail(new FetchError(original, `URL ${original}: timed out after ${this.options.timeoutMs / 1000} s`));
      }, remaining);
      const fail = (error: Error): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.destroy();
        reject(
          error instanceof FetchError ? error : new FetchError(original, `URL ${current}: ${error.message}`),
        );
      };
      const succeed = (
        value: { kind: 'body'; bytes: Uint8Array } | { kind: 'redirect'; location: string },
      ): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.destroy();
        resolve(value);
      };
      request.on('error', fail);
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && response.headers.location) {
          succeed({ kind: 'redirect', location: response.headers.location });
          return;
        }
        if (status !== 200) {
          fail(new FetchError(original, `URL ${current} answered HTTP ${status}`));
          return;
        }
        if (Number(response.headers['content-length'] ?? NaN) > this.options.maxBytes) {
          fail(this.tooLarge(original));
          return;
        }
        const chunks: Buffer[] = [];
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > this.options.maxBytes) fail(this.tooLarge(original));
          else chunks.push(chunk);
        });
        response.on('error', fail);
        response.on('aborted', () =>
          fail(new FetchError(original, `URL ${current}: the connection was cut`)),
        );
        response.on('end', () => {
          const all = Buffer.concat(chunks, received);
          succeed({ kind: 'body', bytes: new Uint8Array(all.buffer, all.byteOffset, all.byteLength) });
        });
      });
      request.end();
    });
  }

  private tooLarge(original: string): FetchError {
    const mb = Math.round((this.options.maxBytes / (1024 * 1024)) * 10) / 10;
    return new FetchError(original, `URL ${original}: the file is larger than the ${mb} MB limit`);
  }
}
