/**
 * An image as an auto-shape's fill (docs/payload-pictures.md): the shape keeps its frame, and the fit shows in
 * the blip fill — `contain` letterboxes with `a:stretch/a:fillRect` insets across the image's short axis,
 * `cover` crops with `a:srcRect` along its long axis. Badge is 2:1, so a 4:1 image is wider and a 1:4 one taller.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { GenerateResult } from '../../../src/engine/index.js';
import { ConversionProcess } from '../../../src/image-preparation/conversion-process.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { generateWithImages } from '../../support/decks/generate-with-images.js';
import * as img from '../../support/decks/test-images.js';
import { DeckReader } from '../../support/readers/picture-reading.js';
import { BADGE, SAMPLE_WITH_SHAPES } from '../sample-with-shapes.js';

/** Images are converted in a child process, as in the worker thread (one for the whole file). */
const converter = new ConversionProcess({ timeoutMs: 60_000, memoryMb: 2048 });
afterAll(() => converter.close());

async function fillBadge(fits: { file: string; fit: string }[]): Promise<GenerateResult> {
  const files = new Map<string, Uint8Array>([
    ['template.pptx', SAMPLE_WITH_SHAPES],
    ['wide.png', await img.png(400, 100, img.BLUE)],
    ['tall.png', await img.png(100, 400, img.GREEN)],
  ]);
  const payload = {
    presentation: {
      template: 'template.pptx',
      slides: fits.map(({ file, fit }) => ({
        slide_index: 1,
        shapes: [{ name: 'Badge', filename: file, fit }],
      })),
    },
  };
  const result = await generateWithImages(payload, files, { converter });
  await expectValidPptx(result.bytes, SAMPLE_WITH_SHAPES);
  return result;
}

const NONE = { l: 0, t: 0, r: 0, b: 0 };

describe('an image as a shape fill, fitted', () => {
  it('contain: a wider image gets bands above and below, a taller one left and right; nothing is cropped', async () => {
    const result = await fillBadge([
      { file: 'wide.png', fit: 'contain' },
      { file: 'tall.png', fit: 'contain' },
    ]);
    const reader = new DeckReader(result.bytes);
    const [wide, tall] = reader.slideParts().map((part) => reader.picture(part, 'Badge'));
    // 4:1 in 2:1: the image is half the box's height, a quarter of it above and below.
    expect(wide!.fillRect).toEqual({ l: 0, t: 25_000, r: 0, b: 25_000 });
    // 1:4 in 2:1: the image is an eighth of the box's width, 43.75 % of it left and right.
    expect(tall!.fillRect).toEqual({ l: 43_750, t: 0, r: 43_750, b: 0 });
    for (const view of [wide!, tall!]) {
      expect(view.element.name).toBe('p:sp');
      expect(view.box).toEqual(BADGE);
      expect(view.srcRect).toEqual(NONE);
    }
    expect(await img.pixelAt(wide!.raster!, 1, 1)).toEqual(img.BLUE);
    expect(await img.pixelAt(tall!.raster!, 1, 1)).toEqual(img.GREEN);
  });

  it('cover: a wider image is cropped left and right, a taller one top and bottom; the box is filled', async () => {
    const result = await fillBadge([
      { file: 'wide.png', fit: 'cover' },
      { file: 'tall.png', fit: 'cover' },
    ]);
    const reader = new DeckReader(result.bytes);
    const [wide, tall] = reader.slideParts().map((part) => reader.picture(part, 'Badge'));
    // 4:1 shown 2:1: half its width stays, a quarter cut each side.
    expect(wide!.srcRect).toEqual({ l: 25_000, t: 0, r: 25_000, b: 0 });
    // 1:4 shown 2:1: an eighth of its height stays, 43.75 % cut above and below.
    expect(tall!.srcRect).toEqual({ l: 0, t: 43_750, r: 0, b: 43_750 });
    for (const view of [wide!, tall!]) {
      expect(view.box).toEqual(BADGE);
      expect(view.fillRect).toEqual(NONE);
    }
  });
});
