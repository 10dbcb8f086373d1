/**
 * The pictures the console's inspector draws its boxes on (docs/console.md, "The pages"): a PNG of each visible
 * slide of a template, made and charged as `POST /v1.0/render` with `format=png` makes and charges them
 * (charged-render.ts), and handed back as bytes with the index of the slide each one shows.
 */
import { readFile } from 'node:fs/promises';
import type { Account, SlidePictures, TemplateSource } from '../deckforge-service.js';
import type { ServiceDeps } from '../service-deps.js';
import { chargedRender } from './charged-render.js';
import { templateOf } from './inspect-template.js';
import { fontWarnings, requireRenderer } from './render-deck.js';

export async function slidePictures(
  deps: ServiceDeps,
  account: Account,
  source: TemplateSource,
  options: { width: number; signal?: AbortSignal },
): Promise<SlidePictures> {
  await requireRenderer(deps); // before a template URL is fetched for nothing
  const template = await templateOf(deps, account, source);
  const ask = { pdf: false, pngWidth: options.width, signal: options.signal };
  return chargedRender(deps, account, template, ask, async (rendered, visibleSlides) => {
    try {
      // One page per visible slide, in order; should LibreOffice make fewer, the last slides have none.
      const slides = await Promise.all(
        rendered.pngFiles.slice(0, visibleSlides.length).map(async (file, page) => ({
          index: visibleSlides[page]!,
          png: new Uint8Array(await readFile(file)),
        })),
      );
      return { slides, warnings: fontWarnings(rendered) };
    } finally {
      await rendered.discard();
    }
  });
}

export async function previewsStatus(deps: ServiceDeps): Promise<{ available: boolean; reason?: string }> {
  await deps.renderer.detected();
  const { available, reason } = deps.renderer.status();
  return reason === undefined ? { available } : { available, reason };
}
