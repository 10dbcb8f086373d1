/**
 * A shared store (database, queue, object storage) could not be reached or did not answer in time. Adapters throw
 * it instead of their driver's own errors, so the HTTP layer answers 500 (shape C, cause in the server log) and
 * callers can tell an outage from a bug. The store is expected back: the next call tries again.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  constructor(
    /** Which store, e.g. "PostgreSQL". */
    readonly store: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${store} unavailable: ${message}`, options);
  }
}
