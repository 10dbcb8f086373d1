/**
 * Images are stored once per deck by their bytes (media-store.ts): the same bytes under two file names make one
 * media part; two different images that happen to have the same size make two, each slide showing its own.
 */
import { describe, expect, it } from 'vitest';
import { generate } from '../../../src/engine/index.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import * as img from '../../support/decks/test-images.js';
import { DeckReader } from '../../support/readers/picture-reading.js';
import { SAMPLE_WITH_SHAPES } from '../sample-with-shapes.js';

describe('image parts are shared by bytes, not by name or size', () => {
  it('same bytes under two names: one part; different bytes of the same length: two parts', async () => {
    const red = await img.png(30, 20, img.RED);
    const green = await img.png(30, 20, img.GREEN);
    // The premise: equal in length, different in content (so size alone cannot tell them apart).
    expect(green.byteLength).toBe(red.byteLength);
    expect(Buffer.compare(red, green)).not.toBe(0);
    const sources = ['red.png', 'red-again.png', 'green.png'];
    const files = new Map<string, Uint8Array>([
      ['template.pptx', SAMPLE_WITH_SHAPES],
      ['red.png', red],
      ['red-again.png', red.slice()],
      ['green.png', green],
    ]);
    const result = generate({
      payload: {
        presentation: {
          template: 'template.pptx',
          slides: sources.map((filename) => ({ slide_index: 1, shapes: [{ name: 'Badge', filename }] })),
        },
      },
      files,
    });
    await expectValidPptx(result.bytes, SAMPLE_WITH_SHAPES);
    const reader = new DeckReader(result.bytes);
    const media = Object.keys(reader.files).filter((name) => name.startsWith('ppt/media/'));
    expect(media).toHaveLength(2);
    const shown = reader.slideParts().map((part) => reader.picture(part, 'Badge'));
    expect(shown[0]!.rasterPart).toBe(shown[1]!.rasterPart);
    expect(shown[2]!.rasterPart).not.toBe(shown[0]!.rasterPart);
    expect(shown.map((view) => Buffer.from(view.raster!))).toEqual(
      [red, red, green].map((b) => Buffer.from(b)),
    );
  });
});
