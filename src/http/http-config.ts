/**
 * The part of the application configuration the HTTP layer reads. The composition root passes the frozen
 * `Config` from `src/config`; it satisfies this interface structurally, so http/ depends on nothing more than
 * it uses (and tests can build one by hand).
 */
export interface HttpConfig {
  /** `PORT`; 0 picks a free port (tests). */
  readonly port: number;
  /** Interface to bind, `0.0.0.0` by default. */
  readonly host: string;
  /** Absolute base URL used in `file_url` links; null: derived from the request's protocol and Host header. */
  readonly publicBaseUrl: string | null;
  /** Host names (`name`, or `name:port`) a `file_url` may be built from when publicBaseUrl is null. */
  readonly trustedHosts: readonly string[];
  /** Which proxies' X-Forwarded-* headers are believed: none, any, a hop count, or their addresses. */
  readonly trustProxy: boolean | number | readonly string[];
  /** Bearer token /metrics asks for; null: /metrics is open. */
  readonly metricsToken: string | null;
  readonly logLevel: string;
  readonly limits: {
    /** Largest single uploaded file, and the largest non-multipart body, in bytes. */
    readonly maxUploadBytes: number;
    /** Most files in one multipart request. */
    readonly maxFilesPerRequest: number;
  };
}
