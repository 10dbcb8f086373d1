/**
 * A file of the blob store on its way to a client: a job's result or output, a stored template's bytes. Read as
 * often as asked, never removed here (retention and deletions do that).
 */
import type { Readable } from 'node:stream';
import type { DeckContent } from './deckforge-service.js';
import type { BlobReader } from './ports/index.js';

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
