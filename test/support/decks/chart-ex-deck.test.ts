import { describe, expect, it } from 'vitest';
import { generatedChartExDeck, sunburstDeck } from './chart-ex-deck.js';
import {
  chartItemOf,
  packageFiles,
  readChartExSeries,
  textOf,
  workbookItemOf,
  workbookReader,
} from '../readers/chart-reading.js';
import { checkPackageInvariants } from '../checks/package-invariants.js';
import { renderToPdfText } from '../readers/render.js';
import { validatePptx } from '../checks/validator.js';

describe('owned chartEx templates (chart-ex-deck.ts)', () => {
  it('the sunburst deck and the deck of every layout are sound packages the validator finds nothing wrong with', async () => {
    for (const deck of [sunburstDeck(), generatedChartExDeck().bytes]) {
      expect(checkPackageInvariants(deck)).toEqual([]);
      expect(await validatePptx(deck)).toEqual([]);
    }
  }, 60_000);

  it("holds in each workbook what the chart's caches hold: names, values and every category level", async () => {
    const files = packageFiles(generatedChartExDeck().bytes);
    const slides = Object.keys(files).filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n));
    expect(slides).toHaveLength(9);
    let checked = 0;
    for (const slide of slides) {
      const item = chartItemOf(files, slide, 6);
      const book = await workbookReader(files[workbookItemOf(files, item)!]!);
      for (const s of readChartExSeries(textOf(files, item)).filter((x) => x.dataId !== null)) {
        expect(book.cells(s.nameFormula!), item).toEqual([s.name]);
        expect(book.cells(s.valueFormula!), item).toEqual(s.values);
        if (s.categoryLevels) {
          // The formula spans the levels' columns, root first; each level's cells by row from the leaf column.
          const cells = book.cells(s.categoryFormula!);
          const width = s.categoryLevels.length;
          s.categoryLevels.forEach((level, l) =>
            expect(
              level.map((_, r) => cells[r * width + (width - 1 - l)] ?? ''),
              `${item} level ${l}`,
            ).toEqual(level),
          );
        }
        checked++;
      }
    }
    expect(checked).toBe(10);
  });
});

describe('owned chartEx templates in LibreOffice', () => {
  it('draws the sunburst slide (LibreOffice shows the fallback picture where the chart is)', async () => {
    const [page] = await renderToPdfText(sunburstDeck());
    expect(page).toContain('Sunburst');
  }, 120_000);
});
