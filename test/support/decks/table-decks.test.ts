import { describe, expect, it } from 'vitest';
import { inspect } from '../../../src/engine/index.js';
import { parts } from './deck.js';
import { checkPackageInvariants } from '../checks/package-invariants.js';
import { renderToPdfText } from '../readers/render.js';
import { tablesDeck } from './table-decks.js';
import { mergeProblems, tablesIn } from '../readers/table-reading.js';
import { validatePptx } from '../checks/validator.js';

describe('the owned table template (table-decks.ts)', () => {
  it('is a sound package the Open XML SDK validator finds nothing wrong with', async () => {
    const deck = tablesDeck();
    expect(checkPackageInvariants(deck)).toEqual([]);
    expect(await validatePptx(deck)).toEqual([]);
  });

  it('holds the tables it says, with well-formed merges', () => {
    const deck = tablesDeck();
    const slides = inspect(deck).slides.map((s) =>
      s.shapes.filter((sh) => sh.kind === 'table').map((sh) => [sh.name, sh.table!.rows, sh.table!.columns]),
    );
    expect(slides).toEqual([
      [
        ['Table 1', 6, 5],
        ['Table 2', 2, 5],
      ],
      [
        ['TableWithHeader', 3, 4],
        ['TableDefault', 2, 4],
        ['TableWithFormattedCells', 3, 2],
        ['TableWithEmptyCells', 3, 2],
        ['EmptyTable', 1, 3],
      ],
      [['Merged across', 6, 3]],
      [['Merged down', 6, 4]],
      [['Merged both ways', 5, 4]],
    ]);
    const all = parts(deck);
    for (const n of [3, 4, 5]) {
      const [t] = tablesIn(all.get(`ppt/slides/slide${n}.xml`)!);
      expect(mergeProblems(t!), t!.name).toEqual([]);
    }
  });

  it('LibreOffice draws the tables with their text', async () => {
    const pages = await renderToPdfText(tablesDeck());
    expect(pages).toHaveLength(5);
    expect(pages[1]).toContain('Header 4');
    expect(pages[2]).toContain('C: 4, 0');
    expect(pages[4]).toContain('C: 0, 0 merged 2 x 2');
  }, 120_000);
});
