/**
 * `deckforge render DECK.pptx -o DECK.pdf | --png DIR [--width N]`: the offline twin of POST /v1.0/render
 * (docs/previews.md). The deck is read with the engine's template checks first (a file that is not a .pptx is
 * an error naming the problem, before LibreOffice starts), then drawn by one LibreOffice process of the
 * command's own.
 */
import { copyFileSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { inspect } from '../engine/index.js';
import {
  MAX_PREVIEW_WIDTH,
  MIN_PREVIEW_WIDTH,
  DEFAULT_PREVIEW_WIDTH,
} from '../service/generation/output-format.js';
import {
  openCliRenderer,
  reportFonts,
  reportRenderError,
  writePages,
  type CliRender,
} from './cli-renderer.js';
import { processIo, reportUserError, type CommandIo } from './command-io.js';
import { progressLine } from './progress-line.js';

const HELP = `Usage: deckforge render DECK.pptx (-o OUT.pdf | --png DIR) [--width N] [-q]

  DECK.pptx     a deck made anywhere (PowerPoint, LibreOffice, deckforge generate)
  -o, --output  write the deck as a PDF (one page per visible slide)
  --png DIR     write one PNG per visible slide into DIR (slide-1.png, slide-2.png, ...)
  --width N     width of the PNG images in pixels (default ${DEFAULT_PREVIEW_WIDTH})
  -q, --quiet   do not print font warnings

  Drawn by LibreOffice (docs/previews.md); both -o and --png may be given.
`;

interface RenderArgs {
  deck: string;
  output: string | null;
  png: string | null;
  width: number;
  quiet: boolean;
}

function parse(args: string[]): RenderArgs | string {
  let deck: string | null = null;
  let output: string | null = null;
  let png: string | null = null;
  let width: string | null = null;
  let quiet = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-o' || arg === '--output') output = args[++i] ?? '';
    else if (arg === '--png') png = args[++i] ?? '';
    else if (arg === '--width') width = args[++i] ?? '';
    else if (arg === '-q' || arg === '--quiet') quiet = true;
    else if (deck === null && !arg.startsWith('-')) deck = arg;
    else return `unexpected argument "${arg}"`;
  }
  if (deck === null) return 'give the deck to render';
  if (output === '' || png === '' || width === '') return 'an option is missing its value';
  if (output === null && png === null) return 'say what to write: -o OUT.pdf, --png DIR, or both';
  if (output !== null && !/\.pdf$/i.test(output))
    return `-o ${output}: the output of a render is a .pdf file`;
  if (width !== null && png === null) return '--width sets the width of the --png images; give --png DIR';
  const pixels = width === null ? DEFAULT_PREVIEW_WIDTH : Number(width);
  if (!Number.isInteger(pixels) || pixels < MIN_PREVIEW_WIDTH || pixels > MAX_PREVIEW_WIDTH) {
    return `--width "${width}": give a whole number of pixels from ${MIN_PREVIEW_WIDTH} to ${MAX_PREVIEW_WIDTH}`;
  }
  return { deck, output, png, width: pixels, quiet };
}

export async function runRender(args: string[], io: CommandIo = processIo): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    io.stdout(HELP);
    return 0;
  }
  const parsed = parse(args);
  if (typeof parsed === 'string') {
    io.stderr(`deckforge render: ${parsed}\n\n${HELP}`);
    return 2;
  }
  let renderer: CliRender | null = null;
  try {
    const slides = inspect(new Uint8Array(readFileSync(parsed.deck))).slides;
    if (!slides.some((slide) => !slide.hidden)) {
      io.stderr(`error: ${parsed.deck} has no visible slide to render\n`);
      return 1;
    }
    renderer = await openCliRenderer();
    // LibreOffice converts the deck in one step (no count to show); the PNG pages are then drawn a few at a time.
    const progress = progressLine(io, 'rendering');
    progress.step('converting with LibreOffice…');
    const withPng = parsed.png !== null;
    const rendered = await renderer
      .render(parsed.deck, {
        pdf: parsed.output !== null,
        pngWidth: withPng ? parsed.width : null,
        onPages: (done, total) => {
          if (withPng) progress.pages(done, total);
        },
      })
      .finally(() => progress.end());
    reportFonts(rendered, io, parsed.quiet);
    if (parsed.output !== null && rendered.pdfFile) {
      const target = resolve(parsed.output);
      copyFileSync(rendered.pdfFile, target);
      const pages = rendered.pageCount;
      io.stdout(
        `wrote ${target} (${pages} ${pages === 1 ? 'page' : 'pages'}, ${statSync(target).size} bytes)\n`,
      );
    }
    if (parsed.png !== null) {
      const written = writePages(rendered.pngFiles, parsed.png);
      io.stdout(
        `wrote ${written.length} slide ${written.length === 1 ? 'image' : 'images'} to ${resolve(parsed.png)}\n`,
      );
    }
    return 0;
  } catch (error) {
    return reportRenderError(error, io) ?? reportUserError(error, io);
  } finally {
    await renderer?.close();
  }
}
