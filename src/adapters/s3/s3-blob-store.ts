/**
 * Blobs in an S3 bucket (AWS or any S3-compatible server), for several nodes that share job inputs and
 * results. Download links are real presigned GET URLs made by the AWS SDK's presigner: the client fetches the
 * object from S3 directly, without our token or any Authorization header, and the file is named through
 * `ResponseContentDisposition`. Our own signed-link route is not used with this store, which the port expresses
 * by `verifySignedPath` answering null for everything (the route then answers 404).
 *
 * Credentials come from the SDK's own provider chain (environment, shared files, instance roles); nothing here
 * reads them. Every request has a connection and a request timeout so an outage surfaces as an error, not a hang.
 */
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { PassThrough, type Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  StoreUnavailableError,
  type BlobReader,
  type BlobStore,
  type SignedLinkRequest,
  type VerifiedLink,
} from '../../service/ports/index.js';

const KEY_PATTERN = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;
/** How long a presigned link lives (15 minutes, as the local-disk links). */
const LINK_SECONDS = 15 * 60;
/** S3 deletes at most 1000 keys per DeleteObjects call, and lists 1000 per page. */
const PAGE = 1000;

export interface S3BlobStoreOptions {
  bucket: string;
  /** Region; S3-compatible servers usually accept any (default us-east-1). */
  region?: string;
  /** Endpoint of an S3-compatible server (MinIO, s3rver, …); null = AWS. */
  endpoint?: string | null;
  /** Path-style URLs (`endpoint/bucket/key`), which most S3-compatible servers need. */
  forcePathStyle?: boolean;
  /** Static credentials (tests); otherwise the SDK's default provider chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Per-request timeout, default 30 s (a single upload part, a listing page). */
  requestTimeoutMs?: number;
  /** Keys listed (and deleted) per call when deleting a prefix, at most 1000 (S3's limit), default 1000. */
  pageSize?: number;
  /** Extra key prefix inside the bucket (several deployments or test runs sharing one bucket). */
  keyPrefix?: string;
}

export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly pageSize: number;

  constructor(options: S3BlobStoreOptions) {
    this.bucket = options.bucket;
    this.prefix = options.keyPrefix ? `${options.keyPrefix.replace(/\/+$/, '')}/` : '';
    this.pageSize = Math.min(PAGE, Math.max(1, options.pageSize ?? PAGE));
    this.client = new S3Client({
      region: options.region ?? 'us-east-1',
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      requestHandler: {
        connectionTimeout: 5_000,
        requestTimeout: options.requestTimeoutMs ?? 30_000,
      },
      maxAttempts: 3,
      // Checksums only where S3 requires them: a streamed upload then goes up as a plain body with its
      // Content-Length, which every S3-compatible server takes (some store aws-chunked framing verbatim).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    await this.guard(
      this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Body: bytes })),
    );
  }

  /** Streams the file up (its size is known, so one PUT with a Content-Length), then deletes it. */
  async putFile(key: string, file: string): Promise<void> {
    const objectKey = this.objectKey(key);
    const { size } = await stat(file);
    await this.guard(
      this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: objectKey,
          Body: createReadStream(file),
          ContentLength: size,
        }),
      ),
    );
    await rm(file, { force: true });
  }

  async get(key: string): Promise<Uint8Array | null> {
    const objectKey = this.objectKey(key);
    try {
      const out = await this.guard(
        this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: objectKey })),
      );
      if (!out.Body) return new Uint8Array(0);
      return await out.Body.transformToByteArray();
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async open(key: string): Promise<BlobReader | null> {
    const objectKey = this.objectKey(key);
    let size: number;
    try {
      const head = await this.guard(
        this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: objectKey })),
      );
      size = head.ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    const { client, bucket } = this;
    return {
      byteLength: size,
      stream: () => objectStream(client, bucket, objectKey),
    };
  }

  /**
   * Lists the prefix page by page and deletes each page in one call. Pages follow a marker (the last key seen,
   * ListObjects): continuation tokens (ListObjectsV2) are something some S3-compatible servers cannot produce
   * (s3rver enciphers them with DES, which OpenSSL 3 no longer offers).
   */
  async deletePrefix(prefix: string): Promise<void> {
    const listed = `${this.objectKey(prefix.replace(/\/+$/, ''))}/`;
    let after: string | undefined;
    for (;;) {
      const page = await this.guard(
        this.client.send(
          new ListObjectsCommand({
            Bucket: this.bucket,
            Prefix: listed,
            MaxKeys: this.pageSize,
            ...(after ? { Marker: after } : {}),
          }),
        ),
      );
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
      if (keys.length > 0) {
        const out = await this.guard(
          this.client.send(
            new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }),
          ),
        );
        const failed = out.Errors?.[0];
        if (failed) throw new Error(`S3 could not delete "${failed.Key}": ${failed.Code} ${failed.Message}`);
      }
      if (!page.IsTruncated || keys.length === 0) return;
      after = keys[keys.length - 1]?.Key;
    }
  }

  /**
   * A fresh presigned GET URL on every call, valid 15 minutes from now on S3's own clock (the service asks for
   * 15 minutes; a presigned URL counts from its signing time). `baseUrl` is ignored: the link points at S3.
   */
  async signedUrl(request: SignedLinkRequest): Promise<string> {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(request.key),
        ResponseContentDisposition: contentDisposition(request.fileName),
      }),
      { expiresIn: LINK_SECONDS },
    );
  }

  /** Links to this store point at S3, never at our download route. */
  async verifySignedPath(_pathAndQuery: string, _now: Date): Promise<VerifiedLink | null> {
    return null;
  }

  /**
   * Reads a key that is never written: "no such key" proves the bucket is there and these credentials may read
   * it (HeadBucket would need s3:ListBucket rights and is not served faithfully by every S3-compatible server).
   */
  async ping(): Promise<boolean> {
    try {
      await this.guard(
        this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: `${this.prefix}.deckforge-ping` })),
      );
      return true;
    } catch (error) {
      return error instanceof S3ServiceException && error.name === 'NoSuchKey';
    }
  }

  /**
   * One S3 call; a failure to reach S3 (network, timeout, a 5xx after the SDK's retries) becomes
   * StoreUnavailableError, while S3's answers about the request itself (no such key, access denied) pass as they are.
   */
  private async guard<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (error) {
      const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
      if (status !== undefined && status < 500) throw error;
      throw new StoreUnavailableError('S3', error instanceof Error ? error.message : String(error), {
        cause: error,
      });
    }
  }

  close(): void {
    this.client.destroy();
  }

  private objectKey(key: string): string {
    if (!KEY_PATTERN.test(key) || key.split('/').some((part) => part === '.' || part === '..')) {
      throw new Error(`invalid blob key "${key}"`);
    }
    return `${this.prefix}${key}`;
  }
}

/** RFC 6266: an ASCII fallback plus the UTF-8 name, so "Übersicht.pptx" arrives intact. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

function isMissing(error: unknown): boolean {
  if (error instanceof S3ServiceException) {
    return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
  }
  return false;
}

/** A stream that starts the GET when first read and passes its body through. */
function objectStream(client: S3Client, bucket: string, key: string): Readable {
  const out = new PassThrough();
  client
    .send(new GetObjectCommand({ Bucket: bucket, Key: key }))
    .then((response) => {
      const body = response.Body as Readable | undefined;
      if (!body) {
        out.end();
        return;
      }
      body.on('error', (error) => out.destroy(error));
      body.pipe(out);
    })
    .catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
