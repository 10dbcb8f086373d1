/**
 * The Renderer of one machine: a pool of long-lived LibreOffice processes (renderer-process.ts), shared fairly
 * between accounts (FairSlots: a free renderer goes to the waiting account served longest ago), started on
 * first use and kept warm. A deck goes to PDF through LibreOffice's own PDF filter; PNG pages are drawn from
 * that PDF by poppler's pdftoppm, after the renderer is handed back.
 *
 * A renderer whose conversion passes the time budget, is withdrawn, or dies is killed and a fresh one started
 * in its place. One is also replaced after a number of conversions or once its resident memory passes a
 * ceiling: LibreOffice keeps caches and leaks a little per document. Without LibreOffice, its Python bridge or
 * poppler, the pool says why in status() and refuses renders; the service runs on.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { FairSlots } from '../service/fair-slots.js';
import {
  RenderCancelledError,
  RenderFailedError,
  RendererUnavailableError,
  RenderTimeoutError,
  type Renderer,
  type RendererStatus,
  type RenderRequest,
  type RenderResult,
} from '../service/ports/renderer.js';
import { FontSubstitutions } from './font-substitutions.js';
import { RendererProcess } from './renderer-process.js';
import {
  findRenderPrograms,
  findUnoPython,
  runTool,
  ToolAbortedError,
  ToolTimeoutError,
  type RenderTools,
} from './render-tools.js';

type ToolDetection = { tools: RenderTools } | { reason: string };
import { UNO_BRIDGE_SCRIPT } from './uno-bridge-script.js';

export interface RendererPoolOptions {
  /** Renderer processes (DECKFORGE_RENDERERS). */
  size: number;
  /** Budget of one render, LibreOffice's export and the PNG pages together, in ms. */
  timeoutMs: number;
  /** A renderer is replaced after this many conversions (DECKFORGE_RENDER_RECYCLE_AFTER). */
  recycleAfter: number;
  /** ... or once LibreOffice's resident memory passes this many MB (DECKFORGE_RENDER_MEMORY_MB). */
  memoryCeilingMb: number;
  /** A folder of this pool alone (created if missing, removed by close()): profiles and the bridge script. */
  workDir: string;
  /** Where programs are looked for (the PATH the service was started with). */
  searchPath: string;
  /** The Python with the uno module (DECKFORGE_RENDER_PYTHON); null: /usr/bin/python3, then python3 on PATH. */
  python: string | null;
  /** How long a new LibreOffice may take to accept conversions (default 60 s). */
  startupTimeoutMs?: number;
  /** Told when a renderer is replaced, and why (for the log). */
  onReplace?: (reason: string, diagnostics: string) => void;
}

interface Slot {
  index: number;
  process: RendererProcess | null;
  /** Processes started for this slot, for unique pipe and folder names. */
  generation: number;
}

const DEFAULT_STARTUP_MS = 60_000;
const PDF_NAME = 'deck.pdf';

export class LibreOfficeRendererPool implements Renderer {
  private readonly slots: Slot[];
  private readonly idle: Slot[];
  private readonly fair: FairSlots;
  private readonly fonts: FontSubstitutions;
  private readonly detection: Promise<ToolDetection>;
  private known: ToolDetection | null = null;
  /** Why the last start of LibreOffice failed, until one succeeds. */
  private startFailure: string | null = null;
  private readonly live = new Set<RendererProcess>();
  private readonly bridgeScript: string;
  private readonly id = randomBytes(4).toString('hex');
  private busy = 0;
  private closed = false;

  constructor(private readonly options: RendererPoolOptions) {
    this.slots = Array.from({ length: options.size }, (_, index) => ({
      index,
      process: null,
      generation: 0,
    }));
    this.idle = [...this.slots];
    this.fair = new FairSlots(options.size);
    this.fonts = new FontSubstitutions(options.searchPath);
    this.bridgeScript = join(options.workDir, 'uno-bridge.py');
    // The programs are looked for now (a few stat calls); the Python bridge's interpreter in the background,
    // since trying one means starting it: the service starts without waiting, and status() is right at once
    // on a machine without LibreOffice.
    const programs = findRenderPrograms(options.searchPath);
    if ('reason' in programs) this.known = programs;
    this.detection =
      'reason' in programs
        ? Promise.resolve(programs)
        : findUnoPython(options.searchPath, options.python).then((found) => {
            this.known =
              'reason' in found ? found : { tools: { ...programs.programs, python: found.python } };
            return this.known;
          });
  }

  /** Resolves once the tools were looked for (status() is final from then on, but for start failures). */
  async detected(): Promise<void> {
    await this.detection;
  }

  status(): RendererStatus {
    const counts = { size: this.options.size, busy: this.busy, waiting: this.fair.waitingCount };
    const reason =
      this.known && 'reason' in this.known
        ? this.known.reason
        : this.closed
          ? 'the renderer pool is shut down'
          : this.startFailure;
    return reason ? { available: false, reason, ...counts } : { available: true, ...counts };
  }

  async render(request: RenderRequest): Promise<RenderResult> {
    const { signal } = request;
    const tools = await this.tools();
    if (signal?.aborted) throw new RenderCancelledError('the render was withdrawn before it started');
    const fonts = this.fonts.of(request.deckFile);
    const pdfFile = join(resolve(request.outputDir), PDF_NAME);
    // The budget counts from when a renderer takes the deck: waiting for one is not converting.
    const started = await this.exportPdf(request, pdfFile);
    const remaining = (): number => Math.max(1, this.options.timeoutMs - (Date.now() - started));
    try {
      const pageCount = await this.pageCount(tools, pdfFile, remaining(), signal);
      const pngFiles =
        request.pngWidth === undefined
          ? []
          : await this.drawPages(tools, pdfFile, request.pngWidth, pageCount, remaining(), signal);
      if (!request.pdf) await rm(pdfFile, { force: true });
      return {
        pdfFile: request.pdf ? pdfFile : null,
        pngFiles,
        pageCount,
        substitutedFonts: await fonts,
      };
    } catch (error) {
      if (error instanceof ToolTimeoutError) throw new RenderTimeoutError(this.options.timeoutMs);
      if (error instanceof ToolAbortedError) throw new RenderCancelledError(error.message);
      throw error;
    }
  }

  /** Processes of every renderer that runs now (LibreOffice's and the bridges'): for tests and diagnostics. */
  pids(): number[] {
    return [...this.live].flatMap((process) => process.pids());
  }

  async close(): Promise<void> {
    this.closed = true;
    const ending = [...this.live];
    for (const process of ending) process.kill();
    await Promise.all(ending.map((process) => process.exited()));
    rmSync(this.options.workDir, { recursive: true, force: true });
  }

  private async tools(): Promise<RenderTools> {
    if (this.closed) throw new RendererUnavailableError('the renderer pool is shut down');
    const found = await this.detection;
    if ('reason' in found) throw new RendererUnavailableError(found.reason);
    return found.tools;
  }

  /** Takes a renderer (fairly), exports the deck to `pdfFile` on it, hands it back; when it began converting. */
  private async exportPdf(request: RenderRequest, pdfFile: string): Promise<number> {
    const { signal } = request;
    let release: () => void;
    try {
      release = await this.fair.acquire(request.accountId, signal);
    } catch (error) {
      if (signal?.aborted) throw new RenderCancelledError('the render was withdrawn while it waited');
      throw error;
    }
    const slot = this.idle.pop() as Slot;
    this.busy += 1;
    try {
      if (this.closed) throw new RendererUnavailableError('the renderer pool is shut down');
      if (signal?.aborted) throw new RenderCancelledError('the render was withdrawn while it waited');
      const process = await this.warm(slot, await this.tools(), signal);
      const started = Date.now();
      try {
        await process.convert(resolve(request.deckFile), pdfFile, this.options.timeoutMs, signal);
      } catch (error) {
        if (!process.alive) this.replace(slot, (error as Error).message, process);
        throw error;
      }
      if (!existsSync(pdfFile) || statSync(pdfFile).size === 0) {
        throw new RenderFailedError('LibreOffice wrote no PDF for the deck');
      }
      this.recycleIfWorn(slot, process);
      return started;
    } catch (error) {
      // Stopped by close(): say so, rather than what stopping did to LibreOffice.
      if (this.closed && !(error instanceof RenderCancelledError)) {
        throw new RendererUnavailableError('the renderer pool is shut down');
      }
      throw error;
    } finally {
      this.busy -= 1;
      this.idle.push(slot);
      release();
    }
  }

  /** The slot's renderer, started (and awaited) when it has none. */
  private async warm(slot: Slot, tools: RenderTools, signal?: AbortSignal): Promise<RendererProcess> {
    const process = slot.process ?? this.start(slot, tools);
    const ready = process.ready.then(
      () => {
        this.startFailure = null;
      },
      (error: Error) => {
        this.startFailure = error.message;
        if (slot.process === process) slot.process = null;
        throw error;
      },
    );
    if (!signal) await ready;
    else {
      // A withdrawn request stops waiting; the renderer goes on starting for the next one.
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void =>
          reject(new RenderCancelledError('the render was withdrawn while LibreOffice started'));
        signal.addEventListener('abort', onAbort, { once: true });
        ready.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
      });
    }
    return process;
  }

  private start(slot: Slot, tools: RenderTools): RendererProcess {
    if (this.closed) throw new RendererUnavailableError('the renderer pool is shut down');
    if (!existsSync(this.bridgeScript)) {
      mkdirSync(this.options.workDir, { recursive: true });
      writeFileSync(this.bridgeScript, UNO_BRIDGE_SCRIPT);
    }
    slot.generation += 1;
    const name = `deckforge-${process.pid}-${this.id}-${slot.index}-${slot.generation}`;
    const renderer = new RendererProcess({
      tools,
      bridgeScript: this.bridgeScript,
      dir: join(this.options.workDir, name),
      name,
      startupTimeoutMs: this.options.startupTimeoutMs ?? DEFAULT_STARTUP_MS,
    });
    this.live.add(renderer);
    renderer.onDeath(() => {
      if (slot.process === renderer) slot.process = null;
      void renderer.exited().finally(() => this.live.delete(renderer));
    });
    slot.process = renderer;
    return renderer;
  }

  /** Kills a renderer that failed and starts its successor at once, so the next deck finds it warm. */
  private replace(slot: Slot, reason: string, old: RendererProcess): void {
    old.kill();
    if (slot.process === old) slot.process = null;
    this.options.onReplace?.(reason, old.diagnostics);
    if (!this.closed && this.known && 'tools' in this.known) this.start(slot, this.known.tools);
  }

  private recycleIfWorn(slot: Slot, process: RendererProcess): void {
    if (process.conversions >= this.options.recycleAfter) {
      this.replace(slot, `recycled after ${process.conversions} conversions`, process);
      return;
    }
    const rss = process.residentMb();
    if (rss > this.options.memoryCeilingMb) {
      this.replace(
        slot,
        `recycled at ${Math.round(rss)} MB resident (ceiling ${this.options.memoryCeilingMb} MB)`,
        process,
      );
    }
  }

  private async pageCount(
    tools: RenderTools,
    pdf: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<number> {
    const info = await runTool(tools.pdfinfo, [pdf], { timeoutMs, signal });
    const pages = /^Pages:\s+(\d+)/m.exec(info.stdout);
    if (info.code !== 0 || !pages) {
      throw new RenderFailedError(
        `the PDF LibreOffice wrote does not open: ${info.stderr.trim() || 'no page count'}`,
      );
    }
    return Number(pages[1]);
  }

  /** slide-1.png … slide-N.png, `width` pixels wide, each page's own aspect ratio. */
  private async drawPages(
    tools: RenderTools,
    pdf: string,
    width: number,
    pageCount: number,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<string[]> {
    const dir = join(pdf, '..');
    const prefix = join(dir, `.pages-${randomBytes(4).toString('hex')}`);
    const run = await runTool(
      tools.pdftoppm,
      ['-png', '-scale-to-x', String(width), '-scale-to-y', '-1', pdf, prefix],
      { timeoutMs, signal },
    );
    if (run.code !== 0)
      throw new RenderFailedError(`pdftoppm could not draw the pages: ${run.stderr.trim()}`);
    // pdftoppm numbers its pages with as many digits as the last one has: prefix-01.png … prefix-12.png.
    const base = prefix.slice(dir.length + 1);
    const drawn = (await readdir(dir))
      .map((name) => ({ name, page: Number(new RegExp(`^${base}-(\\d+)\\.png$`).exec(name)?.[1]) }))
      .filter((entry) => Number.isInteger(entry.page))
      .sort((a, b) => a.page - b.page);
    if (drawn.length !== pageCount) {
      throw new RenderFailedError(`pdftoppm drew ${drawn.length} of the PDF's ${pageCount} pages`);
    }
    return Promise.all(
      drawn.map(async ({ name, page }) => {
        const target = join(dir, `slide-${page}.png`);
        await rename(join(dir, name), target);
        return target;
      }),
    );
  }
}
