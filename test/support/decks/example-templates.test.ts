import { describe, expect, it } from 'vitest';
import { inspect } from '../../../src/engine/index.js';
import { packageFiles, readChartSeries, textOf, workbookReader } from '../readers/chart-reading.js';
import { EXAMPLE_FILES } from './example-templates.js';
import { checkPackageInvariants } from '../checks/package-invariants.js';
import { validatePptx } from '../checks/validator.js';

const decks = [...EXAMPLE_FILES].filter(([name]) => name.endsWith('.pptx'));

describe("the owned templates of the docs' examples (example-templates.ts)", () => {
  it.each(decks)(
    '%s is a sound package the validator finds nothing wrong with',
    async (_name, deck) => {
      expect(checkPackageInvariants(deck)).toEqual([]);
      expect(await validatePptx(deck)).toEqual([]);
    },
    60_000,
  );

  it('has every shape the docs name, of the kind its example needs', () => {
    const kinds = new Map(
      decks.flatMap(([, deck]) =>
        inspect(deck).slides.flatMap((s) => s.shapes.map((sh) => [sh.name, sh.chart?.types[0] ?? sh.kind])),
      ),
    );
    expect(
      Object.fromEntries(
        ['Trial results', 'Market sizes', 'Orders', 'Scores', 'Trials', 'Logo', 'Hero photo'].map((n) => [
          n,
          kinds.get(n),
        ]),
      ),
    ).toEqual({
      'Trial results': expect.stringMatching(/^scatter/),
      'Market sizes': expect.stringMatching(/^bubble/),
      Orders: expect.stringMatching(/^line/),
      Scores: 'histogram',
      Trials: 'boxWhisker',
      Logo: 'picture',
      'Hero photo': 'picture',
    });
  });

  it("the dates chart's workbook holds as dates what its category cache holds as serials", async () => {
    const files = packageFiles(EXAMPLE_FILES.get('charts.pptx')!);
    const [series] = readChartSeries(textOf(files, 'ppt/charts/chart4.xml'));
    expect(textOf(files, 'ppt/charts/chart4.xml')).toContain('<c:formatCode>m/d/yy</c:formatCode>');
    const book = await workbookReader(files['ppt/embeddings/Generated_Worksheet4.xlsx']!);
    expect(book.cells(series!.categoryFormula!)).toEqual(series!.categories.map(Number));
    expect(book.cells(series!.valueFormula!)).toEqual(series!.values);
  });
});
