/**
 * `POST /v1.0/render` (docs/previews.md): a .pptx made elsewhere in, its PDF or a zip of its slide images
 * out. The deck goes through the template checks first (a file that is not a .pptx, or a corrupt zip, is a
 * 400 before any slide is reserved); its visible slides are reserved from the allowance like generated
 * slides, and the pages the PDF got are charged once it is made. A failed render charges nothing.
 */
import { refuseEmptyUploads } from '../empty-upload.js';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeZip } from '../../engine/index.js';
import { temporaryContent } from './deck-content.js';
import type { Account, RenderedUpload, RenderUpload, UploadedFile } from '../deckforge-service.js';
import { InvalidInputError } from '../errors.js';
import { chargedRender } from './charged-render.js';
import { deckBaseName, fontWarnings, type RenderedFiles } from './render-deck.js';
import type { ServiceDeps } from '../service-deps.js';

export async function renderUpload(
  deps: ServiceDeps,
  account: Account,
  upload: RenderUpload,
): Promise<RenderedUpload> {
  refuseEmptyUploads('files', upload.files);
  const deck = theDeck(upload.files);
  const ask = {
    pdf: upload.format === 'pdf',
    pngWidth: upload.format === 'png' ? upload.width : null,
    signal: upload.signal,
  };
  return chargedRender(deps, account, deck, ask, async (rendered) => ({
    ...(await answerOf(rendered, upload.format, deckBaseName(deck.name))),
    pageCount: rendered.pageCount,
    warnings: fontWarnings(rendered),
  }));
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
