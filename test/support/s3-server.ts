/**
 * A local S3 server for tests: s3rver (npm) on a free port, with its files in a temp dir. It serves the S3 API
 * well enough for the wiring but does not check signatures; presigned URLs are checked from the presigner's
 * own output instead (test/adapters/s3-blob-store.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}

type S3rverConstructor = new (options: {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** s3rver accepts any key pair; these are what the SDK signs with. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  stop(): Promise<void>;
}

export async function startLocalS3(bucket = 'deckforge-test'): Promise<LocalS3> {
  // s3rver ships no types: its constructor is described above, and loaded through require (CommonJS).
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;
  const directory = mkdtempSync(join(tmpdir(), 'deckforge-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
