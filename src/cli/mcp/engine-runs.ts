/**
 * The engine as `deckforge mcp` runs it on this machine (docs/mcp.md, "On your machine"): in one generation
 * thread under the memory budget `deckforge generate` uses (DECKFORGE_GENERATION_MEMORY_MB), for the local
 * folder's decks and for the checks and slide copies of the remote mode; and the CLI's own renderer
 * (cli-renderer.ts: one LibreOffice inside the same fence as `deckforge render`), started on the first preview.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkerThreadPool } from '../../adapters/generation-threads/worker-thread-pool.js';
import { loadGenerationSettings } from '../../config/generation-settings.js';
import { EngineError, type InspectResult, type Warning } from '../../engine/index.js';
import { ToolError } from '../../mcp/tool-error.js';
import type { SlidePicture } from '../../mcp/tool-backend.js';
import type { CliRender } from '../cli-renderer.js';

export interface EngineDeck {
  bytes: Uint8Array;
  slideCount: number;
  warnings: Warning[];
  fileName: string;
}

const IN_MEMORY_BYTES = 512 * 1024 * 1024;
const COPY_NAME = 'preview.pptx';

export class EngineRuns {
  private readonly settings = loadGenerationSettings();
  private readonly pool = new WorkerThreadPool(1, undefined, {
    memoryBudgetMb: this.settings.memoryMb,
    loadImageLibraryFirst: false,
  });
  private renderer: Promise<CliRender> | null = null;

  async generate(jsonData: unknown, files: Map<string, Uint8Array>): Promise<EngineDeck> {
    const scratch = await mkdtemp(join(tmpdir(), 'deckforge-mcp-'));
    try {
      const file = join(scratch, 'deck.pptx');
      const result = await this.pool
        .generateToFile(
          {
            payload: jsonData,
            files,
            imageLimits: { maxPixels: this.settings.maxImagePixels, maxBytes: this.settings.maxImageBytes },
          },
          file,
          undefined,
          IN_MEMORY_BYTES,
        )
        .catch(asToolError);
      const bytes = 'bytes' in result ? result.bytes : new Uint8Array(await readFile(file));
      return { bytes, slideCount: result.slideCount, warnings: result.warnings, fileName: result.fileName };
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  inspect(bytes: Uint8Array): Promise<InspectResult> {
    return this.pool.inspect(bytes).catch(asToolError);
  }

  /** PNGs of `slides` of `deck`: the slides copied into a deck of their own, drawn, mapped back to their indexes. */
  async preview(
    deck: Uint8Array,
    slides: number[],
    longSide: number,
    draw?: (copy: Uint8Array, width: number) => Promise<{ pngs: Uint8Array[]; warnings: Warning[] }>,
  ): Promise<{ slides: SlidePicture[]; warnings: Warning[] }> {
    const inspected = await this.inspect(deck);
    const outside = slides.find((index) => index >= inspected.slides.length);
    if (outside !== undefined) {
      throw new ToolError(
        'invalid_input',
        `slides: there is no slide ${outside}; the deck has ${inspected.slides.length} (0 to ${inspected.slides.length - 1})`,
        { path: 'arguments.slides' },
      );
    }
    const size = inspected.slideSize ?? { cx: 12192000, cy: 6858000 };
    const width = size.cx >= size.cy ? longSide : Math.max(1, Math.round((longSide * size.cx) / size.cy));
    const copy = await this.generate(
      { presentation: { template: COPY_NAME, slides: slides.map((index) => ({ slide_index: index })) } },
      new Map([[COPY_NAME, deck]]),
    );
    const visible = slides.filter((index) => !inspected.slides[index]!.hidden);
    const drawn = await (draw ?? ((bytes, w) => this.drawHere(bytes, w)))(copy.bytes, width);
    return {
      slides: drawn.pngs.slice(0, visible.length).map((png, page) => ({ index: visible[page]!, png })),
      warnings: drawn.warnings,
    };
  }

  private async drawHere(
    deck: Uint8Array,
    width: number,
  ): Promise<{ pngs: Uint8Array[]; warnings: Warning[] }> {
    this.renderer ??= import('../cli-renderer.js').then(({ openCliRenderer }) => openCliRenderer());
    const renderer = await this.renderer.catch((error: unknown) => {
      this.renderer = null;
      throw new ToolError('server', (error as Error).message);
    });
    const scratch = await mkdtemp(join(tmpdir(), 'deckforge-mcp-'));
    try {
      const file = join(scratch, 'deck.pptx');
      await (await import('node:fs/promises')).writeFile(file, deck);
      const rendered = await renderer.render(file, { pdf: false, pngWidth: width });
      const pngs = await Promise.all(
        rendered.pngFiles.map(async (png) => new Uint8Array(await readFile(png))),
      );
      const warnings = [
        ...rendered.fontWarnings,
        ...rendered.substitutedFonts.map(({ requested, used }) => ({
          path: 'FONT_SUBSTITUTED',
          message: `the font "${requested}" is not installed here; "${used}" was drawn instead`,
        })),
      ];
      const others = rendered.otherMissingFonts;
      if (others.length > 0) {
        warnings.push({
          path: 'FONT_SUBSTITUTED',
          message: `${others.length} more fonts are not installed here ("${others[0]}", …); other fonts were drawn instead`,
        });
      }
      return { pngs, warnings };
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  async close(): Promise<void> {
    const renderer = this.renderer;
    this.renderer = null;
    await Promise.all([
      this.pool.close(),
      renderer?.then(
        (r) => r.close(),
        () => undefined,
      ),
    ]);
  }
}

function asToolError(error: unknown): never {
  if (error instanceof EngineError) {
    throw new ToolError('invalid_input', error.message, {
      ...(error.path ? { path: error.path } : {}),
      code: `DECKFORGE_${error.code}`,
    });
  }
  throw error;
}
