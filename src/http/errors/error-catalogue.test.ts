/**
 * The error catalogue and the one mapper agree: an error of each code is answered with that code, in its
 * header, with the catalogue's status, on every endpoint but the token endpoint (which answers in its own shape
 * and, for credentials, its own statuses). A code the mapper can give and the catalogue lacks does not compile.
 */
import { describe, expect, it } from 'vitest';
import { EngineError, type EngineErrorCode } from '../../engine/index.js';
import { OverSyncLimitError } from '../../service/generation/generation-input.js';
import {
  ClientGoneError,
  ForbiddenDownloadError,
  ForbiddenError,
  GenerationTimeLimitError,
  IdempotencyConflictError,
  InvalidCredentialsError,
  InvalidInputError,
  MissingCredentialsError,
  NotFoundError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
} from '../../service/errors.js';
import { ERROR_CATALOGUE, ERROR_CODE_HEADER, type ErrorCode } from './error-catalogue.js';
import { mapError, mapUnroutedError } from './error-mapper.js';

const LIMITS = { maxUploadBytes: 1024, maxFilesPerRequest: 4 };

/** A Fastify request error as Fastify throws it: a code and a 4xx status. */
function fastifyError(code: string): Error {
  return Object.assign(new Error(code), { code, statusCode: 400 });
}

const ENGINE_CODES: EngineErrorCode[] = [
  'INVALID_PAYLOAD',
  'INVALID_TEMPLATE',
  'UNSUPPORTED_TEMPLATE',
  'LIMIT_EXCEEDED',
  'TOO_MANY_SLIDES',
  'UNSAFE_XML',
  'MISSING_FILE',
  'SLIDE_NOT_FOUND',
  'SHAPE_NOT_FOUND',
  'TAG_NOT_USED',
  'INVALID_IMAGE',
  'INVALID_FONT',
  'CONTENT_MISMATCH',
  'INACCESSIBLE_OUTPUT',
];

/** One error of each code, as the service, the engine or Fastify throws it. */
const EXAMPLES: [ErrorCode, unknown][] = [
  ['DECKFORGE_INVALID_INPUT', new InvalidInputError('x')],
  ['DECKFORGE_OVER_SYNC_LIMIT', new OverSyncLimitError('x')],
  ['DECKFORGE_GENERATION_TIME_LIMIT', new GenerationTimeLimitError(60_000)],
  ['DECKFORGE_UNAUTHORIZED', new UnauthorizedError('x')],
  ['DECKFORGE_NOT_FOUND', new NotFoundError('x')],
  ['DECKFORGE_IDEMPOTENCY_CONFLICT', new IdempotencyConflictError('x')],
  ['DECKFORGE_RATE_LIMITED', new TooManyRequestsError('x', 30, 'RATE_LIMITED')],
  ['DECKFORGE_QUOTA_EXCEEDED', new TooManyRequestsError('x', 86_400, 'QUOTA_EXCEEDED')],
  ['DECKFORGE_THROTTLED', new TooManyRequestsError('x', 1, 'THROTTLED')],
  ['DECKFORGE_SERVICE_UNAVAILABLE', new ServiceUnavailableError('x')],
  ['DECKFORGE_MISSING_CREDENTIALS', new MissingCredentialsError('x')],
  ['DECKFORGE_LINK_INVALID', new ForbiddenDownloadError('x')],
  ['DECKFORGE_CLIENT_GONE', new ClientGoneError()],
  ['DECKFORGE_FORBIDDEN', new ForbiddenError('x')],
  ['DECKFORGE_TEMPLATE_LIMIT', new ForbiddenError('x', 'TEMPLATE_LIMIT')],
  ['DECKFORGE_BODY_TOO_LARGE', fastifyError('FST_REQ_FILE_TOO_LARGE')],
  ['DECKFORGE_TOO_MANY_FILES', fastifyError('FST_FILES_LIMIT')],
  ['DECKFORGE_TOO_MANY_FIELDS', fastifyError('FST_FIELDS_LIMIT')],
  ['DECKFORGE_UNSUPPORTED_MEDIA_TYPE', fastifyError('FST_ERR_CTP_INVALID_MEDIA_TYPE')],
  ['DECKFORGE_INTERNAL', new Error('a bug')],
  ...ENGINE_CODES.map((code): [ErrorCode, unknown] => [`DECKFORGE_${code}`, new EngineError(code, 'x')]),
];

describe('the error catalogue', () => {
  it('has an example here for every code but the two only the token endpoint and the parser give', () => {
    const covered = new Set<string>([
      ...EXAMPLES.map(([code]) => code),
      'DECKFORGE_INVALID_CREDENTIALS',
      'DECKFORGE_MALFORMED_REQUEST',
    ]);
    expect([...Object.keys(ERROR_CATALOGUE)].filter((code) => !covered.has(code))).toEqual([]);
    expect(ENGINE_CODES.length).toBeGreaterThan(10);
  });

  it.each(EXAMPLES)(
    '%s: the mapper gives the code, its header and the status the catalogue says',
    (code, error) => {
      const mapped = mapError(error, 'generate', LIMITS);
      expect(mapped.code).toBe(code);
      expect(mapped.headers[ERROR_CODE_HEADER]).toBe(code);
      expect(mapped.statusCode).toBe(ERROR_CATALOGUE[code].status);
      const shape = 'details' in mapped.body ? 'A' : 'title' in mapped.body ? 'C' : 'B';
      expect(shape).toBe(ERROR_CATALOGUE[code].shape);
    },
  );

  it('the token endpoint answers in its own shape with the same codes', () => {
    const wrong = mapError(new InvalidCredentialsError('x'), 'token', LIMITS);
    expect([wrong.statusCode, wrong.code]).toEqual([401, 'DECKFORGE_INVALID_CREDENTIALS']);
    expect(wrong.body).toMatchObject({ isSuccess: false });
    const missing = mapError(new MissingCredentialsError('x'), 'token', LIMITS);
    expect([missing.statusCode, missing.code]).toEqual([400, 'DECKFORGE_MISSING_CREDENTIALS']);
    const fault = mapError(new Error('a bug'), 'token', LIMITS);
    expect([fault.statusCode, fault.code, fault.headers[ERROR_CODE_HEADER]]).toEqual([
      500,
      'DECKFORGE_INTERNAL',
      'DECKFORGE_INTERNAL',
    ]);
  });

  it('a request refused before routing is DECKFORGE_MALFORMED_REQUEST (or not found, for an over-long id)', () => {
    const malformed = mapUnroutedError({ code: 'HPE_INVALID_METHOD', message: 'x' }, 16_384);
    expect([malformed.statusCode, malformed.headers[ERROR_CODE_HEADER]]).toEqual([
      400,
      'DECKFORGE_MALFORMED_REQUEST',
    ]);
    const long = mapUnroutedError({ code: 'FST_ERR_MAX_PARAM_LENGTH', message: 'x' }, 16_384);
    expect([long.statusCode, long.code]).toEqual([404, 'DECKFORGE_NOT_FOUND']);
  });
});
