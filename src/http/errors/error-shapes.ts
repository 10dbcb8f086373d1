/**
 * The response bodies of docs/http-api.md "Errors" and "Authentication". Only the error mapper
 * builds these.
 */

/** Shape A (400). */
export interface InvalidInputBody {
  statusCode: 400;
  message: 'Invalid input parameters';
  details: string;
}

/**
 * Shape B (401, 403, 404, 429). 403 is our download refusal, 409 an Idempotency-Key conflict, 503 a
 * shutting-down server and 499 (logged, never read) a client that left, which the interface leaves unspecified.
 * 409 takes shape B, not A: like 401 and 429 it is about the request's standing (its key was used), not a fault
 * in its input that shape A's `details` explain.
 */
export interface ClientErrorBody {
  statusCode: 401 | 403 | 404 | 409 | 429 | 499 | 503;
  message: string;
  detail: string;
}

/** Shape C (500). */
export interface ServerErrorBody {
  statusCode: 500;
  title: 'Error';
  detail: string;
}

/** The token endpoint's own error shape (isSuccess false, Result an empty object). */
export interface TokenErrorBody {
  isSuccess: false;
  Message: string;
  Result: Record<string, never>;
}

export type ErrorBody = InvalidInputBody | ClientErrorBody | ServerErrorBody | TokenErrorBody;

/** Which row of the interface's error table applies; set per route as `config.endpoint`. */
export type EndpointKind =
  | 'token'
  | 'generate'
  | 'create-async'
  | 'job-status'
  | 'usage'
  | 'inspect'
  | 'templates'
  | 'render'
  | 'download'
  | 'operations'
  | 'console';
