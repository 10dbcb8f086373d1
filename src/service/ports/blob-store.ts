/** Stored bytes (job inputs, results) and the links that let a client download a result without a token. */
import type { Readable } from 'node:stream';

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

/** A stored blob opened for reading, without loading it: a job's result may be hundreds of megabytes. */
export interface BlobReader {
  byteLength: number;
  stream(): Readable;
}

export interface BlobStore {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /**
   * Stores the local file `file` as `key` and takes it over (it is moved or copied, then gone): a generated deck
   * goes from the worker's file to the store without passing through memory.
   */
  putFile(key: string, file: string): Promise<void>;
  /** null when no such blob. */
  get(key: string): Promise<Uint8Array | null>;
  /** The blob as a stream, with its size; null when no such blob. */
  open(key: string): Promise<BlobReader | null>;
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
