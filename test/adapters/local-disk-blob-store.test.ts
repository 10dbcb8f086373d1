import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalDiskBlobStore } from '../../src/adapters/local-disk/local-disk-blob-store.js';
import { describeBlobStoreContract } from './contracts/blob-store-contract.js';
import { tempDir } from '../support/servers/temp-dir.js';

describeBlobStoreContract('local disk, secret generated in the data dir', async () => {
  const dir = tempDir();
  return {
    blobs: new LocalDiskBlobStore(dir.path, null),
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
    reopen: () => new LocalDiskBlobStore(dir.path, secret),
    withOtherSecret: () => new LocalDiskBlobStore(dir.path, null),
    close: async () => dir.remove(),
  };
});

describe('local disk blob store', () => {
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
