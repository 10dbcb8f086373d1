/**
 * The slide limit counts a long table's continuation slides (docs/payload-tables.md): a deck that reaches the
 * limit exactly, copies included, is made; one slide more is refused before anything is built.
 */
import { describe, expect, it } from 'vitest';
import { generate, type GenerateResult } from '../../../src/engine/index.js';
import { engineErrorOf } from '../../support/checks/engine-error.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { SAMPLE_WITH_SHAPES } from '../sample-with-shapes.js';

const rows = [['Region'], ...Array.from({ length: 40 }, (_, r) => [`Row ${r + 1}`])];
// The long table, then a slide after it: the limit must count the slides still to come as well.
const payload = {
  presentation: {
    template: 't.pptx',
    slides: [
      { slide_index: 1, shapes: [{ name: 'Table 1', content: rows, overflow: 'continue' }] },
      { slide_index: 0 },
    ],
  },
};
const files = new Map([['t.pptx', SAMPLE_WITH_SHAPES]]);
const deckWithin = (maxSlides?: number): GenerateResult =>
  generate({ payload, files, ...(maxSlides === undefined ? {} : { maxSlides }) });

describe('the slide limit with continuation slides', () => {
  const unlimited = deckWithin();
  const slides = unlimited.slideCount;

  it('the table takes several slides (the premise of the limit checks)', () => {
    expect(slides).toBeGreaterThanOrEqual(4);
  });

  it('a deck of exactly the limit, copies included, is made', async () => {
    const result = deckWithin(slides);
    expect(result.slideCount).toBe(slides);
    await expectValidPptx(result.bytes, SAMPLE_WITH_SHAPES);
  });

  it('one slide over the limit is refused, naming the table and the limit', () => {
    const error = engineErrorOf(() => deckWithin(slides - 1));
    expect(error.code).toBe('TOO_MANY_SLIDES');
    expect(error.path).toBe('presentation.slides[0].shapes[0].content');
    expect(error.message).toContain('table "Table 1" continues on more slides than a deck may have');
    expect(error.message).toContain(`more than ${slides - 1} slides`);
  });
});
