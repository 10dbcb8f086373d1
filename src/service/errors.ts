/**
 * The service's typed errors. The HTTP layer's single error mapper turns each into one of the interface's
 * shapes (A for 400, B for 401/404/429, C for 500; the token endpoint has its own). Nothing else builds
 * an error body. Each carries a stable code, which reaches the client beside the body (docs/http-api.md,
 * "Error codes"): what a program acts on, where the message is what a person reads.
 */
export type ServiceErrorCode =
  | 'INVALID_INPUT'
  | 'OVER_SYNC_LIMIT'
  | 'GENERATION_TIME_LIMIT'
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  | 'IDEMPOTENCY_CONFLICT'
  | 'RATE_LIMITED'
  | 'QUOTA_EXCEEDED'
  | 'THROTTLED'
  | 'SERVICE_UNAVAILABLE'
  | 'MISSING_CREDENTIALS'
  | 'INVALID_CREDENTIALS'
  | 'LINK_INVALID'
  | 'CLIENT_GONE'
  | 'FORBIDDEN'
  | 'TEMPLATE_LIMIT';

export abstract class ServiceError extends Error {
  override readonly name: string = 'ServiceError';
  abstract readonly code: ServiceErrorCode;
}

/** 400, shape A: `message: "Invalid input parameters"`, `details` = this message. */
export class InvalidInputError extends ServiceError {
  override readonly name: string = 'InvalidInputError';
  override readonly code: ServiceErrorCode = 'INVALID_INPUT';
}

/**
 * 400, shape A (a FAILED job's reason): the deck took longer to build than the generation time budget allows,
 * and the work was stopped. Like the slide and upload limits, a limit of this server the request went past.
 */
export class GenerationTimeLimitError extends InvalidInputError {
  override readonly name = 'GenerationTimeLimitError';
  override readonly code = 'GENERATION_TIME_LIMIT';
  constructor(budgetMs: number) {
    super(
      `generating the presentation took longer than the ${Math.round(budgetMs / 1000)}-second limit ` +
        '(DECKFORGE_GENERATION_TIMEOUT_SECONDS) and was stopped: ask for fewer slides or use a smaller template',
    );
  }
}

/** 401, shape B. */
export class UnauthorizedError extends ServiceError {
  override readonly name = 'UnauthorizedError';
  override readonly code = 'UNAUTHORIZED';
}

/** 404, shape B: unknown job, another account's job, expired job. */
export class NotFoundError extends ServiceError {
  override readonly name = 'NotFoundError';
  override readonly code = 'NOT_FOUND';
}

/** 409, shape B: an Idempotency-Key already used for another request, or whose answer cannot be sent again. */
export class IdempotencyConflictError extends ServiceError {
  override readonly name = 'IdempotencyConflictError';
  override readonly code = 'IDEMPOTENCY_CONFLICT';
}

/**
 * 429, shape B: the request rate (RATE_LIMITED), the monthly slide allowance (QUOTA_EXCEEDED), or what a
 * client may ask for lately of sign-ins, sessions and mails (THROTTLED).
 */
export class TooManyRequestsError extends ServiceError {
  override readonly name = 'TooManyRequestsError';
  constructor(
    message: string,
    /** Seconds until a retry can succeed, when known (sent as Retry-After). */
    readonly retryAfterSeconds: number | null,
    override readonly code: 'RATE_LIMITED' | 'QUOTA_EXCEEDED' | 'THROTTLED',
  ) {
    super(message);
  }
}

/** 503, shape B: the server is shutting down and takes no new work; the client retries shortly. */
export class ServiceUnavailableError extends ServiceError {
  override readonly name = 'ServiceUnavailableError';
  override readonly code = 'SERVICE_UNAVAILABLE';
}

/** Token endpoint, 400: a required form field is missing. */
export class MissingCredentialsError extends ServiceError {
  override readonly name = 'MissingCredentialsError';
  override readonly code = 'MISSING_CREDENTIALS';
}

/** Token endpoint, 401: the e-mail / password / key combination is wrong. */
export class InvalidCredentialsError extends ServiceError {
  override readonly name = 'InvalidCredentialsError';
  override readonly code = 'INVALID_CREDENTIALS';
}

/** Download link: signature wrong or expired, or sent together with an Authorization header. */
export class ForbiddenDownloadError extends ServiceError {
  override readonly name = 'ForbiddenDownloadError';
  override readonly code = 'LINK_INVALID';
}

/**
 * The client of a synchronous request went away before its deck was made: the work was not done (or was
 * stopped). Nobody reads the answer; the HTTP layer logs it as a refusal (499), not as a server fault.
 */
export class ClientGoneError extends ServiceError {
  override readonly name = 'ClientGoneError';
  override readonly code = 'CLIENT_GONE';
  constructor() {
    super('the client closed the connection before the presentation was generated');
  }
}

/**
 * 403, shape B: the request is understood and the caller known, but this is not allowed: a console request
 * without its CSRF token, a disabled account, an address not yet confirmed, sign-up closed.
 */
export class ForbiddenError extends ServiceError {
  override readonly name = 'ForbiddenError';
  constructor(
    message: string,
    /** TEMPLATE_LIMIT: a stored template past the plan's limits; FORBIDDEN: anything else. */
    override readonly code: 'FORBIDDEN' | 'TEMPLATE_LIMIT' = 'FORBIDDEN',
  ) {
    super(message);
  }
}
