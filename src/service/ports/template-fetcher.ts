/** Downloads a template or picture given by URL, refusing addresses the configuration does not allow. */
export interface TemplateFetcher {
  /** Throws FetchError with a message a user can act on. */
  fetch(url: string): Promise<Uint8Array>;
}

export class FetchError extends Error {
  override readonly name = 'FetchError';
  constructor(
    readonly url: string,
    message: string,
  ) {
    super(message);
  }
}
