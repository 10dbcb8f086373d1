/**
 * Fetches a template (or picture) URL for the service: http(s) only, an overall timeout, a size cap, at most
 * three redirects with every hop checked again. A caller may tighten the timeout to its request's deadline, the
 * cap to what this one file may be (a picture's limit), and share a byte allowance across the downloads of one
 * request; every cap is enforced while the body arrives, not after. `fetchToFile` streams the body to disk. Unless private URLs are allowed, the host's addresses are
 * resolved once, checked (address-policy.ts), and the socket connects to exactly the address checked: the
 * `lookup` hook hands the vetted address to the connection, so there is no DNS-rebinding window.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import {
  FetchBudgetError,
  FetchError,
  type FetchLimits,
  type TemplateFetcher,
} from '../../service/ports/index.js';
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

  async fetch(url: string, limits: FetchLimits = {}): Promise<Uint8Array> {
    const chunks: Buffer[] = [];
    const size = await this.download(url, limits, {
      write: (chunk) => {
        chunks.push(chunk);
        return true;
      },
      drained: (resume) => resume(),
      end: async () => undefined,
      reset: () => void chunks.splice(0),
    });
    const all = Buffer.concat(chunks, size);
    return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
  }

  async fetchToFile(url: string, file: string, limits: FetchLimits = {}): Promise<number> {
    const out = createWriteStream(file);
    const closed = new Promise<void>((resolve, reject) => {
      out.once('close', resolve);
      out.once('error', reject);
    });
    try {
      return await this.download(url, limits, {
        // When the disk is slower than the network, the socket waits: the body is never held in memory.
        write: (chunk) => out.write(chunk),
        drained: (resume) => void out.once('drain', resume),
        end: async () => {
          out.end();
          await closed;
        },
        reset: () => undefined,
      });
    } finally {
      if (!out.closed) {
        out.destroy();
        await closed.catch(() => undefined);
      }
    }
  }

  private async download(url: string, limits: FetchLimits, sink: BodySink): Promise<number> {
    const own = Date.now() + this.options.timeoutMs;
    const shared = limits.deadline !== undefined && limits.deadline <= own;
    const deadline = shared ? (limits.deadline as number) : own;
    const maxBytes = Math.min(this.options.maxBytes, limits.maxBytes ?? Infinity);
    let current = url;
    for (let hop = 0; ; hop++) {
      const target = this.checkUrl(url, current);
      const outcome = await this.request(url, target, { ...limits, deadline, shared, maxBytes }, sink);
      if (outcome.kind === 'body') {
        await sink.end();
        return outcome.size;
      }
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
    limits: FetchLimits & { deadline: number; shared: boolean; maxBytes: number },
    sink: BodySink,
  ): Promise<{ kind: 'body'; size: number } | { kind: 'redirect'; location: string }> {
    const current = target.toString();
    const { deadline, maxBytes, budget, signal } = limits;
    const timedOut = () =>
      new FetchError(
        original,
        limits.shared
          ? `URL ${original}: not fetched in time: all the URLs of one request or job have ` +
              `${this.options.timeoutMs / 1000} s together (DECKFORGE_FETCH_TIMEOUT_SECONDS)`
          : `URL ${original}: timed out after ${this.options.timeoutMs / 1000} s`,
      );
    return new Promise((resolve, reject) => {
      const remaining = deadline - Date.now();
      if (remaining <= 0) return void reject(timedOut());
      if (signal?.aborted)
        return void reject(new FetchError(original, `URL ${original}: download cancelled`));
      const client = target.protocol === 'https:' ? https : http;
      const request = client.request(target, {
        method: 'GET',
        agent: false,
        lookup: this.guardedLookup(original, current),
        headers: { 'user-agent': 'deckforge', accept: '*/*' },
      });
      let settled = false;
      const timer = setTimeout(() => fail(timedOut()), remaining);
      const onAbort = (): void => fail(new FetchError(original, `URL ${original}: download cancelled`));
      signal?.addEventListener('abort', onAbort, { once: true });
      const finish = (): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        request.destroy();
        return true;
      };
      const fail = (error: Error): void => {
        if (!finish()) return;
        reject(
          error instanceof FetchError ? error : new FetchError(original, `URL ${current}: ${error.message}`),
        );
      };
      request.on('error', fail);
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && response.headers.location) {
          if (finish()) resolve({ kind: 'redirect', location: response.headers.location });
          return;
        }
        if (status !== 200) {
          fail(new FetchError(original, `URL ${current} answered HTTP ${status}`));
          return;
        }
        const announced = Number(response.headers['content-length'] ?? NaN);
        if (announced > maxBytes) return void fail(this.tooLarge(original, maxBytes));
        if (budget && announced > budget.remaining) return void fail(overBudget(original, budget.total));
        sink.reset();
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          if (settled) return;
          received += chunk.length;
          if (budget) budget.remaining -= chunk.length;
          if (received > maxBytes) fail(this.tooLarge(original, maxBytes));
          else if (budget && budget.remaining < 0) fail(overBudget(original, budget.total));
          else if (!sink.write(chunk)) {
            response.pause();
            sink.drained(() => response.resume());
          }
        });
        response.on('error', fail);
        response.on('aborted', () =>
          fail(new FetchError(original, `URL ${current}: the connection was cut`)),
        );
        response.on('end', () => {
          if (finish()) resolve({ kind: 'body', size: received });
        });
      });
      request.end();
    });
  }

  private tooLarge(original: string, maxBytes: number): FetchError {
    return new FetchError(
      original,
      `URL ${original}: the file is larger than the ${megabytes(maxBytes)} MB limit`,
    );
  }
}

/** Where a body goes as it arrives. */
interface BodySink {
  /** False: stop reading until `drained` calls back. */
  write(chunk: Buffer): boolean;
  drained(resume: () => void): void;
  end(): Promise<void>;
  /** A redirect's body is never kept; a retried hop starts again. */
  reset(): void;
}

function overBudget(original: string, total: number): FetchBudgetError {
  return new FetchBudgetError(
    original,
    `URL ${original}: the files fetched for this request together passed the ${megabytes(total)} MB limit ` +
      '(DECKFORGE_MAX_FETCH_MB): use fewer or smaller pictures',
  );
}

function megabytes(bytes: number): number {
  return Math.round((bytes / (1024 * 1024)) * 10) / 10;
}
