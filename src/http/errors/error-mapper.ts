/**
 * The one place that turns errors into response bodies. Shapes and texts follow
 * docs/http-api.md "Errors": A for 400, B for 401/404/429, C for 500 with the endpoint's own detail, and the
 * token endpoint's `{isSuccess, Message, Result}`. Fastify's own request errors (bad JSON, body too large,
 * multipart limits, unsupported media type) are a client's invalid input, so they become shape A; so do the
 * requests refused before any route runs (mapUnroutedError): Fastify's own error bodies never reach a client.
 * Each answer also names its error's code (error-catalogue.ts) in the X-Deckforge-Error-Code header.
 */
import { EngineError } from '../../engine/index.js';
import {
  ClientGoneError,
  ForbiddenDownloadError,
  ForbiddenError,
  IdempotencyConflictError,
  InvalidCredentialsError,
  InvalidInputError,
  MissingCredentialsError,
  NotFoundError,
  ServiceError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
} from '../../service/errors.js';
import { ERROR_CODE_HEADER, type ErrorCode } from './error-catalogue.js';
import type { EndpointKind, ErrorBody } from './error-shapes.js';

export interface MappedError {
  statusCode: number;
  body: ErrorBody;
  code: ErrorCode;
  /** Retry-After and the like, and the code's header. */
  headers: Record<string, string>;
  /** True for 500s: the cause belongs in the server log (the body says "see server logs"). */
  serverFault: boolean;
}

export interface ErrorMapperLimits {
  maxUploadBytes: number;
  maxFilesPerRequest: number;
}

/** "52428800 bytes (50 MB, DECKFORGE_MAX_UPLOAD_MB)": the figure and the setting that changes it. */
export function uploadLimitText(limits: ErrorMapperLimits): string {
  const mb = Number((limits.maxUploadBytes / (1024 * 1024)).toPrecision(3));
  return `${limits.maxUploadBytes} bytes (${mb} MB, DECKFORGE_MAX_UPLOAD_MB)`;
}

const TOO_MANY_REQUESTS = 'Too Many Requests - usage or rate limit exceeded';

/** Shape C `detail` per endpoint (interface § Errors; usage reuses the generation text, as the sample does). */
const SERVER_ERROR_DETAIL: Record<EndpointKind, string> = {
  token: 'Internal Server Error',
  generate: 'An error occurred while generating the presentation. See the server logs for details.',
  'create-async': 'An error occurred while queuing the presentation. See the server logs for details.',
  'job-status': 'An error occurred while retrieving the job status. See the server logs for details.',
  usage: 'An error occurred while generating the presentation. See the server logs for details.',
  inspect: 'An error occurred while inspecting the template. See the server logs for details.',
  templates: 'An error occurred while handling the stored template. See the server logs for details.',
  render: 'An error occurred while rendering the presentation. See the server logs for details.',
  download: 'An error occurred while reading the result file. See the server logs for details.',
  operations: 'Internal Server Error',
  console: 'Internal Server Error',
};

interface FastifyLikeError {
  code: string;
  statusCode: number;
  message: string;
}

function isFastifyClientError(error: unknown): error is FastifyLikeError {
  if (!(error instanceof Error)) return false;
  const { code, statusCode } = error as Partial<FastifyLikeError>;
  return typeof code === 'string' && typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500;
}

/** The catalogue's code of a Fastify or @fastify/multipart request error. */
function requestErrorCode(error: FastifyLikeError): ErrorCode {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return 'DECKFORGE_BODY_TOO_LARGE';
    case 'FST_FILES_LIMIT':
      return 'DECKFORGE_TOO_MANY_FILES';
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return 'DECKFORGE_TOO_MANY_FIELDS';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'DECKFORGE_UNSUPPORTED_MEDIA_TYPE';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      // As a JSON body that does not parse (body-parsers.ts): the payload, told where it breaks.
      return 'DECKFORGE_INVALID_PAYLOAD';
    default:
      return 'DECKFORGE_MALFORMED_REQUEST';
  }
}

/** The code of an error the engine or the service threw; null for any other (a fault: DECKFORGE_INTERNAL). */
function codeOf(error: unknown): ErrorCode | null {
  if (error instanceof EngineError || error instanceof ServiceError) return `DECKFORGE_${error.code}`;
  return null;
}

/** A readable, limit-naming text for Fastify's and @fastify/multipart's request errors. */
function describeRequestError(error: FastifyLikeError, limits: ErrorMapperLimits): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `request body exceeds the upload size limit of ${uploadLimitText(limits)}`;
    case 'FST_REQ_FILE_TOO_LARGE':
      return `an uploaded file exceeds the upload size limit of ${uploadLimitText(limits)}`;
    case 'FST_FILES_LIMIT':
      return `too many files: at most ${limits.maxFilesPerRequest} files per request (DECKFORGE_MAX_FILES_PER_REQUEST)`;
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return 'too many form fields: send `files` and `jsonData` only';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'unsupported Content-Type: send multipart/form-data, application/x-www-form-urlencoded or application/json';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return `request body is not valid JSON: ${error.message}`;
    default:
      return error.message;
  }
}

function coded(code: ErrorCode, headers: Record<string, string> = {}): Record<string, string> {
  return { ...headers, [ERROR_CODE_HEADER]: code };
}

function clientError(
  statusCode: 401 | 403 | 404 | 409 | 429 | 499 | 503,
  message: string,
  detail: string,
  code: ErrorCode,
  headers: Record<string, string> = {},
): MappedError {
  return {
    statusCode,
    body: { statusCode, message, detail },
    code,
    headers: coded(code, headers),
    serverFault: false,
  };
}

function invalidInput(details: string, code: ErrorCode): MappedError {
  return {
    statusCode: 400,
    body: { statusCode: 400, message: 'Invalid input parameters', details },
    code,
    headers: coded(code),
    serverFault: false,
  };
}

function retryAfter(error: TooManyRequestsError): Record<string, string> {
  const seconds = error.retryAfterSeconds;
  return seconds === null ? {} : { 'retry-after': String(Math.max(1, Math.ceil(seconds))) };
}

function mapTokenError(error: unknown, limits: ErrorMapperLimits): MappedError {
  const token = (statusCode: number, Message: string, code: ErrorCode, serverFault = false): MappedError => ({
    statusCode,
    body: { isSuccess: false, Message, Result: {} },
    code,
    headers: coded(code),
    serverFault,
  });
  const code = codeOf(error);
  if (
    error instanceof MissingCredentialsError ||
    error instanceof InvalidInputError ||
    error instanceof EngineError
  )
    return token(400, error.message, code ?? 'DECKFORGE_INVALID_INPUT');
  if (error instanceof InvalidCredentialsError)
    return token(401, 'Invalid e-mail/password combination.', 'DECKFORGE_INVALID_CREDENTIALS');
  // A disabled account, or one whose address is not confirmed yet: the password was right, the account unusable.
  if (error instanceof ForbiddenError) return token(403, error.message, `DECKFORGE_${error.code}`);
  // Sign-in throttling: the interface gives the token endpoint no 429 row, so the shape of the other 429s.
  if (error instanceof TooManyRequestsError)
    return clientError(429, TOO_MANY_REQUESTS, error.message, `DECKFORGE_${error.code}`, retryAfter(error));
  if (isFastifyClientError(error))
    return token(400, describeRequestError(error, limits), requestErrorCode(error));
  return token(500, 'Internal Server Error', 'DECKFORGE_INTERNAL', true);
}

/** What Node's HTTP parser and Fastify's router report on a request no route saw. */
export interface UnroutedError {
  code?: string;
  message: string;
  /** llhttp's explanation of a parse error ("Invalid character in chunk size"). */
  reason?: string;
}

/**
 * A request refused before routing: an over-long path parameter can name no job (404, shape B); anything else
 * (a URL that does not decode, headers past `maxHeaderBytes`, a malformed request line, header or chunked body)
 * is invalid input (400, shape A).
 */
export function mapUnroutedError(error: UnroutedError, maxHeaderBytes: number): MappedError {
  switch (error.code) {
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return clientError(
        404,
        'Not Found',
        'No such resource: a path segment is longer than any id this server issues (job ids have 36 characters).',
        'DECKFORGE_NOT_FOUND',
      );
    case 'FST_ERR_BAD_URL':
      return invalidInput(
        'the request URL is malformed: a percent-escape in its path does not decode to UTF-8',
        'DECKFORGE_MALFORMED_REQUEST',
      );
    case 'HPE_HEADER_OVERFLOW':
      return invalidInput(
        `the request headers are too large: at most ${maxHeaderBytes} bytes are accepted`,
        'DECKFORGE_MALFORMED_REQUEST',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return invalidInput('the request was not received in time', 'DECKFORGE_MALFORMED_REQUEST');
    default:
      return invalidInput(
        `malformed HTTP request: ${error.reason ?? error.message}`,
        'DECKFORGE_MALFORMED_REQUEST',
      );
  }
}

/** Retry-After of a shutting-down server: a restart, or another instance, is usually there within seconds. */
const SHUTDOWN_RETRY_SECONDS = '5';

export function mapError(error: unknown, endpoint: EndpointKind, limits: ErrorMapperLimits): MappedError {
  if (error instanceof ServiceUnavailableError) {
    return clientError(503, 'Service Unavailable', error.message, 'DECKFORGE_SERVICE_UNAVAILABLE', {
      'retry-after': SHUTDOWN_RETRY_SECONDS,
      connection: 'close',
    });
  }
  if (endpoint === 'token') return mapTokenError(error, limits);
  const code = codeOf(error);
  if (code === null) {
    if (isFastifyClientError(error)) {
      if (error.statusCode === 404)
        return clientError(404, 'Not Found', error.message, 'DECKFORGE_NOT_FOUND');
      return invalidInput(describeRequestError(error, limits), requestErrorCode(error));
    }
    return serverFault(endpoint);
  }
  // No one reads this answer (the connection is gone); 499 is what proxies log for a client that left.
  if (error instanceof ClientGoneError) return clientError(499, 'Client Closed Request', error.message, code);
  if (error instanceof EngineError || error instanceof InvalidInputError)
    return invalidInput(error.message, code);
  if (error instanceof MissingCredentialsError) return invalidInput(error.message, code);
  if (error instanceof UnauthorizedError || error instanceof InvalidCredentialsError) {
    return clientError(
      401,
      'Unauthorized',
      error.message || 'Bearer token missing, expired or invalid.',
      code,
    );
  }
  if (error instanceof NotFoundError) return clientError(404, 'Not Found', error.message, code);
  if (error instanceof ForbiddenDownloadError || error instanceof ForbiddenError) {
    return clientError(403, 'Forbidden', error.message, code);
  }
  if (error instanceof IdempotencyConflictError) return clientError(409, 'Conflict', error.message, code);
  if (error instanceof TooManyRequestsError) {
    return clientError(429, TOO_MANY_REQUESTS, error.message, code, retryAfter(error));
  }
  // A ServiceError with a code no branch above answers: a programming error, hence a fault.
  return serverFault(endpoint);
}

/** Shape C with the endpoint's own detail: the cause goes to the server log, not to the client. */
function serverFault(endpoint: EndpointKind): MappedError {
  return {
    statusCode: 500,
    body: { statusCode: 500, title: 'Error', detail: SERVER_ERROR_DETAIL[endpoint] },
    code: 'DECKFORGE_INTERNAL',
    headers: coded('DECKFORGE_INTERNAL'),
    serverFault: true,
  };
}
