/**
 * A local S3 server for tests: s3rver (npm) on a free port, in a child process of its own (so nothing loaded by
 * the test process shares its event loop or its globals), with its files in a temp dir. It serves the S3 API well
 * enough for the wiring but does not check signatures; presigned URLs are checked from the presigner's own output
 * instead (test/adapters/s3/s3-blob-store.test.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** s3rver accepts any key pair; these are what the SDK signs with. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  stop(): Promise<void>;
}

const SERVER = `
const S3rver = require(process.argv[1]);
const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: process.argv[2],
  configureBuckets: [{ name: process.argv[3] }] });
server.run().then(({ port }) => console.log(String(port)));
process.on('disconnect', () => process.exit(0));
`;

/** `env`: the server's environment (default: this process's). */
export async function startLocalS3(bucket = 'deckforge-test', env = process.env): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), 'deckforge-s3-'));
  const entry = createRequire(import.meta.url).resolve('s3rver');
  const child = spawn(process.execPath, ['-e', SERVER, entry, directory, bucket], {
    env,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(Number(line)));
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
