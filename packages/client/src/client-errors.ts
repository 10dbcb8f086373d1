/**
 * What the client throws. A refusal by the server is a DeckforgeError carrying the HTTP status and the body in
 * the interface's error shapes; a 400's `details` is split into its problems, each with the JSON path it names.
 */
import type { ClientError, InvalidInputError, ServerError, TokenError } from './generated/api-types.js';

/** One problem of a 400 answer: the JSON path it is about (when it names one) and what is wrong there. */
export interface Problem {
  path: string | null;
  message: string;
}

export type ErrorBody = InvalidInputError | ClientError | ServerError | TokenError;

export class DeckforgeError extends Error {
  override readonly name: string = 'DeckforgeError';
  constructor(
    readonly status: number,
    /** The answer's JSON body (shape A, B or C, or the token endpoint's), or its text when it was not JSON. */
    readonly body: ErrorBody | string,
    /** For a 400, each problem the server listed; empty otherwise. */
    readonly problems: Problem[],
    /** Seconds from the Retry-After header of a 429 or 503, when it was sent. */
    readonly retryAfterSeconds: number | null,
    /**
     * The error's stable code from the X-Deckforge-Error-Code header (`DECKFORGE_QUOTA_EXCEEDED`, …; the server's
     * docs/http-api.md, "Error codes"), or null when the answer came from something else (a proxy).
     */
    readonly code: string | null = null,
  ) {
    super(`Deckforge answered ${status}: ${describe(body)}`);
  }
}

/** The server could not be reached, or the connection broke before an answer came. */
export class DeckforgeNetworkError extends Error {
  override readonly name: string = 'DeckforgeNetworkError';
}

/** waitForJob ran past its timeoutMs while the job was still QUEUED or PROCESSING. */
export class DeckforgeTimeoutError extends Error {
  override readonly name: string = 'DeckforgeTimeoutError';
  constructor(
    readonly jobId: string,
    readonly lastStatus: string,
  ) {
    super(`job ${jobId} was still ${lastStatus} when waiting for it timed out`);
  }
}

/** download() of a job that did not succeed. */
export class DeckforgeJobError extends Error {
  override readonly name: string = 'DeckforgeJobError';
  constructor(
    readonly jobId: string | null,
    readonly status: string,
    readonly errorMessage: string | null,
  ) {
    super(
      `the job ${status === 'FAILED' ? 'failed' : `is ${status}`}${errorMessage ? `: ${errorMessage}` : ''}`,
    );
  }
}

function describe(body: ErrorBody | string): string {
  if (typeof body === 'string') return body.slice(0, 500) || '(no body)';
  if ('details' in body && body.details) return body.details;
  if ('detail' in body && body.detail) return body.detail;
  if ('Message' in body && body.Message) return body.Message;
  return JSON.stringify(body);
}

// A path as the engine writes it: `presentation.slides[0].shapes[2].content`, `jsonData`, `files`.
const PATH = String.raw`[A-Za-z_][\w.[\]-]*`;

/**
 * The problems of a 400's `details`: "path: message" for one, "N problems: (1) path: message; (2) …" for
 * several (the engine's format, engine/payload/parse-context.ts).
 */
export function problemsOf(details: string): Problem[] {
  const several = /^\d+ problems[^:]*: (?=\(1\) )/.exec(details);
  const items = several
    ? details
        .slice(several[0].length)
        .split(/; (?=\(\d+\) )/)
        .map((item) => item.replace(/^\(\d+\) /, ''))
    : [details];
  return items.map((item) => {
    const named = new RegExp(`^(${PATH}): (.*)$`, 's').exec(item);
    return named ? { path: named[1] ?? null, message: named[2] ?? '' } : { path: null, message: item };
  });
}

export async function errorFromResponse(response: Response): Promise<DeckforgeError> {
  const text = await response.text().catch(() => '');
  let body: ErrorBody | string = text;
  try {
    body = JSON.parse(text) as ErrorBody;
  } catch {
    // not JSON (a proxy's page, say): the text is the body
  }
  const details = typeof body === 'object' && body !== null && 'details' in body ? body.details : undefined;
  const problems = response.status === 400 && typeof details === 'string' ? problemsOf(details) : [];
  const retryAfter = Number(response.headers.get('retry-after') ?? NaN);
  return new DeckforgeError(
    response.status,
    body,
    problems,
    Number.isFinite(retryAfter) ? retryAfter : null,
    response.headers.get('x-deckforge-error-code'),
  );
}
