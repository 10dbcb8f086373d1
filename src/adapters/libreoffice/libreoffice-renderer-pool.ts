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
 *
 * LibreOffice is a parser of hostile input here (docs/security.md, "Rendering untrusted decks"): it gets the
 * deck's render-safe copy (a fresh package with nothing external left to follow, pictures within the pixel
 * budget), alone in its work folder, and runs in its sandbox (renderer-sandbox.ts), or without one only where
 * the operator accepted that by name. Its PDF is kept only when it has one page per visible slide of the copy:
 * a render is charged by its pages (docs/previews.md, "What it costs").
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { copyFile, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import {
  DEFAULT_IMAGE_LIMITS,
  EngineError,
  renderSafeCopy,
  type RenderSafeCopy,
  type RendererFont,
} from '../../engine/index.js';
import { join, resolve } from 'node:path';
import { FairSlots } from '../../service/jobs/fair-slots.js';
import { GenerationPoolClosedError, GenerationTimeoutError } from '../../service/ports/generation-pool.js';
import {
  RenderCancelledError,
  RenderFailedError,
  RendererUnavailableError,
  RenderTimeoutError,
  type Renderer,
  type RendererStatus,
  type RenderRequest,
  type RenderResult,
} from '../../service/ports/renderer.js';
import { FontSubstitutions } from './font-substitutions.js';
import { drawPages, pdfPageCount } from './pdf-pages.js';
import { RendererProcess } from './renderer-process.js';
import {
  findRenderPrograms,
  findUnoPython,
  ToolAbortedError,
  ToolTimeoutError,
  type ProgramSearch,
  type RenderTools,
} from './render-tools.js';
import { detectIsolation, type Isolation, type IsolationPolicy } from './renderer-sandbox.js';
import { officeInstallation, rendererView } from './renderer-view.js';
import { UNO_BRIDGE_SCRIPT } from './uno-bridge-script.js';

type ToolDetection = { tools: RenderTools; office: string; isolation: Isolation } | { reason: string };

/** Makes the render-safe copy of a deck (the engine's renderSafeCopy, wherever it runs). */
export type SafeCopyMaker = (deck: Uint8Array, limits: { maxPixels: number }) => Promise<RenderSafeCopy>;

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
  /**
   * DECKFORGE_RENDER_ISOLATION (default `required`: no renderer starts outside its sandbox);
   * `unsandboxed-accept-risk` starts them without one where the system cannot give it.
   */
  isolation?: IsolationPolicy;
  /** Width × height of any one picture in a deck sent for rendering (the generation's pixel budget). */
  maxImagePixels?: number;
  /**
   * Where the render-safe copy is made: the service passes its generation threads (a hostile deck's copy must
   * not hold the event loop); by default, on this thread (the CLI, which serves nobody else).
   */
  safeCopy?: SafeCopyMaker;
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
/** PNG widths accepted: a thumbnail at least, and at most 8K (a page of 8192 × 4608 is ~150 MB of pixels). */
export const PNG_WIDTH_RANGE = { min: 16, max: 8192 } as const;
const PDF_NAME = 'deck.pdf';
/** The render-safe copy and its PDF, in the renderer's work folder (emptied of anything else first). */
const COPY_NAME = 'deck.pptx';
const IN_THIS_THREAD: SafeCopyMaker = (deck, limits) => Promise.resolve(renderSafeCopy(deck, limits));

export class LibreOfficeRendererPool implements Renderer {
  private readonly slots: Slot[];
  private readonly idle: Slot[];
  private readonly fair: FairSlots;
  private readonly fonts: FontSubstitutions;
  private readonly programs: ProgramSearch;
  private detection: Promise<ToolDetection> | null = null;
  private known: ToolDetection | null = null;
  /** Why the last start of LibreOffice failed, until one succeeds. */
  private startFailure: string | null = null;
  private readonly live = new Set<RendererProcess>();
  private readonly bridgeScript: string;
  private readonly id = randomBytes(4).toString('hex');
  private busy = 0;
  /** One-off renderers started (for unique names). */
  private oneOffs = 0;
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
    // The programs are looked for now (a few stat calls), so status() is right at once on a machine without
    // LibreOffice. The Python bridge's interpreter is tried on first need (status, render), in the background:
    // trying one means starting it, and a service that never makes a preview should not pay for that.
    this.programs = findRenderPrograms(options.searchPath);
    if ('reason' in this.programs) this.known = this.programs;
  }

  private detect(): Promise<ToolDetection> {
    const programs = this.programs;
    this.detection ??= 'reason' in programs ? Promise.resolve(programs) : this.detectTools(programs.programs);
    return this.detection;
  }

  /** The bridge's Python, then the renderers' view of the machine, then whether bwrap gives them a sandbox. */
  private async detectTools(programs: Omit<RenderTools, 'python'>): Promise<ToolDetection> {
    const { searchPath } = this.options;
    const found = await findUnoPython(searchPath, this.options.python);
    if ('reason' in found) {
      this.known = found;
      return found;
    }
    const probeDir = join(this.options.workDir, `probe-${this.id}`);
    mkdirSync(probeDir, { recursive: true });
    try {
      const view = rendererView(programs.soffice, { executable: found.python, paths: found.paths });
      const isolation = await detectIsolation(searchPath, view, found.python, probeDir);
      const office = officeInstallation(programs.soffice)?.office ?? programs.soffice;
      this.known = { tools: { ...programs, python: found.python }, office, isolation };
      return this.known;
    } finally {
      rmSync(probeDir, { recursive: true, force: true });
    }
  }

  /** Resolves once the tools were looked for (status() is final from then on, but for start failures). */
  async detected(): Promise<void> {
    await this.detect();
  }

  status(): RendererStatus {
    void this.detect();
    const counts = { size: this.options.size, busy: this.busy, waiting: this.fair.waitingCount };
    const isolation = this.known && 'isolation' in this.known ? this.known.isolation : null;
    const isolated = isolation
      ? { isolated: 'bwrap' in isolation, isolationPolicy: this.options.isolation ?? 'required' }
      : {};
    const isolationReason = isolation && 'reason' in isolation ? { isolationReason: isolation.reason } : {};
    const reason =
      this.known && 'reason' in this.known
        ? this.known.reason
        : this.closed
          ? 'the renderer pool is shut down'
          : (this.isolationRefusal(isolation) ?? this.startFailure);
    return reason
      ? { available: false, reason, ...isolated, ...isolationReason, ...counts }
      : { available: true, ...isolated, ...isolationReason, ...counts };
  }

  /** Why no renderer may start: the system cannot give the sandbox, and the operator did not accept its absence. */
  private isolationRefusal(isolation: Isolation | null): string | null {
    if (this.options.isolation === 'unsandboxed-accept-risk' || !isolation || !('reason' in isolation))
      return null;
    return (
      `renderers cannot be isolated here and DECKFORGE_RENDER_ISOLATION is required: ${isolation.reason} ` +
      '(DECKFORGE_RENDER_ISOLATION=unsandboxed-accept-risk renders without the sandbox, see docs/security.md)'
    );
  }

  async render(request: RenderRequest): Promise<RenderResult> {
    const { signal, pngWidth } = request;
    if (
      pngWidth !== undefined &&
      (!Number.isInteger(pngWidth) || pngWidth < PNG_WIDTH_RANGE.min || pngWidth > PNG_WIDTH_RANGE.max)
    ) {
      throw new RenderFailedError(
        `the PNG width must be a whole number of pixels from ${PNG_WIDTH_RANGE.min} to ${PNG_WIDTH_RANGE.max}, got ${pngWidth}`,
      );
    }
    const tools = await this.tools();
    if (signal?.aborted) throw new RenderCancelledError('the render was withdrawn before it started');
    const copy = await this.safeCopy(request.deckFile);
    // A family the deck embeds, and whose font is handed to the renderer, is drawn: only the others are looked up.
    const drawn = new Set(copy.fonts.map((font) => font.family.toLowerCase()));
    const fonts = this.fonts.of(copy.requestedFonts.filter((family) => !drawn.has(family.toLowerCase())));
    const pdfFile = join(resolve(request.outputDir), PDF_NAME);
    // The budget counts from when a renderer takes the deck: waiting for one is not converting.
    const started = await this.exportPdf(request, copy, pdfFile);
    const remaining = (): number => Math.max(1, this.options.timeoutMs - (Date.now() - started));
    try {
      const pageCount = await pdfPageCount(tools.pdfinfo, pdfFile, remaining(), signal);
      if (pageCount !== copy.visibleSlides) {
        await rm(pdfFile, { force: true });
        throw new RenderFailedError(pageMismatch(pageCount, copy.visibleSlides));
      }
      const { onPages } = request;
      onPages?.(request.pngWidth === undefined ? pageCount : 0, pageCount);
      const pngFiles =
        request.pngWidth === undefined
          ? []
          : await drawPages(
              tools.pdftoppm,
              pdfFile,
              request.pngWidth,
              pageCount,
              remaining,
              signal,
              (drawn) => onPages?.(drawn, pageCount),
            );
      if (!request.pdf) await rm(pdfFile, { force: true });
      return {
        pdfFile: request.pdf ? pdfFile : null,
        pngFiles,
        pageCount,
        substitutedFonts: (await fonts).substituted,
        otherMissingFonts: (await fonts).notLookedUp,
        fontWarnings: copy.warnings,
      };
    } catch (error) {
      if (error instanceof ToolTimeoutError) throw new RenderTimeoutError(this.options.timeoutMs);
      if (error instanceof ToolAbortedError) throw new RenderCancelledError(error.message);
      throw error;
    }
  }

  /** Processes of every renderer that runs now (LibreOffice's and the bridges'): for tests and diagnostics. */
  pids(): number[] {
    return [...this.live].flatMap((renderer) => renderer.pids());
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.detection; // The interpreter being tried ends too (within seconds).
    const ending = [...this.live];
    for (const renderer of ending) renderer.kill();
    await Promise.all(ending.map((renderer) => renderer.exited()));
    rmSync(this.options.workDir, { recursive: true, force: true });
  }

  private async tools(): Promise<RenderTools> {
    if (this.closed) throw new RendererUnavailableError('the renderer pool is shut down');
    const found = await this.detect();
    if ('reason' in found) throw new RendererUnavailableError(found.reason);
    const refusal = this.isolationRefusal(found.isolation);
    if (refusal) throw new RendererUnavailableError(refusal);
    return found.tools;
  }

  /** The deck as LibreOffice may see it (render-safe-copy.ts in the engine); its faults in words. */
  private async safeCopy(deckFile: string): Promise<RenderSafeCopy> {
    const bytes = new Uint8Array(await readFile(deckFile));
    try {
      const maxPixels = this.options.maxImagePixels ?? DEFAULT_IMAGE_LIMITS.maxPixels;
      return await (this.options.safeCopy ?? IN_THIS_THREAD)(bytes, { maxPixels });
    } catch (error) {
      if (error instanceof GenerationTimeoutError) throw new RenderTimeoutError(error.budgetMs);
      if (error instanceof GenerationPoolClosedError) {
        throw new RendererUnavailableError('the renderer pool is shut down');
      }
      if (!(error instanceof EngineError)) throw error;
      throw new RenderFailedError(`LibreOffice could not convert the deck: ${error.message}`);
    }
  }

  /**
   * Takes a renderer slot (fairly), exports `copy` to `pdfFile` on it, hands it back; when it began converting.
   * A deck that embeds fonts is converted by a one-off renderer given those fonts, in the slot's place, and
   * thrown away afterwards: no warm renderer ever holds a deck's fonts.
   */
  private async exportPdf(request: RenderRequest, copy: RenderSafeCopy, pdfFile: string): Promise<number> {
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
      const tools = await this.tools();
      const oneOff = copy.fonts.length > 0 ? this.startOneOff(slot, tools, copy.fonts) : null;
      try {
        const renderer = oneOff ?? (await this.warm(slot, tools, signal));
        if (oneOff) await readyOrWithdrawn(oneOff.ready, signal);
        return await this.convertOn(slot, renderer, copy.bytes, pdfFile, oneOff !== null, signal);
      } finally {
        if (oneOff) {
          oneOff.kill();
          await oneOff.exited();
        }
      }
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

  /** Converts `copy` on `renderer` (the slot's, or a one-off one) into `pdfFile`; when it began converting. */
  private async convertOn(
    slot: Slot,
    renderer: RendererProcess,
    copy: Uint8Array,
    pdfFile: string,
    oneOff: boolean,
    signal?: AbortSignal,
  ): Promise<number> {
    const deck = join(renderer.workDir, COPY_NAME);
    const written = join(renderer.workDir, PDF_NAME);
    // The work folder holds the one deck being converted: whatever else is there goes first.
    const left = await readdir(renderer.workDir);
    await Promise.all(left.map((name) => rm(join(renderer.workDir, name), { recursive: true, force: true })));
    await writeFile(deck, copy);
    const started = Date.now();
    try {
      await renderer.convert(COPY_NAME, PDF_NAME, this.options.timeoutMs, signal);
    } catch (error) {
      if (!renderer.alive && !oneOff) this.replace(slot, (error as Error).message, renderer);
      throw error;
    } finally {
      await rm(deck, { force: true });
    }
    if (!existsSync(written) || statSync(written).size === 0) {
      throw new RenderFailedError('LibreOffice wrote no PDF for the deck');
    }
    await moveFile(written, pdfFile);
    if (!oneOff) this.recycleIfWorn(slot, renderer);
    return started;
  }

  /** The slot's renderer, started (and awaited) when it has none. */
  private async warm(slot: Slot, tools: RenderTools, signal?: AbortSignal): Promise<RendererProcess> {
    const renderer = slot.process ?? this.start(slot, tools);
    const ready = renderer.ready.then(
      () => {
        this.startFailure = null;
      },
      (error: Error) => {
        this.startFailure = error.message;
        if (slot.process === renderer) slot.process = null;
        throw error;
      },
    );
    // A withdrawn request stops waiting; the renderer goes on starting for the next one.
    await readyOrWithdrawn(ready, signal);
    return renderer;
  }

  /** A renderer for one deck and the fonts it embeds, in `slot`'s place; the caller kills it afterwards. */
  private startOneOff(slot: Slot, tools: RenderTools, fonts: readonly RendererFont[]): RendererProcess {
    if (this.closed) throw new RendererUnavailableError('the renderer pool is shut down');
    this.oneOffs += 1;
    const renderer = this.spawn(`${this.id}-${slot.index}-fonts-${this.oneOffs}`, tools, fonts);
    renderer.onDeath(() => void renderer.exited().finally(() => this.live.delete(renderer)));
    return renderer;
  }

  private start(slot: Slot, tools: RenderTools): RendererProcess {
    if (this.closed) throw new RendererUnavailableError('the renderer pool is shut down');
    slot.generation += 1;
    const renderer = this.spawn(`${this.id}-${slot.index}-${slot.generation}`, tools);
    renderer.onDeath(() => {
      if (slot.process === renderer) slot.process = null;
      void renderer.exited().finally(() => this.live.delete(renderer));
    });
    slot.process = renderer;
    return renderer;
  }

  /** A new renderer process named after `suffix`, counted among the live ones until it has exited. */
  private spawn(suffix: string, tools: RenderTools, fonts?: readonly RendererFont[]): RendererProcess {
    if (!existsSync(this.bridgeScript)) {
      mkdirSync(this.options.workDir, { recursive: true });
      writeFileSync(this.bridgeScript, UNO_BRIDGE_SCRIPT);
    }
    const name = `deckforge-${process.pid}-${suffix}`;
    const renderer = new RendererProcess({
      tools,
      office: this.known && 'office' in this.known ? this.known.office : tools.soffice,
      bridgeScript: this.bridgeScript,
      dir: join(this.options.workDir, name),
      isolation: this.known && 'isolation' in this.known ? this.known.isolation : null,
      searchPath: this.options.searchPath,
      memoryCeilingMb: this.options.memoryCeilingMb,
      name,
      startupTimeoutMs: this.options.startupTimeoutMs ?? DEFAULT_STARTUP_MS,
      ...(fonts ? { fonts } : {}),
    });
    this.live.add(renderer);
    return renderer;
  }

  /** Kills a renderer that failed and starts its successor at once, so the next deck finds it warm. */
  private replace(slot: Slot, reason: string, old: RendererProcess): void {
    old.kill();
    if (slot.process === old) slot.process = null;
    this.options.onReplace?.(reason, old.diagnostics);
    if (!this.closed && this.known && 'tools' in this.known) this.start(slot, this.known.tools);
  }

  private recycleIfWorn(slot: Slot, renderer: RendererProcess): void {
    if (renderer.conversions >= this.options.recycleAfter) {
      this.replace(slot, `recycled after ${renderer.conversions} conversions`, renderer);
      return;
    }
    const rss = renderer.residentMb();
    if (rss > this.options.memoryCeilingMb) {
      this.replace(
        slot,
        `recycled at ${Math.round(rss)} MB resident (ceiling ${this.options.memoryCeilingMb} MB)`,
        renderer,
      );
    }
  }
}

/** Waits for `ready`, or rejects when `signal` withdraws the request first. */
async function readyOrWithdrawn(ready: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return ready;
  await new Promise<void>((resolve, reject) => {
    const onAbort = (): void =>
      reject(new RenderCancelledError('the render was withdrawn while LibreOffice started'));
    signal.addEventListener('abort', onAbort, { once: true });
    ready.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Why a PDF whose pages are not the deck's visible slides is not handed on (nor charged). */
function pageMismatch(pages: number, visibleSlides: number): string {
  return (
    `LibreOffice drew ${pages} ${pages === 1 ? 'page' : 'pages'} for the deck's ${visibleSlides} visible ` +
    `${visibleSlides === 1 ? 'slide' : 'slides'}; a render is made only when they agree (one page per visible slide)`
  );
}

/** Renames `from` to `to`, or copies it where they lie on different file systems. */
async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(from, to);
    await rm(from, { force: true });
  }
}
