/**
 * BlobStore contract. The storage half (`describeBlobStorageContract`) holds for every store; the signed-link
 * half for stores that serve their own links (local disk). S3 runs the storage half, and its presigned URLs are
 * checked by its own test (s3-blob-store.test.ts), since their verification happens at S3, not here.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../../src/service/ports/index.js';

export interface BlobHarness {
  blobs: BlobStore;
  /** Every file the store keeps on the local disk, relative to its folder (stores that keep files there). */
  files?(): string[];
  /** Another store instance on the same storage with the same secret (another process, a restart). */
  reopen(): BlobStore;
  /** A store on the same storage with a different secret. */
  withOtherSecret(): BlobStore;
  close(): Promise<void>;
}

export interface BlobStorageHarness {
  blobs: BlobStore;
  /** Every file the store keeps on the local disk, relative to its folder (stores that keep files there). */
  files?(): string[];
  /**
   * A read while another put of the key runs may see part of it: s3rver writes an object in place
   * (stores/filesystem.js, putObject), where S3 itself answers the old object or the new one.
   */
  tornReadsWhilePutting?: boolean;
  close(): Promise<void>;
}

/** Storing, reading, streaming and deleting: what every BlobStore does, whatever its links. */
export function describeBlobStorageContract(name: string, make: () => Promise<BlobStorageHarness>): void {
  describe(`BlobStore storage contract: ${name}`, () => {
    let harness: BlobStorageHarness | null = null;
    afterEach(async () => {
      await harness?.close();
      harness = null;
    });
    describeStorageTests(async () => (harness = await make()));
  });
}

function describeStorageTests(open: () => Promise<BlobStorageHarness>): void {
  it('stores, reads back and deletes by prefix', async () => {
    const { blobs } = await open();
    await blobs.put('jobs/j1/input.bin', new Uint8Array([1, 2, 3]));
    await blobs.put('jobs/j1/result.pptx', new Uint8Array([4]));
    await blobs.put('jobs/j2/input.bin', new Uint8Array([5]));
    expect([...((await blobs.get('jobs/j1/input.bin')) ?? [])]).toEqual([1, 2, 3]);
    await blobs.deletePrefix('jobs/j1');
    expect(await blobs.get('jobs/j1/input.bin')).toBeNull();
    expect(await blobs.get('jobs/j1/result.pptx')).toBeNull();
    expect([...((await blobs.get('jobs/j2/input.bin')) ?? [])]).toEqual([5]);
    expect(await blobs.ping()).toBe(true);
  });

  it('takes over a local file (a deck generated into it) and streams a blob back with its size', async () => {
    const { blobs } = await open();
    const scratch = mkdtempSync(join(tmpdir(), 'deckforge-blob-'));
    try {
      const file = join(scratch, 'deck.pptx');
      const bytes = new Uint8Array(300_000).map((_, i) => i % 251);
      writeFileSync(file, bytes);
      await blobs.putFile('jobs/j3/result.pptx', file);
      expect(existsSync(file)).toBe(false);
      const reader = await blobs.open('jobs/j3/result.pptx');
      expect(reader?.byteLength).toBe(bytes.length);
      const chunks: Buffer[] = [];
      for await (const chunk of reader!.stream()) chunks.push(chunk as Buffer);
      expect(Buffer.compare(Buffer.concat(chunks), bytes)).toBe(0);
      expect(await blobs.open('jobs/j3/missing.pptx')).toBeNull();
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('puts and deletions of the same key racing, 400 of each: no error, the key whole or absent, no file left over', async () => {
    const { blobs, files, tornReadsWhilePutting } = await open();
    // The layout of a stored template (template-blobs.ts): a deletion takes the content's folder, or the account's.
    const key = 'templates/acc_race/0123abcd/template.pptx';
    const prefixes = ['templates/acc_race/0123abcd', 'templates/acc_race'];
    const bytes = new Uint8Array(40_000).map((_, i) => (i * 31) % 256);
    const wholeOrAbsent = (read: Uint8Array | null) =>
      read === null || (read.byteLength === bytes.byteLength && Buffer.compare(read, bytes) === 0);
    const reads: (Uint8Array | null)[] = [];
    for (let batch = 0; batch < 20; batch++) {
      // Twenty puts at once, and deletions one after another all the while, so that some land between a put
      // making the key's folder and moving its bytes in.
      let deletions = 0;
      let putting = true;
      const deleting = (async () => {
        while (putting || deletions < 20) await blobs.deletePrefix(prefixes[deletions++ % 2]!);
      })();
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          await blobs.put(key, bytes);
          if (!tornReadsWhilePutting) reads.push(await blobs.get(key));
        }),
      ).finally(() => (putting = false));
      await deleting;
      reads.push(await blobs.get(key));
    }
    expect(reads.filter((read) => !wholeOrAbsent(read))).toEqual([]);
    expect((files?.() ?? []).filter((file) => file !== key)).toEqual([]);
  });

  it('refuses keys that could leave the store', async () => {
    const { blobs } = await open();
    await expect(blobs.put('../escape', new Uint8Array([1]))).rejects.toThrow(/invalid blob key/);
    await expect(blobs.get('jobs/../../etc/passwd')).rejects.toThrow(/invalid blob key/);
  });
}

export function describeBlobStoreContract(name: string, make: () => Promise<BlobHarness>): void {
  describe(`BlobStore contract: ${name}`, () => {
    let harness: BlobHarness | null = null;
    const open = async (): Promise<BlobHarness> => (harness = await make());
    afterEach(async () => {
      await harness?.close();
      harness = null;
    });
    const now = new Date('2026-11-21T10:00:00.000Z');
    const link = (blobs: BlobStore, fileName = 'Q3 report.pptx') =>
      blobs.signedUrl({
        key: 'jobs/j1/result.pptx',
        fileName,
        baseUrl: 'http://127.0.0.1:8080/',
        expiresAt: new Date(now.getTime() + 15 * 60_000),
      });
    const pathOf = (url: string) => {
      const u = new URL(url);
      return `${u.pathname}${u.search}`;
    };

    describeStorageTests(open);

    it('a signed link verifies, for another instance too, until it expires', async () => {
      const h = await open();
      const url = await link(h.blobs);
      expect(url.startsWith('http://127.0.0.1:8080/v2.0/files/')).toBe(true);
      const expected = { key: 'jobs/j1/result.pptx', fileName: 'Q3 report.pptx' };
      expect(await h.blobs.verifySignedPath(pathOf(url), now)).toEqual(expected);
      expect(await h.reopen().verifySignedPath(pathOf(url), new Date(now.getTime() + 14 * 60_000))).toEqual(
        expected,
      );
      expect(await h.blobs.verifySignedPath(pathOf(url), new Date(now.getTime() + 15 * 60_000))).toBeNull();
    });

    it('a tampered link is refused: key, name, expiry, signature, or another secret', async () => {
      const h = await open();
      const path = pathOf(await link(h.blobs));
      const u = new URL(path, 'http://x');
      const later = String(Number(u.searchParams.get('expires')) + 3600);
      const tampered = [
        path.replace('jobs/j1/', 'jobs/j2/'),
        path.replace('Q3%20report.pptx', 'other.pptx'),
        path.replace(/expires=\d+/, `expires=${later}`),
        path.replace(/signature=[^&]+/, (s) => `${s.slice(0, -2)}AA`),
        path.replace(/&signature=[^&]+/, ''),
        path.replace('/v2.0/files/', '/v2.0/other/'),
      ];
      for (const candidate of tampered) expect(await h.blobs.verifySignedPath(candidate, now)).toBeNull();
      expect(await h.withOtherSecret().verifySignedPath(path, now)).toBeNull();
    });

    it('keeps non-ASCII file names intact through the link', async () => {
      const h = await open();
      const url = await link(h.blobs, 'Übersicht 2026 – café.pptx');
      expect((await h.blobs.verifySignedPath(pathOf(url), now))?.fileName).toBe('Übersicht 2026 – café.pptx');
    });
  });
}
