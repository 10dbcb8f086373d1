/**
 * The service's typed errors. The HTTP layer's single error mapper turns each into one of the interface's
 * shapes (A for 400, B for 401/404/429, C for 500; the token endpoint has its own). Nothing else builds
 * an error body.
 */
export class ServiceError extends Error {
  override readonly name: string = 'ServiceError';
}

/** 400, shape A: `message: "Invalid input parameters"`, `details` = this message. */
export class InvalidInputError extends ServiceError {
  override readonly name: string = 'InvalidInputError';
}

/**
 * 400, shape A (a FAILED job's reason): the deck took longer to build than the generation time budget allows,
 * and the work was stopped. Like the slide and upload limits, a limit of this server the request went past.
 */
export class GenerationTimeLimitError extends InvalidInputError {
  override readonly name = 'GenerationTimeLimitError';
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
}

/** 404, shape B: unknown job, another account's job, expired job. */
export class NotFoundError extends ServiceError {
  override readonly name = 'NotFoundError';
}

/** 409, shape B: an Idempotency-Key already used for another request, or whose answer cannot be sent again. */
export class IdempotencyConflictError extends ServiceError {
  override readonly name = 'IdempotencyConflictError';
}

/** 429, shape B: monthly slide allowance or request rate exceeded. */
export class TooManyRequestsError extends ServiceError {
  override readonly name = 'TooManyRequestsError';
  constructor(
    message: string,
    /** Seconds until a retry can succeed, when known (sent as Retry-After). */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

/** 503, shape B: the server is shutting down and takes no new work; the client retries shortly. */
export class ServiceUnavailableError extends ServiceError {
  override readonly name = 'ServiceUnavailableError';
}

/** Token endpoint, 400: a required form field is missing. */
export class MissingCredentialsError extends ServiceError {
  override readonly name = 'MissingCredentialsError';
}

/** Token endpoint, 401: the e-mail / password / key combination is wrong. */
export class InvalidCredentialsError extends ServiceError {
  override readonly name = 'InvalidCredentialsError';
}

/** Download link: signature wrong or expired, or sent together with an Authorization header. */
export class ForbiddenDownloadError extends ServiceError {
  override readonly name = 'ForbiddenDownloadError';
}

/**
 * The client of a synchronous request went away before its deck was made: the work was not done (or was
 * stopped). Nobody reads the answer; the HTTP layer logs it as a refusal (499), not as a server fault.
 */
export class ClientGoneError extends ServiceError {
  override readonly name = 'ClientGoneError';
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
}
