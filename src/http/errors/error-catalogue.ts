/**
 * Every error a client can get, by its stable code (docs/http-api.md, "Error codes"): the status it answers with
 * and the interface's body shape it has (A, B or C; the token endpoint answers all of its errors in its own
 * shape). The code travels beside the body, in the `X-Deckforge-Error-Code` header, and in an MCP tool error's
 * structured result, so that a program acts on the code and a person reads the message. The engine's codes
 * (EngineErrorCode) and the service's (ServiceErrorCode) are here with the prefix; the compiler names any code
 * this table lacks. A code, once published, keeps its meaning: a new cause gets a new code.
 */
import type { EngineErrorCode } from '../../engine/index.js';
import type { ServiceErrorCode } from '../../service/errors.js';

/** What only the HTTP layer meets: the request itself, before or beside any use case. */
export type HttpErrorCode =
  | 'BODY_TOO_LARGE'
  | 'TOO_MANY_FILES'
  | 'TOO_MANY_FIELDS'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'MALFORMED_REQUEST'
  | 'INTERNAL';

export type ErrorCode = `DECKFORGE_${EngineErrorCode | ServiceErrorCode | HttpErrorCode}`;

export interface CatalogueEntry {
  status: number;
  shape: 'A' | 'B' | 'C';
  /** What happened, and what the client can do about it. */
  meaning: string;
}

export const ERROR_CODE_HEADER = 'x-deckforge-error-code';

export const ERROR_CATALOGUE: Record<ErrorCode, CatalogueEntry> = {
  DECKFORGE_INVALID_PAYLOAD: {
    status: 400,
    shape: 'A',
    meaning:
      '`jsonData` (or a JSON body) does not parse or does not follow the payload contract; `details` lists every problem with its JSON path',
  },
  DECKFORGE_INVALID_TEMPLATE: {
    status: 400,
    shape: 'A',
    meaning: 'the template is not a usable presentation: corrupt, encrypted, not a zip, or missing its parts',
  },
  DECKFORGE_UNSUPPORTED_TEMPLATE: {
    status: 400,
    shape: 'A',
    meaning: 'a valid package refused on purpose (ISO/IEC 29500 Strict): save it from PowerPoint as a .pptx',
  },
  DECKFORGE_LIMIT_EXCEEDED: {
    status: 400,
    shape: 'A',
    meaning:
      'past a limit of the server: a template with too many parts, too large unpacked or too deeply nested (a zip bomb), a picture past the pixel budget, a deck needing more memory than a generation may use',
  },
  DECKFORGE_TOO_MANY_SLIDES: {
    status: 400,
    shape: 'A',
    meaning:
      'the deck would have more slides than a request may make once all_slides entries expand and tables continue; on the synchronous endpoint, the message names the asynchronous one when it takes more',
  },
  DECKFORGE_UNSAFE_XML: {
    status: 400,
    shape: 'A',
    meaning: 'a part declares a DOCTYPE or entities, which are never read',
  },
  DECKFORGE_MISSING_FILE: {
    status: 400,
    shape: 'A',
    meaning: 'the payload names a file that was not uploaded',
  },
  DECKFORGE_SLIDE_NOT_FOUND: {
    status: 400,
    shape: 'A',
    meaning: '`slide_index` or `slide_id` names no slide of the template',
  },
  DECKFORGE_SHAPE_NOT_FOUND: {
    status: 400,
    shape: 'A',
    meaning: 'strict validation: a shape name the slide does not have (the message gives the closest names)',
  },
  DECKFORGE_TAG_NOT_USED: {
    status: 400,
    shape: 'A',
    meaning: 'strict validation: a tag no slide of the template uses',
  },
  DECKFORGE_INVALID_IMAGE: {
    status: 400,
    shape: 'A',
    meaning:
      'a picture that is no image, is cut short, is past the pixel or byte budget, or could not be fetched',
  },
  DECKFORGE_INVALID_FONT: {
    status: 400,
    shape: 'A',
    meaning:
      'a font to embed that is no font, is cut short, is too large, or whose licence forbids embedding',
  },
  DECKFORGE_CONTENT_MISMATCH: {
    status: 400,
    shape: 'A',
    meaning: 'content of the wrong kind for its shape (a table for a picture, text for a chart)',
  },
  DECKFORGE_INACCESSIBLE_OUTPUT: {
    status: 400,
    shape: 'A',
    meaning: '`accessibility: "require"` and the deck lacks alt text, slide titles or table header rows',
  },
  DECKFORGE_INVALID_INPUT: {
    status: 400,
    shape: 'A',
    meaning: 'anything else wrong in the request: a field, a value, a URL the guard refuses or that failed',
  },
  DECKFORGE_OVER_SYNC_LIMIT: {
    status: 400,
    shape: 'A',
    meaning: 'more slides than the synchronous endpoint makes: send the same request to the asynchronous one',
  },
  DECKFORGE_GENERATION_TIME_LIMIT: {
    status: 400,
    shape: 'A',
    meaning:
      "the deck took longer than the generation time budget and was stopped (also a FAILED job's reason)",
  },
  DECKFORGE_BODY_TOO_LARGE: {
    status: 400,
    shape: 'A',
    meaning: 'the request body or one uploaded file is past the upload limit',
  },
  DECKFORGE_TOO_MANY_FILES: {
    status: 400,
    shape: 'A',
    meaning: 'more files than a request may upload',
  },
  DECKFORGE_TOO_MANY_FIELDS: {
    status: 400,
    shape: 'A',
    meaning: 'form fields other than `files` and `jsonData`, or too many of them',
  },
  DECKFORGE_UNSUPPORTED_MEDIA_TYPE: {
    status: 400,
    shape: 'A',
    meaning: 'a body that is not multipart/form-data, a URL-encoded form or JSON',
  },
  DECKFORGE_MALFORMED_REQUEST: {
    status: 400,
    shape: 'A',
    meaning:
      'HTTP the server cannot read: a URL that does not decode, headers too large, a broken request line',
  },
  DECKFORGE_MISSING_CREDENTIALS: {
    status: 400,
    shape: 'A',
    meaning: 'the token endpoint was not sent `username`, `password` or `key` (in its own shape)',
  },
  DECKFORGE_UNAUTHORIZED: {
    status: 401,
    shape: 'B',
    meaning: 'the bearer token is missing, expired or invalid: ask the token endpoint for a new one',
  },
  DECKFORGE_INVALID_CREDENTIALS: {
    status: 401,
    shape: 'B',
    meaning: 'the token endpoint: the e-mail, password and key do not match an account (in its own shape)',
  },
  DECKFORGE_LINK_INVALID: {
    status: 403,
    shape: 'B',
    meaning:
      "a download link expired, altered or sent with `Authorization`: ask the job's status for a fresh one",
  },
  DECKFORGE_TEMPLATE_LIMIT: {
    status: 403,
    shape: 'B',
    meaning: "a stored template past the plan's count or size: delete one, or upload a new version of a name",
  },
  DECKFORGE_FORBIDDEN: {
    status: 403,
    shape: 'B',
    meaning: 'understood but not allowed: a disabled account, an address not confirmed, sign-up closed',
  },
  DECKFORGE_NOT_FOUND: {
    status: 404,
    shape: 'B',
    meaning: "an unknown or expired job, an unknown or another account's stored template, an unknown route",
  },
  DECKFORGE_IDEMPOTENCY_CONFLICT: {
    status: 409,
    shape: 'B',
    meaning: 'an `Idempotency-Key` already used for another request, or whose answer cannot be sent again',
  },
  DECKFORGE_RATE_LIMITED: {
    status: 429,
    shape: 'B',
    meaning: "past the plan's requests per minute: retry after `Retry-After` seconds",
  },
  DECKFORGE_QUOTA_EXCEEDED: {
    status: 429,
    shape: 'B',
    meaning: "past the plan's monthly slides: `Retry-After` says when the allowance starts again",
  },
  DECKFORGE_THROTTLED: {
    status: 429,
    shape: 'B',
    meaning:
      'too many sign-in attempts, console sessions or mails asked for lately: retry after `Retry-After`',
  },
  DECKFORGE_CLIENT_GONE: {
    status: 499,
    shape: 'B',
    meaning: 'the client closed the connection before its answer (logged; nobody reads this answer)',
  },
  DECKFORGE_INTERNAL: {
    status: 500,
    shape: 'C',
    meaning: "a fault of the server: the cause is in the server log, under the answer's `X-Request-Id`",
  },
  DECKFORGE_SERVICE_UNAVAILABLE: {
    status: 503,
    shape: 'B',
    meaning: 'the server is shutting down and takes no new work: retry after `Retry-After` seconds',
  },
};
