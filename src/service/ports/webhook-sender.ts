/**
 * POSTs webhook events. The same guard as template URLs: http(s) only, no credentials in the URL, and unless
 * private URLs are allowed, only public addresses, checked on the address actually connected to. Redirects are
 * not followed (a 3xx is an answer that is not 2xx), so none can lead into a private network.
 */
export interface WebhookSender {
  /** Resolves the URL's host now and throws FetchError when it is refused (checked at submission). */
  check(url: string): Promise<void>;
  /**
   * The receiver's status. `timeoutMs` bounds the whole exchange (connecting, the answer's headers and body):
   * FetchError when no status came within it; the status when it came but the body had not ended by then.
   */
  post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<number>;
}
