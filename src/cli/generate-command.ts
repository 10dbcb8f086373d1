/**
 * `deckforge generate FILE... PAYLOAD.json [-o OUT]`: the offline twin of POST /v1.0/generator/create.
 * The files play the part of the uploaded `files` (the payload names them by base name; http(s) URLs in it are
 * fetched, through the same guard as the service's), so the CLI and the service run the same engine call, in a
 * worker thread under the same memory budget (DECKFORGE_GENERATION_MEMORY_MB): a deck that needs more ends with
 * that message, not with a V8 abort. The deck streams into a file beside the output and takes the output's
 * name once it is complete.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ConfigError } from '../config/config-error.js';
import { loadGenerationSettings, type GenerationSettings } from '../config/generation-settings.js';
import { EngineError } from '../engine/errors.js';
import {
  DEFAULT_PREVIEW_WIDTH,
  MAX_PREVIEW_WIDTH,
  MIN_PREVIEW_WIDTH,
} from '../service/generation/output-format.js';
import { FetchError, type TemplateFetcher } from '../service/ports/index.js';
import { WorkerThreadPool } from '../adapters/generation-threads/worker-thread-pool.js';
import type { CliRender } from './cli-renderer.js';
import { processIo, reportUserError, type CommandIo } from './command-io.js';
import { progressLine } from './progress-line.js';

const HELP = `Usage: deckforge generate FILE... PAYLOAD.json [-o OUT.pptx|OUT.pdf] [--previews DIR] [--strict]

  FILE          the template (.pptx/.potx) and any image and font files; the payload refers to them by base name
                (http(s) URLs in the payload are fetched, as the service fetches them)
  PAYLOAD.json  the jsonData document ('-' reads it from standard input)
  -o, --output  where to write the deck (default: the payload's resultFileName, else TEMPLATE-generated.pptx);
                a name ending in .pdf writes the deck as a PDF instead
  --previews DIR  also draw one PNG per slide into DIR (slide-1.png, slide-2.png, ...)
  --preview-width N  width of those images in pixels (default ${DEFAULT_PREVIEW_WIDTH})
  -q, --quiet   do not print warnings
  --strict      a warning is an error: print the warnings, write no deck, exit 1 (a misspelt shape or key, a tag
                no slide uses, a {{tag}} left unfilled: what the service lets through, docs/payload.md "Warnings")

  A PDF and slide images are drawn by LibreOffice (docs/previews.md): this command starts one of its own.

  DECKFORGE_GENERATION_MEMORY_MB sets the memory budget of the generation (docs/large-decks.md).
`;

export async function runGenerate(args: string[], io: CommandIo = processIo): Promise<number> {
  const files: string[] = [];
  let payloadPath: string | null = null;
  let output: string | null = null;
  let quiet = false;
  let strict = false;
  let previews: string | null = null;
  let previewWidth: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-h' || arg === '--help') {
      io.stdout(HELP);
      return 0;
    } else if (arg === '-o' || arg === '--output') output = args[++i] ?? null;
    else if (arg === '--previews') previews = args[++i] ?? '';
    else if (arg === '--preview-width') previewWidth = args[++i] ?? '';
    else if (arg === '-q' || arg === '--quiet') quiet = true;
    else if (arg === '--strict') strict = true;
    else if (arg === '-' || arg.toLowerCase().endsWith('.json')) payloadPath = arg;
    else files.push(arg);
  }
  if (!payloadPath || files.length === 0 || (args.includes('-o') && !output) || previews === '') {
    io.stderr(HELP);
    return 2;
  }
  const asPdf = output !== null && /\.pdf$/i.test(output);
  const width = previewWidthOption(previewWidth, previews, io);
  if (width === undefined) return 2;
  let settings: GenerationSettings;
  try {
    // The settings of the generation itself, read on their own (generation-settings.ts says why).
    settings = loadGenerationSettings();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr(`deckforge generate: ${error.message}\n`);
    return 2;
  }
  // Until the deck is complete it lives under a name of its own, in the folder it will end up in.
  const folder = output ? dirname(resolve(output)) : resolve('.');
  const partial = join(folder, `.deckforge-${randomBytes(6).toString('hex')}.pptx.partial`);
  let renderer: CliRender | null = null;
  let payloadText: string | null = null;
  const pool = new WorkerThreadPool(1, undefined, {
    memoryBudgetMb: settings.memoryMb,
    loadImageLibraryFirst: false,
  });
  try {
    // Before the deck is built: a machine without LibreOffice says so at once.
    if (asPdf || previews !== null) renderer = await (await import('./cli-renderer.js')).openCliRenderer();
    const fileMap = new Map<string, Uint8Array>();
    for (const file of files) fileMap.set(basename(file), readFileSync(file));
    // Parsed in the worker only: a payload of 20 000 slides is megabytes this thread need not hold.
    payloadText = readFileSync(payloadPath === '-' ? 0 : payloadPath, 'utf8');
    const fetched = await fetchUrls(payloadText, fileMap, io);
    if (fetched === null) return 1;
    const progress = progressLine(io, 'generating');
    const result = await pool
      .generateToFile(
        {
          payload: undefined,
          payloadText,
          files: fileMap,
          unavailable: fetched,
          imageLimits: { maxPixels: settings.maxImagePixels, maxBytes: settings.maxImageBytes },
          onProgress: (done, total) => progress.slides(done, total),
        },
        partial,
      )
      .finally(() => progress.end());
    const target = resolve(output ?? result.fileName);
    if (!quiet || strict)
      for (const warning of result.warnings) io.stderr(`warning: ${warning.path}: ${warning.message}\n`);
    if (strict && result.warnings.length > 0) {
      const count = result.warnings.length;
      io.stderr(`error: ${count} ${count === 1 ? 'warning' : 'warnings'} with --strict: no deck written\n`);
      return 1;
    }
    if (renderer) {
      await writeRendered(renderer, partial, { target, asPdf, previews, width, quiet }, io);
      if (asPdf) return 0;
    }
    renameSync(partial, target);
    io.stdout(
      `wrote ${target} (${result.slideCount} ${result.slideCount === 1 ? 'slide' : 'slides'}, ${result.byteLength} bytes)\n`,
    );
    return 0;
  } catch (error) {
    // Only a command that renders loads the renderer's module, on its error path too.
    const rendering =
      asPdf || previews !== null ? (await import('./cli-renderer.js')).reportRenderError(error, io) : null;
    if (rendering !== null) return rendering;
    if (error instanceof ConfigError) {
      io.stderr(`deckforge generate: ${error.message}\n`);
      return 2;
    }
    const malformed = malformedPayload(error, payloadText);
    if (malformed) {
      io.stderr(`error: ${payloadPath} is ${malformed.reason}\n`);
      return 1;
    }
    return reportUserError(error, io);
  } finally {
    rmSync(partial, { force: true });
    await Promise.all([pool.close(), renderer?.close()]);
  }
}

/** `--preview-width`: the width, or null without --previews; undefined (usage error, reported) when invalid. */
function previewWidthOption(
  text: string | null,
  previews: string | null,
  io: CommandIo,
): number | null | undefined {
  if (text !== null && previews === null) {
    io.stderr(
      'deckforge generate: --preview-width sets the width of the --previews images; give --previews DIR\n',
    );
    return undefined;
  }
  if (previews === null) return null;
  if (text === null) return DEFAULT_PREVIEW_WIDTH;
  const width = Number(text);
  if (!Number.isInteger(width) || width < MIN_PREVIEW_WIDTH || width > MAX_PREVIEW_WIDTH) {
    io.stderr(
      `deckforge generate: --preview-width "${text}": give a whole number of pixels from ${MIN_PREVIEW_WIDTH} to ${MAX_PREVIEW_WIDTH}\n`,
    );
    return undefined;
  }
  return width;
}

/** The PDF at `target` (when asked for) and the PNG pages in the --previews folder, from the deck in `deckFile`. */
async function writeRendered(
  renderer: CliRender,
  deckFile: string,
  ask: { target: string; asPdf: boolean; previews: string | null; width: number | null; quiet: boolean },
  io: CommandIo,
): Promise<void> {
  const { reportFonts, writePages } = await import('./cli-renderer.js');
  const rendered = await renderer.render(deckFile, { pdf: ask.asPdf, pngWidth: ask.width });
  reportFonts(rendered, io, ask.quiet);
  if (ask.asPdf && rendered.pdfFile) {
    copyFileSync(rendered.pdfFile, ask.target);
    const pages = rendered.pageCount;
    io.stdout(
      `wrote ${ask.target} (${pages} ${pages === 1 ? 'page' : 'pages'}, ${statSync(ask.target).size} bytes)\n`,
    );
  }
  if (ask.previews !== null) {
    const written = writePages(rendered.pngFiles, ask.previews);
    io.stdout(
      `wrote ${written.length} slide ${written.length === 1 ? 'image' : 'images'} to ${resolve(ask.previews)}\n`,
    );
  }
}

/**
 * Fetches the URLs the payload names (template and pictures) into `files`, as the service does; returns the
 * picture URLs that could not be fetched, with the reason (the engine refuses a picture using one, naming it),
 * or null when a template URL failed (reported). A payload naming no URL costs no parse and no configuration.
 */
async function fetchUrls(
  payloadText: string,
  files: Map<string, Uint8Array>,
  io: CommandIo,
): Promise<Map<string, string> | null> {
  if (!payloadText.includes('://')) return new Map();
  const [{ loadConfig }, { parsePayloadText, urlsToFetch }, { fetchRemoteFiles }] = await Promise.all([
    import('../config/index.js'),
    import('../engine/index.js'),
    import('../service/generation/remote-files.js'),
  ]);
  const config = loadConfig();
  let request;
  try {
    request = parsePayloadText(payloadText).request;
  } catch {
    return new Map(); // the worker parses it again and reports what is wrong with it
  }
  try {
    return await fetchRemoteFiles(guardedFetcher(config), urlsToFetch(request), files, {
      concurrency: config.limits.fetchConcurrency,
    });
  } catch (error) {
    if (!(error instanceof FetchError)) throw error;
    io.stderr(`error: ${error.message}\n`);
    return null;
  }
}

/** The service's URL guard: private addresses refused unless allowed, timeout, size cap, redirects re-checked. */
function guardedFetcher(config: {
  allowPrivateUrls: boolean;
  fetchTimeoutMs: number;
  limits: { maxUploadBytes: number };
}): TemplateFetcher {
  let fetcher: Promise<TemplateFetcher> | null = null;
  const load = (): Promise<TemplateFetcher> =>
    (fetcher ??= import('../adapters/url-fetch/guarded-url-fetcher.js').then(
      ({ GuardedUrlFetcher }) =>
        new GuardedUrlFetcher({
          allowPrivateUrls: config.allowPrivateUrls,
          timeoutMs: config.fetchTimeoutMs,
          maxBytes: config.limits.maxUploadBytes,
        }),
    ));
  return {
    fetch: async (url, limits) => (await load()).fetch(url, limits),
    fetchToFile: async (url, file, limits) => (await load()).fetchToFile(url, file, limits),
  };
}

/**
 * The engine's refusal of the payload file as a whole (`jsonData`) when the file is not JSON at all, told as the
 * file's fault in the engine's words (EngineError.reason). Whether it is JSON is asked of the text itself, on
 * this error path only, never of the message.
 */
function malformedPayload(error: unknown, payloadText: string | null): EngineError | null {
  if (!(error instanceof EngineError) || error.code !== 'INVALID_PAYLOAD' || error.path !== 'jsonData')
    return null;
  const text = payloadText?.replace(/^\uFEFF/, '') ?? '';
  if (text.trim() === '') return null;
  try {
    JSON.parse(text);
    return null;
  } catch {
    return error;
  }
}
