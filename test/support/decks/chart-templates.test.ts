import { describe, expect, it } from 'vitest';
import {
  chartItemOf,
  packageFiles,
  readChartSeries,
  textOf,
  workbookItemOf,
  workbookReader,
} from '../readers/chart-reading.js';
import { chartDeck, generatedChartsDeck, WORKBOOK_NOTE } from './chart-templates.js';
import { checkPackageInvariants } from '../checks/package-invariants.js';
import { renderToPdfText } from '../readers/render.js';
import { validatePptx } from '../checks/validator.js';

/** Every chart of a deck: its cached series against the workbook cells their formulas name. */
async function cachesAndCells(bytes: Uint8Array) {
  const files = packageFiles(bytes);
  const slides = Object.keys(files).filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n));
  const found = [];
  for (const slide of slides) {
    const item = chartItemOf(files, slide, 6);
    const book = await workbookReader(files[workbookItemOf(files, item)!]!);
    for (const s of readChartSeries(textOf(files, item))) {
      found.push({
        item,
        cached: [s.name, s.values],
        cells: [
          book.cells(s.nameFormula!)[0],
          book.cells(s.valueFormula ?? s.nameFormula!.replace('1', '2')),
        ],
      });
    }
  }
  return found;
}

describe('owned chart templates (chart-templates.ts)', () => {
  it('the one-chart deck is a sound package the Open XML SDK validator finds nothing wrong with', async () => {
    const deck = chartDeck();
    expect(checkPackageInvariants(deck)).toEqual([]);
    expect(await validatePptx(deck)).toEqual([]);
  });

  it('the deck of every generated chart type is as sound', async () => {
    const deck = generatedChartsDeck().bytes;
    expect(checkPackageInvariants(deck)).toEqual([]);
    expect(await validatePptx(deck)).toEqual([]);
  }, 60_000);

  it("holds in each workbook what the chart's caches hold, a table over the data and a note beside it", async () => {
    const deck = generatedChartsDeck().bytes;
    const series = await cachesAndCells(deck);
    expect(series.length).toBeGreaterThan(40);
    for (const s of series) expect(s.cells, s.item).toEqual(s.cached);
    const files = packageFiles(chartDeck());
    const book = await workbookReader(files['ppt/embeddings/Microsoft_Excel_Worksheet1.xlsx']!);
    expect(book.cells('Sheet1!$A$1:$D$2')).toEqual([
      ' ',
      'Series 1',
      'Series 2',
      'Series 3',
      'Category 1',
      11,
      21,
      31,
    ]);
    expect(book.cells('Sheet1!$B$8')).toEqual([WORKBOOK_NOTE]);
    const workbook = packageFiles(files['ppt/embeddings/Microsoft_Excel_Worksheet1.xlsx']!);
    expect(new TextDecoder().decode(workbook['xl/tables/table1.xml'])).toContain('ref="A1:D5"');
  });
});

describe('owned chart templates in LibreOffice', () => {
  it('draws the chart deck with its title, series and categories', async () => {
    const [page] = await renderToPdfText(chartDeck());
    expect(page).toContain('Chart (2D)');
    expect(page).toContain('Category 4');
    expect(page).toContain('Series 3');
  }, 120_000);
});
