/**
 * The chartEx layouts (waterfall, funnel, treemap, histogram, pareto, box & whisker, region map) from test
 * templates written from the chartex schema (test/support/decks/chart-ex-templates.ts), swept like the classic types:
 * more and fewer series and points, caches and workbook read back.
 */
import { describe, expect, it } from 'vitest';
import { generate, inspect, type GenerateResult } from '../../../src/engine/index.js';
import { generatedChartExDeck } from '../../support/decks/chart-ex-deck.js';
import {
  chartItemOf,
  packageFiles,
  readChartExSeries,
  textOf,
  workbookItemOf,
  workbookReader,
} from '../../support/readers/chart-reading.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import {
  formatValidatorResult,
  validatePptx,
  validateXlsx,
  validatorErrorKey,
} from '../../support/checks/validator.js';
import { sweepCharts } from './chart-sweep.js';
import { slideParts } from '../../support/decks/deck.js';

describe('generated chartEx layouts', () => {
  const deck = generatedChartExDeck();

  it('the generated templates are sound and inspect reports their types', async () => {
    expect(await validatePptx(deck.bytes)).toEqual([]);
    const types = inspect(deck.bytes).slides.map(
      (s) => s.shapes.find((sh) => sh.kind === 'chart')?.chart?.types,
    );
    expect(types).toEqual([
      ['sunburst'],
      ['waterfall'],
      ['waterfall'],
      ['funnel'],
      ['treemap'],
      ['histogram'],
      ['pareto'],
      ['boxWhisker'],
      ['regionMap'],
    ]);
  }, 120_000);

  it('every layout filled with more and fewer series and points', async () => {
    await sweepCharts(deck.bytes, 'chartEx');
  }, 180_000);
});

const AT = (slide: number): string => `presentation.slides[${slide}].shapes[0].content`;

/** Fills "Chart 5" of each given template slide with its content, one output slide each. */
function fill(
  template: Uint8Array,
  slides: [index: number, content: Record<string, unknown>][],
): GenerateResult {
  return generate({
    files: new Map([['t.pptx', template]]),
    payload: {
      presentation: {
        template: 't.pptx',
        slides: slides.map(([index, content]) => ({
          slide_index: index,
          shapes: [{ name: 'Chart 5', content }],
        })),
      },
    },
  });
}

/** The chartEx part and workbook of "Chart 5" on output slide `position`. */
async function chartExAt(result: GenerateResult, position: number) {
  const files = packageFiles(result.bytes);
  const item = chartItemOf(files, slideParts(result.bytes)[position] as string, 6);
  const xml = textOf(files, item);
  const workbookItem = workbookItemOf(files, item);
  return {
    xml,
    series: readChartExSeries(xml),
    book: workbookItem ? await workbookReader(files[workbookItem] as Uint8Array) : null,
  };
}

describe('what content means for each chartEx layout', () => {
  const deck = generatedChartExDeck();
  const result = fill(deck.bytes, [
    [5, { categories: ['a', 'b', 'c'], series: [{ name: 'Scores', values: [1, 2, 3] }] }],
    [
      5,
      {
        series: [
          { name: 'A', values: [5, 6, 7, 8, 9] },
          { name: 'B', values: [1, 2, 3] },
        ],
      },
    ],
    [7, { series: [{ name: 'X', values: [1, 2, 3, 4] }] }],
    [8, { series: [{ name: 'Pop 2030', values: [14, 7, 4.5] }] }],
    [8, { categories: ['Texas', 'Ohio'], series: [{ name: 'Pop', values: [1, 2] }] }],
    [
      2,
      {
        categories: ['a', 'b', 'c', 'd'],
        series: [{ name: 'Flow', values: [10, -2, 3, 11] }],
      },
    ],
    [
      3,
      {
        categories: ['In', 'Out'],
        series: [
          { name: 'One', values: [9, 4] },
          { name: 'Two', values: [8, 3] },
        ],
      },
    ],
  ]);
  const warningsAt = (position: number): string[] =>
    result.warnings.filter((w) => w.path === AT(position)).map((w) => w.message);

  it('produces a sound deck', async () => {
    await expectValidPptx(result.bytes, deck.bytes);
  }, 120_000);

  it('a histogram bins its values: categories given are not used, shorter series end in gaps', async () => {
    expect(warningsAt(0)).toEqual([
      'chart "Chart 5": a histogram sorts its values into bins and draws no categories; the categories given were not used',
    ]);
    const given = await chartExAt(result, 0);
    expect(given.series[0]).toMatchObject({ categoryLevels: null, values: [1, 2, 3] });
    expect(given.book!.cells('Sheet1!$A$1:$A$4')).toEqual(['Scores', 1, 2, 3]);

    expect(warningsAt(1)).toEqual([]);
    const two = await chartExAt(result, 1);
    expect(two.series.map((s) => [s.name, s.values, s.valueFormula])).toEqual([
      ['A', [5, 6, 7, 8, 9], 'Sheet1!$A$2:$A$6'],
      ['B', [1, 2, 3, null, null], 'Sheet1!$B$2:$B$6'],
    ]);
    expect(two.book!.cells('Sheet1!$B$1:$B$6')).toEqual(['B', 1, 2, 3, null, null]);
    // The second series is a copy of the first with its own colour (format index) and identity.
    const formats = [...two.xml.matchAll(/<cx:series [^>]*formatIdx="(\d+)"/g)].map((m) => m[1]);
    const ids = [...two.xml.matchAll(/<cx:series [^>]*uniqueId="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(formats).size).toBe(2);
    expect(new Set(ids).size).toBe(2);
  });

  it('a box and whisker chart without categories draws one box of all the values', async () => {
    expect(warningsAt(2)).toEqual([]);
    const box = await chartExAt(result, 2);
    expect(box.series).toHaveLength(1);
    expect(box.series[0]).toMatchObject({
      name: 'X',
      categoryLevels: [['', '', '', '']],
      categoryFormula: 'Sheet1!$A$2:$A$5',
      values: [1, 2, 3, 4],
    });
    expect(box.book!.cells('Sheet1!$A$2:$C$9')).toEqual([
      ...[1, 2, 3, 4].flatMap((v) => [null, v, null]),
      ...Array.from({ length: 12 }, () => null),
    ]);
  });

  it('a region map takes new values for its regions and keeps them, with their country level', async () => {
    expect(warningsAt(3)).toEqual([]);
    const map = await chartExAt(result, 3);
    expect(map.series[0]).toMatchObject({
      name: 'Pop 2030',
      categoryLevels: [
        ['Bavaria', 'Hesse', 'Saxony'],
        ['Germany', 'Germany', 'Germany'],
      ],
      categoryFormula: 'Sheet1!$A$2:$B$4',
      values: [14, 7, 4.5],
      valueFormula: 'Sheet1!$C$2:$C$4',
    });
    expect(map.book!.cells('Sheet1!$A$1:$C$4')).toEqual([
      ...[null, null, 'Pop 2030'],
      ...['Germany', 'Bavaria', 14],
      ...['Germany', 'Hesse', 7],
      ...['Germany', 'Saxony', 4.5],
    ]);
  });

  it('a region map given other regions is left as it was, with a warning', async () => {
    expect(warningsAt(4)).toEqual([
      expect.stringContaining('a region map keeps the regions it was made with (Bavaria, Hesse, Saxony'),
    ]);
    const map = await chartExAt(result, 4);
    expect(map.series[0]).toMatchObject({ name: 'Population', values: [13.1, 6.3, 4.1] });
    expect(map.book!.cells('Sheet1!$C$1:$C$4')).toEqual(['Population', 13.1, 6.3, 4.1]);
  });

  it('a waterfall made without categories takes the values and says the categories were not used', async () => {
    expect(warningsAt(5)).toEqual([
      `chart "Chart 5": the template's waterfall chart has no categories (its points are numbered); the categories given were not used`,
    ]);
    const flow = await chartExAt(result, 5);
    expect(flow.series[0]).toMatchObject({
      name: 'Flow',
      categoryLevels: null,
      values: [10, -2, 3, 11],
      valueFormula: 'Sheet1!$A$2:$A$5',
      subtotals: [],
    });
    expect(flow.book!.cells('Sheet1!$A$1:$A$7')).toEqual(['Flow', 10, -2, 3, 11, null, null]);
  });

  it('a funnel draws one series: the first is used, with a warning', async () => {
    expect(warningsAt(6)).toEqual([
      'chart "Chart 5": a funnel chart draws one series; the first of the 2 given was used',
    ]);
    const funnel = await chartExAt(result, 6);
    expect(funnel.series.map((s) => [s.name, s.categoryLevels, s.values])).toEqual([
      ['One', [['In', 'Out']], [9, 4]],
    ]);
  });
});

describe('pareto lines follow their series', () => {
  // Three pareto series whose lines stand apart from them (`ownerIdx` is a position among all the series):
  // [A, line of C, B, C, line of A, line of B]. Schema-valid; PowerPoint keeps each line after its series, but
  // nothing requires it.
  const cats = ['Scratch', 'Dent', 'Crack'];
  const col = (k: number): string =>
    `<cx:series layoutId="clusteredColumn" formatIdx="${k}"><cx:tx><cx:txData><cx:f>Sheet1!$${'BCD'[k]}$1</cx:f><cx:v>S${k}</cx:v></cx:txData></cx:tx><cx:dataId val="${k}"/><cx:layoutPr><cx:aggregation/></cx:layoutPr><cx:axisId>1</cx:axisId></cx:series>`;
  const line = (owner: number, format: number): string =>
    `<cx:series layoutId="paretoLine" ownerIdx="${owner}" formatIdx="${format}"><cx:axisId>2</cx:axisId></cx:series>`;
  const data = [0, 1, 2]
    .map(
      (k) =>
        `<cx:data id="${k}"><cx:strDim type="cat"><cx:f>Sheet1!$A$2:$A$4</cx:f><cx:lvl ptCount="3">${cats.map((c, i) => `<cx:pt idx="${i}">${c}</cx:pt>`).join('')}</cx:lvl></cx:strDim><cx:numDim type="val"><cx:f>Sheet1!$${'BCD'[k]}$2:$${'BCD'[k]}$4</cx:f><cx:lvl ptCount="3" formatCode="General"><cx:pt idx="0">5</cx:pt><cx:pt idx="1">3</cx:pt><cx:pt idx="2">1</cx:pt></cx:lvl></cx:numDim></cx:data>`,
    )
    .join('');
  const deck = generatedChartExDeck({
    'pareto, lines apart': {
      data,
      chart: `<cx:plotArea><cx:plotAreaRegion>${col(0)}${line(3, 3)}${col(1)}${col(2)}${line(0, 4)}${line(2, 5)}</cx:plotAreaRegion><cx:axis id="0"><cx:catScaling gapWidth="0"/><cx:tickLabels/></cx:axis><cx:axis id="1"><cx:valScaling/><cx:tickLabels/></cx:axis><cx:axis id="2"><cx:valScaling max="1" min="0"/><cx:units unit="percentage"/><cx:tickLabels/></cx:axis></cx:plotArea>`,
      sheet: [[null, 'S0', 'S1', 'S2'], ...cats.map((c, i) => [c, 5 - 2 * i, 5 - 2 * i, 5 - 2 * i])],
    },
  });

  it('when series before a line go, its ownerIdx names its series again', async () => {
    const result = fill(deck.bytes, [
      [
        1,
        {
          categories: ['a', 'b'],
          series: [
            { name: 'First', values: [4, 2] },
            { name: 'Second', values: [3, 1] },
          ],
        },
      ],
    ]);
    await expectValidPptx(result.bytes, deck.bytes);
    const { series } = await chartExAt(result, 0);
    expect(series.map((s) => [s.layout, s.name || null, s.ownerIdx])).toEqual([
      ['clusteredColumn', 'First', null],
      ['clusteredColumn', 'Second', null],
      ['paretoLine', null, 0],
      ['paretoLine', null, 1],
    ]);
  }, 60_000);
});

describe('typed values in chartEx charts', () => {
  const deck = generatedChartExDeck();
  const EURO = '#,##0.00 [$€-407]';
  const typed = (format: string, numbers: number[]) => numbers.map((number) => ({ number, format }));
  const result = fill(deck.bytes, [
    [
      1,
      {
        categories: ['Start', 'Up', 'Down', 'End'],
        series: [{ name: 'Cash', values: typed(EURO, [100, 25.5, -10, 115.5]) }],
      },
    ],
    [4, { categories: ['a', 'b', 'c'], series: [{ name: 'Share', values: typed('0.0%', [0.5, 0.3, 0.2]) }] }],
    [4, { categories: ['a', 'b', 'c'], series: [{ name: 'Plain', values: [5, 3, 2] }] }],
  ]);

  /** The format code of each value cell the series' formula names, as ExcelJS reads the workbook. */
  async function cellFormats(position: number): Promise<{ codes: (string | undefined)[]; cache: string[] }> {
    const chart = await chartExAt(result, position);
    const [, col, from, to] = /\$([A-Z]+)\$(\d+):\$[A-Z]+\$(\d+)$/.exec(chart.series[0]!.valueFormula!)!;
    const sheet = chart.book!.workbook.getWorksheet('Sheet1')!;
    const codes = [];
    for (let r = Number(from); r <= Number(to); r++) codes.push(sheet.getCell(`${col}${r}`).numFmt);
    const numDim = /<cx:numDim [^>]*>[\s\S]*?<\/cx:numDim>/.exec(chart.xml)![0];
    return { codes, cache: [...numDim.matchAll(/<cx:lvl [^>]*formatCode="([^"]*)"/g)].map((m) => m[1]!) };
  }

  it('produces a sound deck, and workbooks with no validator error their templates lack', async () => {
    expect(result.warnings).toEqual([]);
    await expectValidPptx(result.bytes, deck.bytes);
    // ExcelJS, which wrote the templates' workbooks, puts a font's children out of schema order.
    const template = packageFiles(deck.bytes);
    const known = new Set<string>();
    for (const n of [2, 5])
      for (const e of await validateXlsx(template[`ppt/embeddings/Microsoft_Excel_Worksheet${n}.xlsx`]!))
        known.add(validatorErrorKey(e));
    const files = packageFiles(result.bytes);
    for (const slide of slideParts(result.bytes)) {
      const workbook = workbookItemOf(files, chartItemOf(files, slide, 6))!;
      const errors = (await validateXlsx(files[workbook]!)).filter((e) => !known.has(validatorErrorKey(e)));
      expect(errors.map(formatValidatorResult), workbook).toEqual([]);
    }
  }, 120_000);

  it("the data cache's level and the workbook's value cells carry the typed values' format", async () => {
    const waterfall = await cellFormats(0);
    expect(waterfall.cache).toEqual([EURO]);
    expect(waterfall.codes).toEqual([EURO, EURO, EURO, EURO]);
    expect((await chartExAt(result, 0)).series[0]!.values).toEqual([100, 25.5, -10, 115.5]);
    const treemap = await cellFormats(1);
    expect(treemap.cache).toEqual(['0.0%']);
    expect(treemap.codes).toEqual(['0.0%', '0.0%', '0.0%']);
  });

  it("plain values keep the template's format code and cells", async () => {
    const plain = await cellFormats(2);
    const template = /<cx:numDim [^>]*>[\s\S]*?<cx:lvl [^>]*formatCode="([^"]*)"/.exec(
      textOf(packageFiles(deck.bytes), 'ppt/charts/chartEx5.xml'),
    )![1];
    expect(plain.cache).toEqual([template]);
    expect(plain.codes.every((code) => code === undefined || code === 'General')).toBe(true);
  });
});
