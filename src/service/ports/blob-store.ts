/** Stored bytes (job inputs, results) and the links that let a client download a result without a token. */
export interface SignedLinkRequest {
  key: string;
  /** Name the download is saved under (Content-Disposition). */
  fileName: string;
  /** Absolute base URL of this service (no trailing slash); adapters with their own URLs ignore it. */
  baseUrl: string;
  expiresAt: Date;
}

export interface VerifiedLink {
  key: string;
  fileName: string;
}

export interface BlobStore {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** null when no such blob. */
  get(key: string): Promise<Uint8Array | null>;
  /** Deletes every blob whose key starts with `prefix` (a job's folder). */
  deletePrefix(prefix: string): Promise<void>;
  signedUrl(request: SignedLinkRequest): Promise<string>;
  /**
   * Checks a link this store issued (`pathAndQuery` as received), at `now`. Returns null when the signature is
   * wrong or the link expired; stores whose links point elsewhere (S3) always return null.
   */
  verifySignedPath(pathAndQuery: string, now: Date): Promise<VerifiedLink | null>;
  /** Liveness for /healthz. */
  ping(): Promise<boolean>;
}
