/**
 * A JPEG turned by its EXIF orientation is stored with its pixels upright (PowerPoint ignores the tag,
 * docs/powerpoint-rules.md "Image formats and orientation"). A one-colour image hides direction and mirroring, so
 * each test image has four corners of four colours, and the deck's image must show each corner where the
 * orientation's definition puts it (EXIF 2.3, tag 0x0112: which visual side the stored first row and first column
 * become).
 */
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { ConversionProcess } from '../../../src/image-preparation/conversion-process.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { generateWithImages } from '../../support/decks/generate-with-images.js';
import { BLUE, GREEN, pixelAt, RED, type Rgb } from '../../support/decks/test-images.js';
import { DeckReader } from '../../support/readers/picture-reading.js';
import { SAMPLE_WITH_SHAPES } from '../sample-with-shapes.js';

/** Images are converted in a child process, as in the worker thread (one for the whole file). */
const converter = new ConversionProcess({ timeoutMs: 60_000, memoryMb: 2048 });
afterAll(() => converter.close());

const YELLOW: Rgb = { r: 240, g: 220, b: 30 };
type Corner = 'topLeft' | 'topRight' | 'bottomLeft' | 'bottomRight';
// Stored 64 × 32; quadrants of 32 × 16 px line up with JPEG's 16 × 16 blocks, so the colours stay clean.
const STORED = { width: 64, height: 32 };
const STORED_CORNERS: Record<Corner, Rgb> = {
  topLeft: RED,
  topRight: GREEN,
  bottomLeft: BLUE,
  bottomRight: YELLOW,
};

/** Where each stored corner shows once the image is upright, per orientation. */
const SHOWN_AT: Record<number, Record<Corner, Corner>> = {
  // 2: first row at the top, first column at the right (a mirror image).
  2: { topLeft: 'topRight', topRight: 'topLeft', bottomLeft: 'bottomRight', bottomRight: 'bottomLeft' },
  // 5: first row at the left, first column at the top (mirrored and turned).
  5: { topLeft: 'topLeft', topRight: 'bottomLeft', bottomLeft: 'topRight', bottomRight: 'bottomRight' },
  // 6: first row at the right, first column at the top (a quarter turn clockwise).
  6: { topLeft: 'topRight', topRight: 'bottomRight', bottomLeft: 'topLeft', bottomRight: 'bottomLeft' },
  // 8: first row at the left, first column at the bottom (a quarter turn anticlockwise).
  8: { topLeft: 'bottomLeft', topRight: 'topLeft', bottomLeft: 'bottomRight', bottomRight: 'topRight' },
};

async function fourCornerJpeg(orientation: number): Promise<Uint8Array> {
  const { width, height } = STORED;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const corner: Corner = `${y < height / 2 ? 'top' : 'bottom'}${x < width / 2 ? 'Left' : 'Right'}`;
      const { r, g, b } = STORED_CORNERS[corner];
      pixels.set([r, g, b], (y * width + x) * 3);
    }
  const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .withMetadata({ orientation })
    .toBuffer();
  return new Uint8Array(jpeg);
}

function near(expected: Rgb): (actual: Rgb) => boolean {
  return (actual) =>
    Math.abs(actual.r - expected.r) < 24 &&
    Math.abs(actual.g - expected.g) < 24 &&
    Math.abs(actual.b - expected.b) < 24;
}

describe('EXIF-turned JPEGs are stored upright', () => {
  it('orientations 6 and 8 (turned) and 2 and 5 (mirrored) show each corner where it belongs', async () => {
    const orientations = [6, 8, 2, 5];
    const files = new Map<string, Uint8Array>([['template.pptx', SAMPLE_WITH_SHAPES]]);
    for (const o of orientations) files.set(`o${o}.jpg`, await fourCornerJpeg(o));
    const payload = {
      presentation: {
        template: 'template.pptx',
        slides: orientations.map((o) => ({
          slide_index: 1,
          shapes: [{ name: 'Badge', filename: `o${o}.jpg`, fit: 'stretch' }],
        })),
      },
    };
    const result = await generateWithImages(payload, files, { converter });
    await expectValidPptx(result.bytes, SAMPLE_WITH_SHAPES);
    const reader = new DeckReader(result.bytes);
    for (const [i, part] of reader.slideParts().entries()) {
      const orientation = orientations[i]!;
      const raster = reader.picture(part, 'Badge').raster!;
      const meta = await sharp(raster).metadata();
      const turned = orientation >= 5;
      expect(meta.format).toBe('jpeg');
      expect(meta.orientation ?? 1, `orientation ${orientation}: tag cleared`).toBe(1);
      expect({ width: meta.width, height: meta.height }, `orientation ${orientation}: size`).toEqual(
        turned ? { width: STORED.height, height: STORED.width } : STORED,
      );
      const [w, h] = [meta.width!, meta.height!];
      const at: Record<Corner, [number, number]> = {
        topLeft: [3, 3],
        topRight: [w - 4, 3],
        bottomLeft: [3, h - 4],
        bottomRight: [w - 4, h - 4],
      };
      for (const [stored, shown] of Object.entries(SHOWN_AT[orientation]!) as [Corner, Corner][]) {
        const [x, y] = at[shown];
        expect(
          await pixelAt(raster, x, y),
          `orientation ${orientation}: stored ${stored} at ${shown}`,
        ).toSatisfy(near(STORED_CORNERS[stored]));
      }
    }
  });
});
