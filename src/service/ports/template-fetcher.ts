/** Downloads a template or picture given by URL, refusing addresses the configuration does not allow. */
export interface TemplateFetcher {
  /** Throws FetchError with a message a user can act on. */
  fetch(url: string, limits?: FetchLimits): Promise<Uint8Array>;
  /**
   * As `fetch`, but the body goes into `file` (created or replaced) as it arrives, so a download is never whole
   * in memory; resolves with its size. When the promise rejects, the caller deletes the file.
   */
  fetchToFile(url: string, file: string, limits?: FetchLimits): Promise<number>;
}

/** What one download may take, on top of the fetcher's own caps (the tighter one wins). */
export interface FetchLimits {
  /** Bytes this file may have: refused as soon as more arrive (or the Content-Length says more). */
  maxBytes?: number;
  /** Epoch milliseconds by which the download must be done: the deadline of the request or job it is for. */
  deadline?: number;
  /** Shared by every download of one request or job: what all of them may still receive together. */
  budget?: ByteBudget;
  /** Aborts the download (the client went away). */
  signal?: AbortSignal;
}

export interface ByteBudget {
  /** Bytes all the downloads may still receive. */
  remaining: number;
  /** The whole allowance, for the message. */
  readonly total: number;
}

export class FetchError extends Error {
  override readonly name: string = 'FetchError';
  constructor(
    readonly url: string,
    message: string,
  ) {
    super(message);
  }
}

/** The downloads of one request or job went past their shared byte allowance: the whole request fails. */
export class FetchBudgetError extends FetchError {
  override readonly name = 'FetchBudgetError';
}
