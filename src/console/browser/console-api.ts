/**
 * The console's calls to /console/api. The session answer carries the CSRF token that every non-GET request sends
 * back in `X-CSRF-Token`; the session cookie itself is HttpOnly and goes along on its own (same origin).
 */

export interface SessionAccount {
  email: string;
  plan: string;
  emailConfirmed: boolean;
}

export interface SessionInfo {
  signedIn: boolean;
  csrfToken: string;
  signup: { open: boolean; reason?: string };
  mailConfigured: boolean;
  account?: SessionAccount;
}

/** An answer outside 2xx, with the interface's error body (shape A, B or C) as the server sent it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(errorText(body) ?? `The server answered ${status}.`);
    this.name = 'ApiError';
  }
}

/** The readable part of an error body: shape A's `details`, shape B's and C's `detail`, else `message`. */
export function errorText(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as Record<string, unknown>;
  for (const key of ['details', 'detail', 'message', 'Message'])
    if (typeof record[key] === 'string' && record[key]) return record[key] as string;
  return null;
}

let session: SessionInfo | null = null;

export async function loadSession(): Promise<SessionInfo> {
  const response = await fetch('/console/api/session', { credentials: 'same-origin' });
  session = (await readBody(response)) as SessionInfo;
  return session;
}

export function currentSession(): SessionInfo | null {
  return session;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a proxy's page): the text itself is the best explanation there is.
  }
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

async function send(method: string, path: string, body?: BodyInit, json = false): Promise<Response> {
  const csrf = session?.csrfToken ?? (await loadSession()).csrfToken;
  const headers: Record<string, string> = { 'x-csrf-token': csrf };
  if (json) headers['content-type'] = 'application/json';
  return fetch(path, { method, body: body ?? null, headers, credentials: 'same-origin' });
}

export async function getJson<T>(path: string): Promise<T> {
  return (await readBody(await fetch(path, { credentials: 'same-origin' }))) as T;
}

/** POST (or PUT, DELETE) with a JSON body; resolves to the parsed answer (null for 204). */
export async function sendJson<T>(method: string, path: string, body?: unknown): Promise<T> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return (await readBody(await send(method, path, payload, body !== undefined))) as T;
}

export async function sendForm<T>(path: string, form: FormData): Promise<T> {
  return (await readBody(await send('POST', path, form))) as T;
}

/** A generation warning as `X-Generation-Warnings-Detail` lists it (docs/http-api.md). */
export interface GenerationWarning {
  path: string;
  message: string;
}

/**
 * A POST whose answer is a file: its bytes, the name from Content-Disposition, how many warnings, the ones
 * `X-Generation-Warnings-Detail` holds (whole warnings up to its size limit, so possibly fewer), and
 * `X-Generation-Unmatched`, the line naming what in the payload matched nothing (null when everything did).
 */
export async function sendFormForFile(
  path: string,
  form: FormData,
): Promise<{
  blob: Blob;
  fileName: string;
  warnings: number;
  warningList: GenerationWarning[];
  unmatched: string | null;
}> {
  const response = await send('POST', path, form);
  if (!response.ok) await readBody(response);
  return {
    blob: await response.blob(),
    fileName: fileNameOf(response.headers.get('content-disposition')) ?? 'deck.pptx',
    warnings: Number(response.headers.get('x-generation-warnings') ?? 0),
    warningList: warningsOf(response.headers.get('x-generation-warnings-detail')),
    unmatched: response.headers.get('x-generation-unmatched'),
  };
}

export function warningsOf(detail: string | null): GenerationWarning[] {
  if (!detail) return [];
  try {
    const list: unknown = JSON.parse(detail);
    if (!Array.isArray(list)) return [];
    return list.flatMap((w: unknown) => {
      const { path, message } = (w ?? {}) as Record<string, unknown>;
      return typeof path === 'string' && typeof message === 'string' ? [{ path, message }] : [];
    });
  } catch {
    // A header that is not JSON lists nothing; the count still shows.
    return [];
  }
}

/** RFC 6266: `filename*=UTF-8''…` wins over `filename="…"`. */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1]);
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
}

/**
 * A multipart POST through XMLHttpRequest, whose `upload.onload` tells when the last byte left: the inspector
 * measures from there to its first drawing (performance marks `inspect-upload-done` and `inspect-first-drawing`).
 */
export function sendFormTimed<T>(path: string, form: FormData, uploadDone: () => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const run = (csrf: string): void => {
      const request = new XMLHttpRequest();
      request.open('POST', path);
      request.setRequestHeader('x-csrf-token', csrf);
      request.upload.onload = uploadDone;
      request.onerror = () => reject(new Error('The request did not reach the server.'));
      request.onload = () => {
        const response = new Response(request.responseText, { status: request.status });
        readBody(response).then((body) => resolve(body as T), reject);
      };
      request.send(form);
    };
    if (session) run(session.csrfToken);
    else loadSession().then((s) => run(s.csrfToken), reject);
  });
}
