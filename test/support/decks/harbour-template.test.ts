import { describe, expect, it } from 'vitest';
import { inspect } from '../../../src/engine/index.js';
import { harbourTemplate } from './harbour-template.js';
import { checkPackageInvariants } from '../checks/package-invariants.js';
import { tableStyleDeck } from './table-style-deck.js';
import { validatePptx } from '../checks/validator.js';

describe('the owned multi-template decks (harbour-template.ts, table-style-deck.ts)', () => {
  it.each(['4:3', '16:9'] as const)(
    'Harbour in %s is a sound package the Open XML SDK validator finds nothing wrong with',
    async (size) => {
      const deck = harbourTemplate(size);
      expect(checkPackageInvariants(deck)).toEqual([]);
      expect(await validatePptx(deck)).toEqual([]);
      const info = inspect(deck);
      expect(info.slideSize).toEqual({ cx: size === '4:3' ? 9144000 : 12192000, cy: 6858000 });
      expect(info.slides.map((s) => s.shapes.map((sh) => sh.name))).toEqual([
        ['Headline', 'Text'],
        ['Headline', 'Text'],
        ['Headline', 'Text'],
      ]);
    },
  );

  it('the table style deck is as sound', async () => {
    const deck = tableStyleDeck();
    expect(checkPackageInvariants(deck)).toEqual([]);
    expect(await validatePptx(deck)).toEqual([]);
  });
});
