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
  /** Pictures of pages drawn of how many (`deckforge render --png`). */
  pages(done: number, total: number): void;
  /** A step with no count to tell ("converting with LibreOffice…"): shown at once. */
  step(text: string): void;
  /** Wipes the line; call before printing anything else. */
  end(): void;
}

export function progressLine(io: CommandIo, verb: string): ProgressLine {
  if (!io.terminal) {
    return { slides: () => undefined, pages: () => undefined, step: () => undefined, end: () => undefined };
  }
  let shown = false;
  let last = 0;
  const show = (text: string): void => {
    last = Date.now();
    shown = true;
    io.stderr(`${CLEAR_LINE}${verb}: ${text}`);
  };
  const count = (done: number, total: number, noun: string): void => {
    if (done < total && Date.now() - last < PROGRESS_LINE_MS) return;
    const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
    show(`${done} of ${total} ${noun} (${percent} %)`);
  };
  return {
    slides: (done, total) => count(done, total, 'slides'),
    pages: (done, total) => count(done, total, 'pages drawn'),
    step: show,
    end() {
      if (shown) io.stderr(CLEAR_LINE);
      shown = false;
    },
  };
}
