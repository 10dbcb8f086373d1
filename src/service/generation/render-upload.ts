/**
 * `POST /v1.0/render` (docs/previews.md): a .pptx made elsewhere in, its PDF or a zip of its slide images
 * out. The deck goes through the template checks first (a file that is not a .pptx, or a corrupt zip, is a
 * 400 before any slide is reserved); its visible slides are reserved from the allowance like generated
 * slides, and the pages the PDF got are charged once it is made. A failed render charges nothing.
 */
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { slideCountText, writeZip } from '../../engine/index.js';
import { scratchFile, temporaryContent } from './deck-content.js';
import type { Account, RenderedUpload, RenderUpload, UploadedFile } from '../deckforge-service.js';
import { InvalidInputError } from '../errors.js';
import {
  deckBaseName,
  fontWarnings,
  renderDeck,
  requireRenderer,
  type RenderedFiles,
} from './render-deck.js';
import type { ServiceDeps } from '../service-deps.js';
import { reserveSlides } from '../usage/slide-quota.js';

export async function renderUpload(
  deps: ServiceDeps,
  account: Account,
  upload: RenderUpload,
): Promise<RenderedUpload> {
  await requireRenderer(deps);
  const deck = theDeck(upload.files);
  const inspected = await deps.pool.inspect(deck.bytes); // EngineError (400) for what is not a readable .pptx
  const visible = inspected.slides.filter((slide) => !slide.hidden).length;
  const { maxSlidesPerRequest } = deps.settings.limits;
  if (visible === 0) throw new InvalidInputError(`files: "${deck.name}" has no visible slide to render`);
  if (visible > maxSlidesPerRequest) {
    throw new InvalidInputError(
      `files: "${deck.name}" has ${slideCountText(visible)}; a render takes at most ${slideCountText(maxSlidesPerRequest)}`,
    );
  }
  const reservationId = await reserveSlides(deps, account, visible, null);
  const deckFile = scratchFile(deps.settings.scratchDir);
  let rendered: RenderedFiles | null = null;
  try {
    await writeFile(deckFile, deck.bytes);
    rendered = await renderDeck(deps, {
      accountId: account.id,
      deckFile,
      pdf: upload.format === 'pdf',
      pngWidth: upload.format === 'png' ? upload.width : null,
      signal: upload.signal,
    });
    const answer = await answerOf(rendered, upload.format, deckBaseName(deck.name));
    deps.usage.settle(reservationId, Math.min(rendered.pageCount, visible), deps.clock.now());
    return {
      ...answer,
      pageCount: rendered.pageCount,
      warnings: fontWarnings(rendered.substitutedFonts),
    };
  } catch (error) {
    await rendered?.discard();
    await deps.ledger.release(reservationId);
    throw error;
  } finally {
    await rm(deckFile, { force: true });
  }
}

/** The one .pptx of the upload (the `files` field, as on the generator). */
function theDeck(files: UploadedFile[]): UploadedFile {
  const [deck, ...others] = files;
  if (!deck) throw new InvalidInputError('files: upload the .pptx to render as the "files" part');
  if (others.length > 0) {
    throw new InvalidInputError(
      `files: ${files.length} files were sent; a render takes one .pptx (send one request per deck)`,
    );
  }
  return deck;
}

async function answerOf(
  rendered: RenderedFiles,
  format: 'pdf' | 'png',
  base: string,
): Promise<Pick<RenderedUpload, 'content' | 'format' | 'fileName'>> {
  if (format === 'pdf') {
    if (rendered.pdfFile === null) throw new Error('the renderer wrote no PDF although one was asked for');
    const { size } = await stat(rendered.pdfFile);
    return {
      content: temporaryContent(rendered.pdfFile, size, rendered.discard),
      format: 'pdf',
      fileName: `${base}.pdf`,
    };
  }
  // PNG is compressed already: stored, not deflated again.
  const entries = await Promise.all(
    rendered.pngFiles.map(async (file, index) => ({
      name: `slide-${index + 1}.png`,
      data: new Uint8Array(await readFile(file)),
      compress: false,
    })),
  );
  const zip = writeZip(entries);
  if (entries.length === 0) throw new Error('the renderer wrote no slide image although they were asked for');
  const zipFile = join(rendered.outputDir, 'slides.zip');
  await writeFile(zipFile, zip);
  return {
    content: temporaryContent(zipFile, zip.byteLength, rendered.discard),
    format: 'zip',
    fileName: `${base}-slides.zip`,
  };
}
