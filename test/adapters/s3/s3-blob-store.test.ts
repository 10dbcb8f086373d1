import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../../../src/adapters/s3/s3-blob-store.js';
import { StoreUnavailableError } from '../../../src/service/ports/index.js';
import { startLocalS3, type LocalS3 } from '../../support/servers/s3-server.js';
import { describeBlobStorageContract } from '../contracts/blob-store-contract.js';

let s3: LocalS3;
let run = 0;
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(async () => {
  await s3?.stop();
});

/** Each test its own key prefix in the one bucket, so the tests never see each other's objects. */
function store(prefix = `run-${++run}`, pageSize?: number): S3BlobStore {
  return new S3BlobStore({
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    region: 'eu-west-1',
    forcePathStyle: true,
    credentials: s3.credentials,
    keyPrefix: prefix,
    ...(pageSize ? { pageSize } : {}),
  });
}

describeBlobStorageContract('S3 (s3rver)', async () => {
  const blobs = store();
  return { blobs, tornReadsWhilePutting: true, close: async () => blobs.close() };
});

describe('S3 blob store', () => {
  const request = (fileName: string) => ({
    key: 'jobs/j1/result.pptx',
    fileName,
    baseUrl: 'http://127.0.0.1:8080',
    expiresAt: new Date(Date.now() + 15 * 60_000),
  });

  it('issues a presigned GET URL valid 15 minutes, naming the file, that downloads without a token', async () => {
    const blobs = store();
    try {
      const bytes = new Uint8Array(70_000).map((_, i) => (i * 7) % 256);
      await blobs.put('jobs/j1/result.pptx', bytes);
      const signedAt = Date.now();
      const url = new URL(await blobs.signedUrl(request('Q3 report.pptx')));
      // Points at S3, not at our own download route.
      expect(url.origin).toBe(s3.endpoint);
      expect(url.pathname).toBe(`/${s3.bucket}/run-${run}/jobs/j1/result.pptx`);
      const query = url.searchParams;
      expect(query.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
      expect(query.get('X-Amz-Expires')).toBe('900');
      expect(query.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
      expect(query.get('X-Amz-Credential')).toMatch(/^S3RVER\/\d{8}\/eu-west-1\/s3\/aws4_request$/);
      expect(query.get('X-Amz-SignedHeaders')).toBe('host');
      expect(query.get('response-content-disposition')).toBe(
        `attachment; filename="Q3 report.pptx"; filename*=UTF-8''Q3%20report.pptx`,
      );
      // Signed now (a fresh link), so it is good for 15 minutes from now.
      const date = query.get('X-Amz-Date') ?? '';
      const signed = Date.parse(
        `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`,
      );
      expect(Math.abs(signed - signedAt)).toBeLessThan(5_000);

      // A plain GET: no Authorization header, no token.
      const response = await fetch(url, { headers: {} });
      expect(response.status).toBe(200);
      expect(Buffer.compare(Buffer.from(await response.arrayBuffer()), bytes)).toBe(0);
      expect(response.headers.get('content-disposition')).toContain('filename="Q3 report.pptx"');

      // Our own download route never accepts it: S3 links are checked by S3.
      expect(await blobs.verifySignedPath(`${url.pathname}${url.search}`, new Date())).toBeNull();
    } finally {
      blobs.close();
    }
  });

  it('names a file with non-ASCII characters through RFC 6266 filename*', async () => {
    const blobs = store();
    try {
      const url = new URL(await blobs.signedUrl(request('Übersicht 2026 – café.pptx')));
      const disposition = url.searchParams.get('response-content-disposition') ?? '';
      expect(disposition).toContain('filename="_bersicht 2026 _ caf_.pptx"');
      const star = /filename\*=UTF-8''(.+)$/.exec(disposition)?.[1] ?? '';
      expect(decodeURIComponent(star)).toBe('Übersicht 2026 – café.pptx');
    } finally {
      blobs.close();
    }
  });

  it('deletes a prefix listed over several pages, and nothing beside it', async () => {
    const blobs = store(undefined, 2); // two keys per listing page: five keys take three pages
    try {
      const keys = Array.from({ length: 5 }, (_, i) => `jobs/big/part-${i}.bin`);
      for (const key of keys) await blobs.put(key, new Uint8Array([1]));
      await blobs.put('jobs/big2/keep.bin', new Uint8Array([2]));
      await blobs.deletePrefix('jobs/big/');
      for (const key of keys) expect(await blobs.get(key)).toBeNull();
      expect([...((await blobs.get('jobs/big2/keep.bin')) ?? [])]).toEqual([2]);
    } finally {
      blobs.close();
    }
  });

  it('reports the bucket unreachable when the server is gone, within its timeout', async () => {
    const blobs = new S3BlobStore({
      bucket: 'deckforge-test',
      endpoint: 'http://127.0.0.1:9', // discard port: nothing listens
      forcePathStyle: true,
      credentials: s3.credentials,
      requestTimeoutMs: 2_000,
    });
    try {
      const started = Date.now();
      expect(await blobs.ping()).toBe(false);
      await expect(blobs.get('jobs/x/input.bin')).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      blobs.close();
    }
  });
});
