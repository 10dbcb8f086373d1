/**
 * Decks on their way to a client, never whole in memory unless small: a deck generated now is a file in the
 * scratch folder (the worker thread wrote it there as it was built), read once and removed, or, when small, the
 * bytes the thread gave back. (What is read from the blob store is stored-content.ts.)
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { DeckContent } from '../deckforge-service.js';

/** A fresh file name in `scratchDir` for a deck about to be generated. */
export function scratchFile(scratchDir: string): string {
  return join(scratchDir, `${randomBytes(8).toString('hex')}.pptx`);
}

/**
 * Removes a scratch file; one already gone is no error. (`rm(file, { force: true })` does the same with two
 * more system calls: its checks stat the path first.)
 */
export async function removeScratchFile(file: string): Promise<void> {
  await unlink(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

/**
 * A generated deck (or its PDF) in a scratch file: the file goes once it has been read or discarded (`remove`,
 * when given, removes the folder it is in instead).
 */
export function temporaryContent(
  file: string,
  byteLength: number,
  remove: () => Promise<void> = () => removeScratchFile(file),
): DeckContent {
  return {
    byteLength,
    stream() {
      const stream = createReadStream(file);
      stream.once('close', () => void remove());
      return stream;
    },
    async bytes() {
      try {
        return new Uint8Array(await readFile(file));
      } finally {
        await remove();
      }
    },
    discard: remove,
  };
}

/** A deck already in memory (a small one, given back by the generation thread): `held` is sent as it is. */
export function heldContent(bytes: Uint8Array): DeckContent {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    byteLength: bytes.byteLength,
    held: buffer,
    stream: () => Readable.from([buffer]),
    bytes: async () => bytes,
    discard: async () => {},
  };
}
