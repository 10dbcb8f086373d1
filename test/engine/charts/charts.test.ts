/**
 * Chart scenarios (docs/payload-charts.md): the hosted `data` matrix, scatter and bubble series, date
 * categories, combination charts, every setting, overlays, linked workbooks, a chart on a slide cloned three
 * times, tags in titles, inspect, and the refusals of bad input.
 */
import { describe, expect, it } from 'vitest';
import { generate, inspect, type GenerateResult } from '../../../src/engine/index.js';
import {
  chartItemOf,
  packageFiles,
  readChartSeries,
  textOf,
  workbookItemOf,
  workbookReader,
} from '../../support/readers/chart-reading.js';
import { sunburstDeck } from '../../support/decks/chart-ex-deck.js';
import {
  chartDeck,
  GENERATED_CHARTS,
  generatedChartsDeck,
  PLOT_FAMILIES,
  WORKBOOK_NOTE,
} from '../../support/decks/chart-templates.js';
import { tablesDeck } from '../../support/decks/table-decks.js';
import { itCorpus, readCorpus } from '../../support/corpus/corpus.js';
import { engineErrorOf } from '../../support/checks/engine-error.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { slideParts } from '../../support/decks/deck.js';

// The owned one-chart template: "Chart 5" (shape id 6), three series of four categories, an Excel table over them.
const CHART_2D = chartDeck();
const AT = 'presentation.slides[0].shapes[0]';

function fill(template: Uint8Array, slides: unknown[], tags: unknown[] = []): GenerateResult {
  return generate({
    files: new Map([['t.pptx', template]]),
    payload: { presentation: { template: 't.pptx', slides, tags } },
  });
}

/** The chart part (text) and workbook reader of shape `shapeId` on output slide `position`. */
async function chartAt(result: GenerateResult, position: number, shapeId: number) {
  const files = packageFiles(result.bytes);
  const item = chartItemOf(files, slideParts(result.bytes)[position] as string, shapeId);
  const workbookItem = workbookItemOf(files, item);
  return {
    item,
    xml: textOf(files, item),
    series: readChartSeries(textOf(files, item)),
    workbookItem,
    book: workbookItem ? await workbookReader(files[workbookItem] as Uint8Array) : null,
  };
}

describe('chart content', () => {
  it('takes the hosted data matrix: caches and workbook agree, the Excel table follows', async () => {
    const result = fill(CHART_2D, [
      {
        slide_index: 0,
        shapes: [
          {
            name: 'Chart 5',
            data: [
              ['North', 'South', 'East', 'West'],
              ['Q1', 'Q2', 'Q3', 'Q4', 'Q5'],
              [1, 2, 3, 4],
              [5, 6, 7, 8],
              [9, null, 11, 12],
              [13, 14, 15, 16],
              ['17', 18, 19, 20],
            ],
          },
        ],
      },
    ]);
    await expectValidPptx(result.bytes, CHART_2D);
    expect(result.warnings).toEqual([]);
    const chart = await chartAt(result, 0, 6);
    expect(chart.series.map((s) => s.name)).toEqual(['North', 'South', 'East', 'West']);
    expect(chart.series[1]?.values).toEqual([2, 6, null, 14, 18]);
    expect(chart.series[3]).toMatchObject({
      nameFormula: 'Sheet1!$E$1',
      categoryFormula: 'Sheet1!$A$2:$A$6',
      valueFormula: 'Sheet1!$E$2:$E$6',
    });
    const book = chart.book!;
    expect(book.cells('Sheet1!$A$2:$A$6')).toEqual(['Q1', 'Q2', 'Q3', 'Q4', 'Q5']);
    expect(book.cells('Sheet1!$B$1:$E$1')).toEqual(['North', 'South', 'East', 'West']);
    expect(book.cells('Sheet1!$C$2:$C$6')).toEqual([2, 6, null, 14, 18]);
    // The table over the data grew with it, its column names equal to the header cells.
    const table = new TextDecoder().decode(
      packageFiles(packageFiles(result.bytes)[chart.workbookItem!] as Uint8Array)['xl/tables/table1.xml'],
    );
    expect(table).toContain('ref="A1:E6"');
    expect([...table.matchAll(/<tableColumn id="(\d+)" name="([^"]*)"/g)].map((m) => [m[1], m[2]])).toEqual([
      ['1', ' '],
      ['2', 'North'],
      ['3', 'South'],
      ['4', 'East'],
      ['5', 'West'],
    ]);
    // Other cells of the sheet stay.
    expect(book.cells('Sheet1!$B$8')).toEqual([WORKBOOK_NOTE]);
  });

  it('fewer series and categories: the rest is cleared from caches, workbook and table', async () => {
    const result = fill(CHART_2D, [
      {
        slide_index: 0,
        shapes: [
          {
            name: 'Chart 5',
            content: { categories: ['A', 'B'], series: [{ name: 'Only', values: [7, 8] }] },
          },
        ],
      },
    ]);
    await expectValidPptx(result.bytes, CHART_2D);
    const chart = await chartAt(result, 0, 6);
    expect(chart.series).toHaveLength(1);
    expect(chart.xml.match(/<c:ser>/g)).toHaveLength(1);
    expect(chart.book!.cells('Sheet1!$A$1:$D$5')).toEqual([
      ' ',
      'Only',
      null,
      null,
      'A',
      7,
      null,
      null,
      'B',
      8,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    // The table shrank to the two columns left, and its filter with it: no filter column past its last column
    // (Excel repairs a workbook that has one; ExcelJS cannot read it).
    const table = new TextDecoder().decode(
      packageFiles(packageFiles(result.bytes)[chart.workbookItem!] as Uint8Array)['xl/tables/table1.xml'],
    );
    expect(table).toMatch(/<table [^>]*ref="A1:B3"/);
    expect(table).toContain('<autoFilter ref="A1:B3">');
    expect([...table.matchAll(/<filterColumn colId="(\d+)"/g)].map((m) => m[1])).toEqual(['0', '1']);
  });

  itCorpus(
    'scatter series take x and y; bubble series x, y and size (the template names its data through an Excel table)',
    async () => {
      const scatterTemplate = readCorpus('poi/scatter-chart.pptx');
      const scatter = fill(scatterTemplate, [
        {
          slide_index: 0,
          shapes: [
            { name: 'Chart 1', content: { series: [{ name: 'Trial', x: [0.5, 1, 2], y: [3, null, 9] }] } },
          ],
        },
      ]);
      await expectValidPptx(scatter.bytes, scatterTemplate);
      const s = await chartAt(
        scatter,
        0,
        Number(inspect(scatterTemplate).slides[0]!.shapes.find((x) => x.kind === 'chart')!.id),
      );
      expect(s.series[0]).toMatchObject({
        name: 'Trial',
        categories: ['0.5', '1', '2'],
        values: [3, null, 9],
      });
      expect(s.book!.cells(s.series[0]!.xFormula!)).toEqual([0.5, 1, 2]);
      expect(s.book!.cells(s.series[0]!.valueFormula!)).toEqual([3, null, 9]);

      const bubbleTemplate = readCorpus('python-pptx/cht-replace-data.pptx');
      const bubble = fill(bubbleTemplate, [
        {
          slide_index: 6,
          shapes: [
            {
              name: 'Chart 1',
              content: {
                series: [
                  { name: 'B1', x: [1, 2], y: [3, 4], size: [5, 6] },
                  { name: 'B2', x: [1, 2], y: [7, 8], size: [9, 10] },
                  { name: 'B3', x: [3, 4], y: [1, 1], size: [2, 2] },
                ],
              },
            },
          ],
        },
      ]);
      await expectValidPptx(bubble.bytes, bubbleTemplate);
      expect(bubble.warnings).toEqual([]);
      const b = await chartAt(bubble, 0, 2);
      expect(b.series.map((x) => [x.name, x.values, x.sizes])).toEqual([
        ['B1', [3, 4], [5, 6]],
        ['B2', [7, 8], [9, 10]],
        ['B3', [1, 1], [2, 2]],
      ]);
      for (const x of b.series) {
        expect(b.book!.cells(x.valueFormula!)).toEqual(x.values);
        expect(b.book!.cells(x.sizeFormula!)).toEqual(x.sizes);
        expect(x.xFormula).toMatch(/^Sheet1!\$[A-Z]+\$2:\$[A-Z]+\$3$/);
      }
      // B1 and B2 share their x values (one column), B3 has its own.
      expect(b.series[0]!.xFormula).toBe(b.series[1]!.xFormula);
      expect(b.series[2]!.xFormula).not.toBe(b.series[0]!.xFormula);
      expect(b.book!.cells(b.series[2]!.xFormula!)).toEqual([3, 4]);
    },
  );

  itCorpus('writes date categories as date serials where the template has dates', async () => {
    const template = readCorpus('python-pptx/cht-series.pptx');
    const result = fill(template, [
      {
        slide_index: 8,
        shapes: [
          {
            name: 'Chart 1',
            content: { categories: ['2026-01-31', '2026-02-28'], series: [{ name: 'S', values: [1, 2] }] },
          },
        ],
      },
    ]);
    await expectValidPptx(result.bytes, template);
    expect(result.warnings).toEqual([]);
    const chart = await chartAt(result, 0, 2);
    expect(chart.xml).toContain(
      '<c:formatCode>m/d/yy</c:formatCode><c:ptCount val="2"/><c:pt idx="0"><c:v>46053</c:v>',
    );
    expect(chart.book!.cells(chart.series[0]!.categoryFormula!)).toEqual([46053, 46081]);

    const text = fill(template, [
      {
        slide_index: 8,
        shapes: [
          {
            name: 'Chart 1',
            content: { categories: ['soon', 'later'], series: [{ name: 'S', values: [1, 2] }] },
          },
        ],
      },
    ]);
    expect(text.warnings.map((w) => w.message).join()).toContain('not every category given is one');
    expect((await chartAt(text, 0, 2)).series[0]!.categories).toEqual(['soon', 'later']);
  });

  itCorpus(
    'combination charts: series fill the plot groups in order; an emptied group goes, more series join the last',
    async () => {
      const template = readCorpus('python-pptx/cht-series.pptx');
      const series = (n: number) =>
        Array.from({ length: n }, (_, k) => ({ name: `S${k}`, values: [k, k + 1] }));
      const result = fill(template, [
        {
          slide_index: 1,
          shapes: [{ name: 'Chart 1', content: { categories: ['a', 'b'], series: series(2) } }],
        },
        {
          slide_index: 1,
          shapes: [{ name: 'Chart 1', content: { categories: ['a', 'b'], series: series(7) } }],
        },
      ]);
      await expectValidPptx(result.bytes, template);
      const fewer = await chartAt(result, 0, 2);
      expect(fewer.xml).not.toContain('<c:lineChart>');
      expect(fewer.series.map((s) => s.name)).toEqual(['S0', 'S1']);
      const more = await chartAt(result, 1, 2);
      const line = /<c:lineChart>[\s\S]*<\/c:lineChart>/.exec(more.xml)![0];
      expect(line.match(/<c:ser>/g)).toHaveLength(4);
      const idx = [...more.xml.matchAll(/<c:ser><c:idx val="(\d+)"\/><c:order val="(\d+)"/g)];
      expect(new Set(idx.map((m) => m[1])).size).toBe(7);
      expect(new Set(idx.map((m) => m[2])).size).toBe(7);
    },
  );

  itCorpus('new series take the next theme accent colours', async () => {
    const template = readCorpus('pptx-automizer/ChartBarsStacked.pptx');
    const series = Array.from({ length: 8 }, (_, k) => ({ name: `S${k}`, values: [k] }));
    const result = fill(template, [
      { slide_index: 1, shapes: [{ name: 'ColumnsGroupedEmptyA1', content: { categories: ['a'], series } }] },
    ]);
    await expectValidPptx(result.bytes, template);
    const files = packageFiles(result.bytes);
    const xml = textOf(files, 'ppt/charts/chart2.xml');
    const fills = [...xml.matchAll(/<c:ser>.*?<c:spPr><a:solidFill>(.*?)<\/a:solidFill>/g)].map((m) => m[1]);
    expect(fills).toEqual([
      ...[1, 2, 3, 4, 5, 6].map((n) => `<a:schemeClr val="accent${n}"/>`),
      ...[1, 2].map((n) => `<a:schemeClr val="accent${n}"><a:lumMod val="60000"/></a:schemeClr>`),
    ]);
  });

  it('a chart on a slide cloned three times: each clone has its own chart and workbook with its own data', async () => {
    const slides = [1, 2, 3].map((n) => ({
      slide_index: 0,
      shapes: [
        { name: 'Chart 5', content: { categories: ['x'], series: [{ name: `Clone ${n}`, values: [n] }] } },
      ],
    }));
    const result = fill(CHART_2D, slides);
    await expectValidPptx(result.bytes, CHART_2D);
    const charts = await Promise.all([0, 1, 2].map((i) => chartAt(result, i, 6)));
    expect(new Set(charts.map((c) => c.item)).size).toBe(3);
    expect(new Set(charts.map((c) => c.workbookItem)).size).toBe(3);
    charts.forEach((c, i) => {
      expect(c.series[0]!.name).toBe(`Clone ${i + 1}`);
      expect(c.book!.cells('Sheet1!$B$1:$B$2')).toEqual([`Clone ${i + 1}`, i + 1]);
    });
  });

  itCorpus('a linked workbook: the caches are rewritten, with a warning', async () => {
    const template = readCorpus('markitdown/test.pptx');
    const result = fill(template, [
      {
        slide_index: 3,
        shapes: [
          {
            name: 'グラフ 3',
            content: { categories: ['2024', '2025'], series: [{ name: 'Linked', values: [4, 5] }] },
          },
        ],
      },
    ]);
    await expectValidPptx(result.bytes, template);
    expect(result.warnings).toEqual([
      expect.objectContaining({ path: `${AT}.content`, message: expect.stringContaining('linked workbook') }),
    ]);
    const chart = await chartAt(
      result,
      0,
      Number(inspect(template).slides[3]!.shapes.find((s) => s.kind === 'chart')!.id),
    );
    expect(chart.series[0]).toMatchObject({
      name: 'Linked',
      values: [4, 5],
      valueFormula: 'Sheet1!$B$2:$B$3',
    });
  });

  it('fills a chartEx part (sunburst) and its workbook', async () => {
    const template = sunburstDeck();
    const result = fill(template, [
      {
        slide_index: 0,
        shapes: [
          {
            name: 'Chart 5',
            content: { categories: ['Oak', 'Elm', 'Ash'], series: [{ name: 'Trees', values: [3, 5, 8] }] },
          },
        ],
      },
    ]);
    await expectValidPptx(result.bytes, template);
    const files = packageFiles(result.bytes);
    const xml = textOf(files, 'ppt/charts/chartEx1.xml');
    expect(xml).toContain(
      '<cx:f>Sheet1!$A$2:$A$4</cx:f><cx:lvl ptCount="3"><cx:pt idx="0">Oak</cx:pt><cx:pt idx="1">Elm</cx:pt><cx:pt idx="2">Ash</cx:pt></cx:lvl>',
    );
    expect(xml).toContain(
      '<cx:lvl ptCount="3" formatCode="General"><cx:pt idx="0">3</cx:pt><cx:pt idx="1">5</cx:pt><cx:pt idx="2">8</cx:pt></cx:lvl>',
    );
    expect(xml).toContain('<cx:v>Trees</cx:v>');
    const book = await workbookReader(files['ppt/embeddings/Microsoft_Excel_Worksheet1.xlsx'] as Uint8Array);
    expect(book.cells('Sheet1!$A$2:$D$5')).toEqual([
      'Oak',
      null,
      null,
      3,
      'Elm',
      null,
      null,
      5,
      'Ash',
      null,
      null,
      8,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('chart settings and overlays', () => {
  it('applies every setting in schema order', async () => {
    const result = fill(
      CHART_2D,
      [
        {
          slide_index: 0,
          shapes: [
            {
              name: 'Chart 5',
              settings: {
                title: 'Revenue {{year}}',
                chartFont: 'Georgia',
                chartFontSize: 14,
                fill_color: '#FFF2CC',
                chartShowLegend: true,
                chartLegendPosition: 'Bottom',
                chartLegendFontColor: 'RGB(192,0,0)',
                isChartLegendBold: true,
                isChartLabelValueVisible: true,
                chartDataLabelPosition: 'OutsideEnd',
                chartDataLabelFontSize: 9,
                chartDataLabelFont: 'Arial',
                number_format: '0.0',
                category_axis_title: 'Quarter',
                value_axis_title: 'EUR m',
              },
            },
          ],
        },
      ],
      [{ key: 'year', value: '2026' }],
    );
    await expectValidPptx(result.bytes, CHART_2D);
    expect(result.warnings).toEqual([]);
    const { xml } = await chartAt(result, 0, 6);
    expect(xml).toMatch(
      /<c:chart><c:title><c:tx><c:rich>.*<a:t>Revenue 2026<\/a:t>.*<\/c:title><c:autoTitleDeleted val="0"\/><c:plotArea>/,
    );
    expect(xml).toMatch(
      /<c:spPr><a:solidFill><a:srgbClr val="FFF2CC"\/><\/a:solidFill><\/c:spPr><c:txPr><a:bodyPr\/><a:lstStyle\/><a:p><a:pPr><a:defRPr sz="1400"><a:latin typeface="Georgia"\/>/,
    );
    expect(xml).toMatch(
      /<c:legend><c:legendPos val="b"\/><c:layout\/><c:txPr>.*<a:defRPr sz="1400" b="1"><a:solidFill><a:srgbClr val="C00000"\/>/,
    );
    expect(
      xml.match(
        /<c:dLbls><c:numFmt formatCode="0.0" sourceLinked="0"\/><c:txPr>.*?<a:defRPr sz="900"><a:latin typeface="Arial"\/><a:ea typeface="Arial"\/><\/a:defRPr>.*?<\/c:txPr><c:dLblPos val="outEnd"\/><c:showLegendKey val="0"\/><c:showVal val="1"\/>/g,
      ),
    ).toHaveLength(3);
    expect(xml).toMatch(
      /<c:catAx><c:axId val="\d+"\/><c:scaling>.*?<c:axPos val="b"\/><c:title><c:tx><c:rich>.*?<a:t>Quarter<\/a:t>/,
    );
    expect(xml).toMatch(
      /<c:valAx>.*?<c:majorGridlines\/><c:title><c:tx><c:rich>.*?<a:t>EUR m<\/a:t>.*?<\/c:title><c:numFmt formatCode="0.0" sourceLinked="0"\/>/,
    );
  });

  it('skips, with a warning, what does not apply: a position a stacked bar refuses, a legend that is hidden, axis titles on a pie', async () => {
    // The owned chart template with stacked columns on slide 1 and a pie on slide 2.
    const stacked = generatedChartsDeck({
      'column stacked': GENERATED_CHARTS['column stacked']!,
      pie: PLOT_FAMILIES.pie!,
    }).bytes;
    const result = fill(stacked, [
      {
        slide_index: 1,
        shapes: [
          {
            name: 'Chart 5',
            settings: {
              isChartLabelValueVisible: true,
              chartDataLabelPosition: 'OutsideEnd',
              chartShowLegend: false,
              chartLegendPosition: 'Left',
            },
          },
        ],
      },
    ]);
    await expectValidPptx(result.bytes, stacked);
    const messages = result.warnings.map((w) => `${w.path}: ${w.message}`);
    expect(messages).toEqual([
      `${AT}.settings: chart "Chart 5": chartLegendPosition was not applied: chartShowLegend is false`,
      `${AT}.settings: chart "Chart 5": chartDataLabelPosition "outEnd" is not a position PowerPoint allows for a bar or column chart (it takes ctr, inBase, inEnd); not applied`,
    ]);
    const { xml } = await chartAt(result, 0, 6);
    expect(xml).not.toContain('outEnd');
    expect(xml).not.toContain('<c:legend>');

    const pieResult = fill(stacked, [
      { slide_index: 2, shapes: [{ name: 'Chart 5', settings: { value_axis_title: 'x' } }] },
    ]);
    expect(pieResult.warnings.map((w) => w.message)).toEqual([
      'chart "Chart 5": value_axis_title was not applied: the chart has no value axis',
    ]);
  });

  it("overlays: text appended to a point's data label, after the value", async () => {
    const result = fill(CHART_2D, [
      {
        slide_index: 0,
        shapes: [
          {
            name: 'Chart 5',
            content: {
              categories: ['a', 'b'],
              series: [{ name: 'S', values: [1, 2] }],
              overlays: [['', '+12 %']],
            },
          },
        ],
      },
    ]);
    await expectValidPptx(result.bytes, CHART_2D);
    const { xml } = await chartAt(result, 0, 6);
    expect(xml).toMatch(
      /<c:dLbls><c:dLbl><c:idx val="1"\/><c:tx><c:rich><a:bodyPr\/><a:lstStyle\/><a:p><a:fld id="\{[0-9A-F-]+\}" type="VALUE">.*?<a:t>\[VALUE\]<\/a:t><\/a:fld><a:r><a:rPr lang="en-US"\/><a:t> \+12 %<\/a:t><\/a:r><\/a:p><\/c:rich><\/c:tx>/,
    );
    expect(xml.match(/<c:dLbl>/g)).toHaveLength(1);
  });
});

describe('inspect', () => {
  it("reports each chart's types, series, categories, workbook and cached data", () => {
    const shapes = inspect(CHART_2D).slides[0]!.shapes;
    expect(shapes.find((s) => s.name === 'Chart 5')?.chart).toEqual({
      types: ['bar (column, clustered)'],
      series: ['Series 1', 'Series 2', 'Series 3'],
      categories: 4,
      workbook: 'embedded',
      data: {
        categories: ['Category 1', 'Category 2', 'Category 3', 'Category 4'],
        series: [
          { name: 'Series 1', values: [11, 12, 13, 14] },
          { name: 'Series 2', values: [21, 22, 23, 24] },
          { name: 'Series 3', values: [31, 32, 33, 34] },
        ],
      },
    });
    // What a payload wrote, inspect reads back: gaps as null, scatter series as x and y.
    const filled = fill(CHART_2D, [
      {
        slide_index: 0,
        shapes: [
          {
            name: 'Chart 5',
            content: { categories: ['North', 2026], series: [{ name: 'S', values: [1.5, null] }] },
          },
        ],
      },
    ]);
    expect(inspect(filled.bytes).slides[0]!.shapes.find((s) => s.name === 'Chart 5')?.chart?.data).toEqual({
      categories: ['North', '2026'],
      series: [{ name: 'S', values: [1.5, null] }],
    });
    expect(inspect(sunburstDeck()).slides[0]!.shapes.find((s) => s.kind === 'chart')?.chart).toEqual({
      types: ['sunburst'],
      series: ['Growth'],
      categories: 8,
      workbook: 'embedded',
    });
  });

  itCorpus(
    'gives no data for a chart combining scatter and category series (no one content form takes both)',
    () => {
      const charts = inspect(readCorpus('ShapeCrawler/021.pptx'))
        .slides.flatMap((s) => s.shapes)
        .flatMap((s) => (s.chart ? [s.chart] : []));
      const combined = charts.filter(
        (c) => c.types.some((t) => t.startsWith('scatter')) && c.types.length > 1,
      );
      expect(combined.length).toBeGreaterThan(0);
      for (const chart of combined) expect(chart.data).toBeUndefined();
      expect(charts.filter((c) => c.data).length).toBeGreaterThan(0);
    },
  );

  itCorpus('reports linked workbooks and chartEx charts of real decks', () => {
    const linked = inspect(readCorpus('markitdown/test.pptx')).slides[3]!.shapes.find(
      (s) => s.kind === 'chart',
    );
    expect(linked?.chart?.workbook).toBe('linked');
    const chartEx = inspect(readCorpus('Open-XML-SDK/Of16-03.pptx')).slides[0]!.shapes.find(
      (s) => s.kind === 'chart',
    );
    expect(chartEx?.chart).toEqual({
      types: ['sunburst'],
      series: ['Series1'],
      categories: 16,
      workbook: 'embedded',
    });
  });
});

describe('bad chart input', () => {
  const one = (shape: Record<string, unknown>, template = CHART_2D, slide = 0) =>
    engineErrorOf(() => fill(template, [{ slide_index: slide, shapes: [shape] }]));

  it('refuses ragged matrices and values that are not numbers, naming the field sent', () => {
    expect(one({ name: 'Chart 5', data: [['a', 'b'], ['x'], [1]] }).message).toBe(
      `${AT}.data[2]: expected 2 values (one per series), got 1`,
    );
    expect(
      one({ name: 'Chart 5', content: { categories: ['x'], series: [{ name: 'S', values: ['many'] }] } })
        .path,
    ).toBe(`${AT}.content.series[0].values[0]`);
    expect(one({ name: 'Chart 5', data: [['a'], ['x'], ['1e400']] }).path).toBe(`${AT}.data[2][0]`);
  });

  it('refuses content of the wrong form for the chart, naming the field sent', () => {
    const error = one({ name: 'Chart 5', content: { series: [{ name: 'S', x: [1], y: [2] }] } });
    expect([error.code, error.path, error.message]).toEqual([
      'CONTENT_MISMATCH',
      `${AT}.content.series[0]`,
      `${AT}.content.series[0]: a bar or column chart takes values (one per category) for each series, not x and y`,
    ]);
    const stock = generatedChartsDeck();
    const index = 1 + stock.types.indexOf('stock high-low-close');
    expect(one({ name: 'Chart 5', data: [['H', 'L'], ['d1'], [2, 1]] }, stock.bytes, index).message).toMatch(
      new RegExp(
        `^${AT.replace(/[[\]]/g, '\\$&')}\\.data: chart "chart\\d+\\.xml" \\(a stock chart\\) needs exactly 3 series`,
      ),
    );
  });

  it('keeps a pie to one series, with a warning', async () => {
    // The owned chart template with a pie on slide 1.
    const pie = generatedChartsDeck({ pie: PLOT_FAMILIES.pie! }).bytes;
    const result = fill(pie, [
      {
        slide_index: 1,
        shapes: [
          {
            name: 'Chart 5',
            data: [
              ['A', 'B'],
              ['x', 'y'],
              [1, 2],
              [3, 4],
            ],
          },
        ],
      },
    ]);
    await expectValidPptx(result.bytes, pie);
    expect(result.warnings).toEqual([
      {
        path: `${AT}.data`,
        message: expect.stringMatching(/a pie chart\) draws 1 series; the first 1 of the 2 given were used$/),
      },
    ]);
    expect((await chartAt(result, 0, 6)).series.map((s) => [s.name, s.values])).toEqual([['A', [1, 3]]]);
  });

  it('refuses a chart payload for a table, naming both kinds', () => {
    const error = one(
      { name: 'Table 1', content: { categories: ['x'], series: [{ name: 'S', values: [1] }] } },
      tablesDeck(),
    );
    expect([error.code, error.message]).toEqual([
      'CONTENT_MISMATCH',
      `${AT}.content: shape "Table 1" is a table but content is a chart; a table takes an array of rows`,
    ]);
  });
});
