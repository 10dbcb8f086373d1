/**
 * `render_preview` (docs/mcp.md): pictures of chosen slides of a generated deck (a job's result, by its id) or of
 * a stored template. The chosen slides are first copied into a deck of their own by the engine (a payload of
 * `slide_index` entries, on the generation pool, uncharged: it makes nothing the caller gets), unless they are
 * every slide of the deck in order (the deck is then drawn as it is, read once), which is then drawn
 * and charged exactly as `POST /v1.0/render` with `format=png` draws and charges a deck (charged-render.ts): one
 * slide per picture, by the same sandboxed renderer pool. Hidden slides stay hidden and have no picture.
 */
import { readFile } from 'node:fs/promises';
import type { Account, PreviewSource, SlidePreviews } from '../deckforge-service.js';
import { InvalidInputError, NotFoundError } from '../errors.js';
import { chargedRender } from '../generation/charged-render.js';
import { removeScratchFile, scratchFile } from '../generation/deck-content.js';
import { fontWarnings, requireRenderer } from '../generation/render-deck.js';
import { runGeneration } from '../generation/run-generation.js';
import type { ServiceDeps } from '../service-deps.js';
import { inspectByHash, sha256Of } from '../inspect-results.js';
import { findStored } from '../templates/template-queries.js';
import { readTemplateBytes } from '../templates/template-queries.js';
import { accountJob } from './job-status.js';
import { jobFileBytes } from './job-result.js';

const DECK_NAME = 'preview.pptx';
/** A copy of a few slides comes back from the generation thread in memory. */
const COPY_IN_MEMORY_BYTES = 64 * 1024 * 1024;

export async function previewSlides(
  deps: ServiceDeps,
  account: Account,
  source: PreviewSource,
  slides: number[],
  longSide: number,
): Promise<SlidePreviews> {
  await requireRenderer(deps); // before anything is read for nothing
  const { bytes, hash } = await sourceDeck(deps, account, source);
  const inspected = await inspectByHash(deps, hash, () => bytes);
  const count = inspected.slides.length;
  const outside = slides.find((index) => index >= count);
  if (outside !== undefined) {
    throw new InvalidInputError(
      `slides: there is no slide ${outside}; the ${'deckId' in source ? 'deck' : 'template'} has ${count} (0 to ${count - 1})`,
    );
  }
  const size = inspected.slideSize ?? { cx: 12192000, cy: 6858000 };
  const width = size.cx >= size.cy ? longSide : Math.max(1, Math.round((longSide * size.cx) / size.cy));
  // Every slide in order (a deck just generated, looked at whole) is the deck itself: no copy to make and read.
  const whole = slides.length === count && slides.every((index, k) => index === k);
  const copy = whole ? bytes : await copySlides(deps, bytes, hash, slides);
  // The copy's slide k is the caller's slides[k]; its visible ones are drawn, in order.
  return chargedRender(
    deps,
    account,
    { name: DECK_NAME, bytes: copy },
    { pdf: false, pngWidth: width },
    async (rendered, visible) => {
      try {
        const pictures = await Promise.all(
          rendered.pngFiles.slice(0, visible.length).map(async (file, page) => ({
            index: slides[visible[page]!]!,
            png: new Uint8Array(await readFile(file)),
          })),
        );
        return { slides: pictures, warnings: fontWarnings(rendered) };
      } finally {
        await rendered.discard();
      }
    },
    whole ? inspected : undefined,
  );
}

async function sourceDeck(
  deps: ServiceDeps,
  account: Account,
  source: PreviewSource,
): Promise<{ bytes: Uint8Array; hash: string }> {
  if ('template' in source) {
    const record = await findStored(deps, account, source.template.trim());
    if (!record)
      throw new NotFoundError(`template: "${source.template}" is no stored template of this account`);
    return { bytes: await readTemplateBytes(deps, record), hash: record.sha256 };
  }
  const job = await accountJob(deps, account, source.deckId);
  if (job.state !== 'SUCCEEDED' || !job.resultKey) {
    throw new InvalidInputError(
      `deck_id: the job ${job.id} is ${job.state}; a preview needs its finished deck`,
    );
  }
  if (!job.resultKey.endsWith('.pptx')) {
    throw new InvalidInputError(`deck_id: the job ${job.id} made a PDF, not a deck to draw slides of`);
  }
  const bytes = await jobFileBytes(deps, job, job.resultKey);
  if (!bytes) throw new NotFoundError(`deck_id: the deck of job ${job.id} no longer exists`);
  return { bytes, hash: sha256Of(bytes) };
}

async function copySlides(
  deps: ServiceDeps,
  bytes: Uint8Array,
  hash: string,
  slides: number[],
): Promise<Uint8Array> {
  const file = scratchFile(deps.settings.scratchDir);
  try {
    const result = await runGeneration(
      deps,
      {
        payload: {
          presentation: { template: DECK_NAME, slides: slides.map((index) => ({ slide_index: index })) },
        },
        files: new Map([[DECK_NAME, bytes]]),
        fileHashes: new Map([[DECK_NAME, hash]]),
      },
      file,
      undefined,
      COPY_IN_MEMORY_BYTES,
    );
    return 'bytes' in result ? result.bytes : new Uint8Array(await readFile(file));
  } finally {
    await removeScratchFile(file);
  }
}
