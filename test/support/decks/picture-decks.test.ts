import { describe, expect, it } from 'vitest';
import { inspect } from '../../../src/engine/index.js';
import { checkPackageInvariants } from '../checks/package-invariants.js';
import { picturesDeck } from './picture-decks.js';
import { renderToPngs } from '../readers/render.js';
import { BLUE, GREEN, pixelAt } from './test-images.js';
import { validatePptx } from '../checks/validator.js';

describe('the owned picture template (picture-decks.ts)', () => {
  it('is a sound package the Open XML SDK validator finds nothing wrong with', async () => {
    const deck = picturesDeck();
    expect(checkPackageInvariants(deck)).toEqual([]);
    expect(await validatePptx(deck)).toEqual([]);
  });

  it('holds the pictures it says, on three slides', () => {
    const pictures = inspect(picturesDeck()).slides.map((s) =>
      s.shapes.filter((sh) => sh.kind === 'picture').map((sh) => sh.name),
    );
    expect(pictures).toEqual([
      ['imagePNG', 'imageJPG'],
      ['Top 0.33', 'Left 0.5', 'RoundedRectangle'],
      ['Linked picture'],
    ]);
  });

  it('LibreOffice draws its embedded pictures where their frames are', async () => {
    // Slide 0 at 50 dpi (500 × 375 px): (84, 133) is inside imagePNG's frame, (320, 154) inside imageJPG's.
    const [first] = await renderToPngs(picturesDeck());
    const near = (a: { r: number; g: number; b: number }, e: typeof BLUE): boolean =>
      Math.abs(a.r - e.r) < 30 && Math.abs(a.g - e.g) < 30 && Math.abs(a.b - e.b) < 30;
    expect(near(await pixelAt(first!, 84, 133), BLUE)).toBe(true);
    expect(near(await pixelAt(first!, 320, 154), GREEN)).toBe(true);
  }, 120_000);
});
