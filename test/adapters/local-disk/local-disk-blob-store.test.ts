import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalDiskBlobStore } from '../../../src/adapters/local-disk/local-disk-blob-store.js';
import { describeBlobStoreContract } from '../contracts/blob-store-contract.js';
import { tempDir } from '../../support/servers/temp-dir.js';

/** Every file under `<dataDir>/blobs`, relative to it, with `/` between folders. */
function filesUnder(dataDir: string): () => string[] {
  return () =>
    readdirSync(join(dataDir, 'blobs'), { recursive: true, withFileTypes: true })
      .filter((entry) => !entry.isDirectory())
      .map((entry) =>
        relative(join(dataDir, 'blobs'), join(entry.parentPath, entry.name)).split(sep).join('/'),
      );
}

describeBlobStoreContract('local disk, secret generated in the data dir', async () => {
  const dir = tempDir();
  return {
    blobs: new LocalDiskBlobStore(dir.path, null),
    files: filesUnder(dir.path),
    reopen: () => new LocalDiskBlobStore(dir.path, null),
    withOtherSecret: () => new LocalDiskBlobStore(dir.path, 'another-secret-of-at-least-32-characters!'),
    close: async () => dir.remove(),
  };
});

describeBlobStoreContract('local disk, secret from configuration', async () => {
  const dir = tempDir();
  const secret = 'configured-secret-of-at-least-32-characters';
  return {
    blobs: new LocalDiskBlobStore(dir.path, secret),
    files: filesUnder(dir.path),
    reopen: () => new LocalDiskBlobStore(dir.path, secret),
    withOtherSecret: () => new LocalDiskBlobStore(dir.path, null),
    close: async () => dir.remove(),
  };
});

describe('local disk blob store', () => {
  it('sweeps at start what a crash left in staging an hour ago or more, and nothing newer', () => {
    const dir = tempDir();
    try {
      const staging = join(dir.path, 'blobs', '~staging');
      mkdirSync(join(staging, 'half-deleted', 'jobs'), { recursive: true });
      writeFileSync(join(staging, 'half-written'), 'x');
      writeFileSync(join(staging, 'being-written'), 'x');
      // Two hours before the file system's now (the time it gave the file just written), which the sweep goes by.
      const twoHoursAgo = new Date(statSync(join(staging, 'being-written')).mtimeMs - 2 * 60 * 60 * 1000);
      for (const name of ['half-deleted', 'half-written'])
        utimesSync(join(staging, name), twoHoursAgo, twoHoursAgo);
      new LocalDiskBlobStore(dir.path, null);
      expect(existsSync(join(staging, 'half-deleted'))).toBe(false);
      expect(readdirSync(staging)).toEqual(['being-written']);
    } finally {
      dir.remove();
    }
  });

  it('keeps its generated secret in the data dir, readable by the owner only', () => {
    const dir = tempDir();
    try {
      new LocalDiskBlobStore(dir.path, null);
      const file = join(dir.path, 'link-secret');
      expect(readFileSync(file, 'utf8').length).toBeGreaterThanOrEqual(32);
      expect(statSync(file).mode & 0o077).toBe(0);
    } finally {
      dir.remove();
    }
  });
});
