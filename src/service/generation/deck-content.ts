/**
 * Decks on their way to a client, never whole in memory: a deck generated now is a file in the scratch folder
 * (the worker thread wrote it there as it was built), read once and removed; a job's result is read from the
 * blob store.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { DeckContent } from '../deckforge-service.js';
import type { BlobReader } from '../ports/index.js';

/** A fresh file name in `scratchDir` for a deck about to be generated. */
export function scratchFile(scratchDir: string): string {
  return join(scratchDir, `${randomBytes(8).toString('hex')}.pptx`);
}

/**
 * A generated deck (or its PDF) in a scratch file: the file goes once it has been read or discarded (`remove`,
 * when given, removes the folder it is in instead).
 */
export function temporaryContent(
  file: string,
  byteLength: number,
  remove: () => Promise<void> = () => rm(file, { force: true }),
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

/** A stored result: read as often as asked, never removed here (retention does that). */
export function storedContent(reader: BlobReader): DeckContent {
  return {
    byteLength: reader.byteLength,
    stream: () => reader.stream(),
    bytes: () => readAll(reader.stream()),
    discard: async () => {},
  };
}

async function readAll(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}
