/**
 * The worker thread's end of streaming output: the engine hands over each finished chunk of the .pptx and it
 * goes to the file at once, so the deck is never whole in memory (docs/large-decks.md). A caller may let a small
 * deck stay in memory instead (`memoryBytes`): it then comes back to the pool by transfer, and no file is made.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { ByteSink } from '../../engine/index.js';

function writeAll(fd: number, chunk: Uint8Array): void {
  // writeSync may write less than asked (a full disk, a signal): go on until every byte is out.
  for (let done = 0; done < chunk.length;) done += writeSync(fd, chunk, done, chunk.length - done);
}

/**
 * Runs `build` with a sink writing into `path` (created or replaced), and closes the file whatever happens.
 * While the deck is at most `memoryBytes` long its chunks are kept (copied: the writer reuses its buffers) and
 * `bytes` is the whole deck, with no file made; past that, what was kept and the rest go into the file and
 * `bytes` is null.
 */
export function writingTo<T>(
  path: string,
  build: (sink: ByteSink) => T,
  memoryBytes = 0,
): { result: T; bytes: Uint8Array | null } {
  let fd = memoryBytes > 0 ? null : openSync(path, 'w');
  const kept: Uint8Array[] = [];
  let keptBytes = 0;
  try {
    const result = build({
      write(chunk) {
        if (fd === null && keptBytes + chunk.length <= memoryBytes) {
          // A copy, whatever the chunk's class: on a Buffer (the zip writer's chunks are Buffers) `slice` is a
          // view, and the writer refills that buffer for the next chunk (zip-writer.ts, `flush`).
          kept.push(Uint8Array.prototype.slice.call(chunk));
          keptBytes += chunk.length;
          return;
        }
        if (fd === null) {
          fd = openSync(path, 'w');
          for (const earlier of kept.splice(0)) writeAll(fd, earlier);
        }
        writeAll(fd, chunk);
      },
    });
    if (fd !== null) return { result, bytes: null };
    const bytes = new Uint8Array(keptBytes);
    let at = 0;
    for (const chunk of kept) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    return { result, bytes };
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
