/**
 * The worker thread's end of streaming output: the engine hands over each finished chunk of the .pptx and it
 * goes to the file at once, so the deck is never whole in memory (docs/large-decks.md).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { ByteSink } from '../../engine/index.js';

/** Runs `build` with a sink writing into `path` (created or replaced), and closes the file whatever happens. */
export function writingTo<T>(path: string, build: (sink: ByteSink) => T): T {
  const fd = openSync(path, 'w');
  try {
    return build({
      write(chunk) {
        // writeSync may write less than asked (a full disk, a signal): go on until every byte is out.
        for (let done = 0; done < chunk.length;) done += writeSync(fd, chunk, done, chunk.length - done);
      },
    });
  } finally {
    closeSync(fd);
  }
}
