/**
 * The typed client of the Deckforge HTTP API, on nothing but the platform's fetch, so it runs in Node ≥ 20,
 * browsers and edge runtimes. With credentials it creates its token itself and renews it when the server
 * answers 401 (one renewal, one retry). Every generation request carries an Idempotency-Key, the same on a retry,
 * so a retry after a broken connection is never charged twice.
 */
import {
  DeckforgeError,
  DeckforgeJobError,
  DeckforgeNetworkError,
  DeckforgeTimeoutError,
  errorFromResponse,
} from './client-errors.js';
import { toBlob, type FileSource } from './file-sources.js';
import type {
  InspectResult,
  JobStatus,
  JsonData,
  StoredTemplate,
  StoredTemplateDetail,
  TokenResponse,
  UsageResponse,
} from './generated/api-types.js';
import * as storedTemplates from './stored-templates.js';

interface CommonOptions {
  /** Where `deckforge serve` listens, e.g. `https://decks.example.com`. */
  baseUrl: string;
  /** Another fetch (a proxy agent, a test double); the global one by default. */
  fetch?: typeof fetch;
}

export type DeckforgeClientOptions =
  | (CommonOptions & { token: string })
  | (CommonOptions & { email: string; password: string; key: string; token?: string });

export interface WaitOptions {
  /** Give up (DeckforgeTimeoutError) after this long; 10 minutes by default. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with every status read, the first included. */
  onStatus?: (status: JobStatus) => void;
  /** First pause between polls (default 500 ms); it grows by half each time up to maxIntervalMs (default 5 s). */
  initialIntervalMs?: number;
  maxIntervalMs?: number;
}

export interface SubmitOptions {
  /** POSTed a signed copy of the job's status when it ends (docs/http-api.md, "Webhooks"). */
  callbackUrl?: string;
  /** `pdf`: the job's result is the PDF; `pptx+pdf`: the deck, and the PDF at `pdf_url` (docs/previews.md). */
  format?: 'pptx' | 'pdf' | 'pptx+pdf';
  /** One PNG per slide as well, this many pixels wide (the server's default: 1280); links in `preview_urls`. */
  previewWidth?: number;
  previews?: boolean;
}

export interface RenderOptions {
  /** `pdf` (default): the PDF; `png`: a zip of `slide-1.png`, `slide-2.png`, … */
  format?: 'pdf' | 'png';
  /** Width of the PNG pages in pixels. */
  width?: number;
}

/** Named extra files (pictures, further templates): the name the payload uses → where the bytes come from. */
export type NamedFiles = Record<string, FileSource>;

interface CallOptions {
  method: 'GET' | 'POST' | 'DELETE';
  /** Built anew for each attempt. */
  body?: () => FormData;
  headers?: Record<string, string>;
  authenticated?: boolean;
}

const URL_TEMPLATE = /^https?:\/\//i;

function presentationOf(payload: JsonData): { template?: string | null } {
  return 'presentation' in payload ? payload.presentation : payload;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class DeckforgeClient {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly credentials: { email: string; password: string; key: string } | null;
  private token: string | null;
  /** The token request under way, shared by calls that need one at the same time. */
  private renewal: Promise<string> | null = null;

  constructor(options: DeckforgeClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.token = options.token ?? null;
    this.credentials =
      'email' in options ? { email: options.email, password: options.password, key: options.key } : null;
  }

  /**
   * The deck, generated in the request (small and medium decks; larger ones: submit + waitForJob + download).
   * `template` null: presentation.template is a URL the server downloads or a stored template's name or id.
   */
  async generate(template: FileSource | null, payload: JsonData, files?: NamedFiles): Promise<Uint8Array> {
    const response = await this.generateResponse(template, payload, files);
    return new Uint8Array(await response.arrayBuffer());
  }

  /** As generate, but the deck as a stream, read as it arrives (a large deck never whole in memory). */
  async generateStream(
    template: FileSource | null,
    payload: JsonData,
    files?: NamedFiles,
  ): Promise<ReadableStream<Uint8Array>> {
    const response = await this.generateResponse(template, payload, files);
    if (!response.body) throw new DeckforgeNetworkError('the deck answer has no body');
    return response.body;
  }

  /** The deck as a PDF, generated and rendered in the request (format=pdf). */
  async generatePdf(template: FileSource | null, payload: JsonData, files?: NamedFiles): Promise<Uint8Array> {
    const response = await this.generateResponse(template, payload, files, { format: 'pdf' });
    return new Uint8Array(await response.arrayBuffer());
  }

  /** A .pptx made elsewhere as a PDF, or a zip of one PNG per slide (POST /v1.0/render). */
  async render(deck: FileSource, options: RenderOptions = {}): Promise<Uint8Array> {
    const blob = await toBlob(deck, this.fetchImpl);
    const response = await this.call('/v1.0/render', {
      method: 'POST',
      body: () => {
        const form = new FormData();
        form.append('format', options.format ?? 'pdf');
        if (options.width !== undefined) form.append('preview_width', String(options.width));
        form.append('files', blob, 'deck.pptx');
        return form;
      },
    });
    return new Uint8Array(await response.arrayBuffer());
  }

  private async generateResponse(
    template: FileSource | null,
    payload: JsonData,
    files?: NamedFiles,
    fields: Record<string, string> = {},
  ): Promise<Response> {
    const form = await this.generationForm(template, payload, files, fields);
    return this.call('/v1.0/generator/create', {
      method: 'POST',
      body: () => form(),
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
  }

  /** Queues the deck; resolves to the job id. Problems with the template or content show as a FAILED job. */
  async submit(
    template: FileSource | null,
    payload: JsonData,
    files?: NamedFiles,
    options: SubmitOptions = {},
  ): Promise<string> {
    const fields: Record<string, string> = {};
    if (options.callbackUrl !== undefined) fields.callback_url = options.callbackUrl;
    if (options.format !== undefined) fields.format = options.format;
    if (options.previews || options.previewWidth !== undefined) fields.previews = 'png';
    if (options.previewWidth !== undefined) fields.preview_width = String(options.previewWidth);
    const form = await this.generationForm(template, payload, files, fields);
    const response = await this.call('/v2.0/generator/create-async', {
      method: 'POST',
      body: () => form(),
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    const body = (await response.json()) as { job_id: string };
    return body.job_id;
  }

  async jobStatus(jobId: string): Promise<JobStatus> {
    const response = await this.call(`/v2.0/jobs/${encodeURIComponent(jobId)}/status`, { method: 'GET' });
    return (await response.json()) as JobStatus;
  }

  /** Polls with a growing pause until the job is SUCCEEDED or FAILED, and resolves to that status. */
  async waitForJob(jobId: string, options: WaitOptions = {}): Promise<JobStatus> {
    const { timeoutMs = 600_000, signal, onStatus, initialIntervalMs = 500, maxIntervalMs = 5_000 } = options;
    const deadline = Date.now() + timeoutMs;
    let interval = initialIntervalMs;
    for (;;) {
      signal?.throwIfAborted();
      const status = await this.jobStatus(jobId);
      onStatus?.(status);
      if (status.status === 'SUCCEEDED' || status.status === 'FAILED') return status;
      const left = deadline - Date.now();
      if (left <= 0) throw new DeckforgeTimeoutError(jobId, status.status);
      await sleep(Math.min(interval, left), signal);
      interval = Math.min(maxIntervalMs, interval * 1.5);
    }
  }

  /**
   * The deck of a succeeded job, from its job id or a status waitForJob returned. The pre-signed link carries
   * its own authorization, so it is fetched without the token; an expired link is replaced once.
   */
  async download(job: string | JobStatus): Promise<Uint8Array> {
    const jobId = typeof job === 'string' ? job : null;
    let status = typeof job === 'string' ? await this.jobStatus(job) : job;
    for (let attempt = 0; ; attempt += 1) {
      if (status.status !== 'SUCCEEDED' || !status.file_url) {
        throw new DeckforgeJobError(jobId, status.status, status.error_message);
      }
      const response = await this.send(status.file_url, { method: 'GET' });
      if (response.ok) return new Uint8Array(await response.arrayBuffer());
      if (response.status !== 403 || jobId === null || attempt > 0) throw await errorFromResponse(response);
      status = await this.jobStatus(jobId); // the 15-minute link ran out: a fresh one
    }
  }

  /** A file behind a pre-signed link of a job status (`file_url`, `pdf_url`, an entry of `preview_urls`). */
  async downloadLink(url: string): Promise<Uint8Array> {
    const response = await this.send(url, { method: 'GET' });
    if (!response.ok) throw await errorFromResponse(response);
    return new Uint8Array(await response.arrayBuffer());
  }

  /** The account's plan and slide usage (the interface's usage `result`). */
  async usage(): Promise<NonNullable<UsageResponse['result']>> {
    const response = await this.call('/v1.0/usage', {
      method: 'GET',
      headers: { accept: 'application/json' },
    });
    return ((await response.json()) as UsageResponse).result ?? {};
  }

  /** What `deckforge inspect --json` prints for the template: its slides, layouts, shape names and boxes. */
  async inspect(template: FileSource): Promise<InspectResult> {
    const blob = await toBlob(template, this.fetchImpl);
    const response = await this.call('/v1.0/template/inspect', {
      method: 'POST',
      body: () => {
        const form = new FormData();
        form.append('files', blob, 'template.pptx');
        return form;
      },
    });
    return (await response.json()) as InspectResult;
  }

  /**
   * Stores a template for the account under `name` (a new name is version 1, a stored one gets the next
   * version; the same bytes as its latest version store nothing). Generate with it by passing `null` as the
   * template and its name, or a version's `id`, as presentation.template.
   */
  async uploadTemplate(template: FileSource, name: string): Promise<StoredTemplate> {
    return storedTemplates.uploadTemplate(this.authenticatedCall, this.fetchImpl, template, name);
  }

  /** The account's stored templates: the latest version of each name. */
  async listTemplates(): Promise<StoredTemplate[]> {
    return storedTemplates.listTemplates(this.authenticatedCall);
  }

  /** A stored template version with every version of its name and its inspection. */
  async getTemplate(id: string): Promise<StoredTemplateDetail> {
    return storedTemplates.getTemplate(this.authenticatedCall, id);
  }

  /** The bytes of a stored template version. */
  async downloadTemplate(id: string): Promise<Uint8Array> {
    return storedTemplates.downloadTemplate(this.authenticatedCall, id);
  }

  /** Deletes the stored template's name with all its versions; returns how many versions went. */
  async deleteTemplate(id: string): Promise<number> {
    return storedTemplates.deleteTemplate(this.authenticatedCall, id);
  }

  private readonly authenticatedCall: storedTemplates.AuthenticatedCall = (path, options) =>
    this.call(path, options);

  /** The multipart body of both generation endpoints; the template is uploaded under the payload's name. */
  private async generationForm(
    template: FileSource | null,
    payload: JsonData,
    files: NamedFiles = {},
    fields: Record<string, string> = {},
  ): Promise<() => FormData> {
    const uploads: [string, Blob][] = [];
    if (template !== null) {
      const name = presentationOf(payload).template;
      if (typeof name !== 'string' || name === '' || URL_TEMPLATE.test(name)) {
        throw new TypeError(
          'presentation.template must name the uploaded template (e.g. "template.pptx") when template bytes ' +
            'are given; pass null as the template when presentation.template is a URL or a stored template',
        );
      }
      uploads.push([name, await toBlob(template, this.fetchImpl)]);
    }
    for (const [name, source] of Object.entries(files)) {
      uploads.push([name, await toBlob(source, this.fetchImpl)]);
    }
    const jsonData = JSON.stringify(payload);
    return () => {
      const form = new FormData();
      form.append('jsonData', jsonData);
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      for (const [name, blob] of uploads) form.append('files', blob, name);
      return form;
    };
  }

  /**
   * One API call: a 401 with credentials at hand renews the token and tries once more; so does a connection
   * that broke before the answer (an old server may close the socket on a refused upload), with the same body
   * and Idempotency-Key. Any other non-2xx answer is a DeckforgeError.
   */
  private async call(path: string, options: CallOptions): Promise<Response> {
    const authenticated = options.authenticated ?? true;
    let retried = false;
    for (;;) {
      const token = authenticated ? await this.currentToken() : null;
      const headers = { ...options.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) };
      let response: Response;
      try {
        response = await this.send(`${this.baseUrl}${path}`, {
          method: options.method,
          headers,
          ...(options.body ? { body: options.body() } : {}),
        });
      } catch (error) {
        if (retried || !(error instanceof DeckforgeNetworkError)) throw error;
        retried = true;
        if (token !== null && this.credentials) await this.renewToken(token);
        continue;
      }
      if (response.ok) return response;
      if (response.status === 401 && token !== null && this.credentials && !retried) {
        await response.body?.cancel();
        retried = true;
        await this.renewToken(token);
        continue;
      }
      throw await errorFromResponse(response);
    }
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await this.fetchImpl(url, init);
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new DeckforgeNetworkError(`no answer from ${url}: ${(error as Error).message}`, { cause: error });
    }
  }

  private async currentToken(): Promise<string> {
    if (this.token !== null) return this.token;
    if (!this.credentials) throw new TypeError('DeckforgeClient needs a token or email, password and key');
    return this.renewToken(null);
  }

  /** A new token, unless another call already replaced `stale` meanwhile. */
  private renewToken(stale: string | null): Promise<string> {
    if (this.token !== null && this.token !== stale) return Promise.resolve(this.token);
    this.renewal ??= this.createToken().finally(() => (this.renewal = null));
    return this.renewal;
  }

  private async createToken(): Promise<string> {
    const credentials = this.credentials;
    if (!credentials) throw new TypeError('DeckforgeClient needs email, password and key to renew its token');
    const body = new URLSearchParams({
      username: credentials.email,
      password: credentials.password,
      key: credentials.key,
    });
    const response = await this.send(`${this.baseUrl}/v1.0/token/create`, { method: 'POST', body });
    if (!response.ok) throw await errorFromResponse(response);
    const token = ((await response.json()) as TokenResponse).Result?.Access_Token;
    if (!token)
      throw new DeckforgeError(response.status, 'the token answer carries no Access_Token', [], null);
    this.token = token;
    return token;
  }
}
