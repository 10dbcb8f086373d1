/**
 * A progress line for long commands on a terminal (docs/large-decks.md): one line on standard error, rewritten
 * in place at most every PROGRESS_LINE_MS and wiped when the work ends. Nothing is written when the command's
 * output is not a terminal, so logs and pipes never see it.
 */
import type { CommandIo } from './command-io.js';

const PROGRESS_LINE_MS = 200;
const CLEAR_LINE = '\r\u001b[K';

export interface ProgressLine {
  slides(done: number, total: number): void;
  /** Wipes the line; call before printing anything else. */
  end(): void;
}

export function progressLine(io: CommandIo, verb: string): ProgressLine {
  if (!io.terminal) return { slides: () => undefined, end: () => undefined };
  let shown = false;
  let last = 0;
  return {
    slides(done, total) {
      const now = Date.now();
      if (done < total && now - last < PROGRESS_LINE_MS) return;
      last = now;
      shown = true;
      const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
      io.stderr(`${CLEAR_LINE}${verb}: ${done} of ${total} slides (${percent} %)`);
    },
    end() {
      if (shown) io.stderr(CLEAR_LINE);
      shown = false;
    },
  };
}
