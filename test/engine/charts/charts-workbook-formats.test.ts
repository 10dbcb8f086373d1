/**
 * The embedded workbook shows numbers as the chart does (docs/payload.md "Numbers and dates"): a typed value's
 * format code, and a date category's, reach the cell's style (`s` → `cellXfs` → `numFmt`, SpreadsheetML
 * §18.8), so "Edit Data" shows 12.5 % and 1/31/2026 rather than 0.125 and 46053. Read back with a small XML
 * reader of the tests' own and with ExcelJS, independently of the engine.
 */
import { strFromU8, strToU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { generate, type GenerateResult } from '../../../src/engine/index.js';
import { chartDeck } from '../../support/decks/chart-templates.js';
import { editPackage, editPart, type PackageFiles } from '../../support/decks/package-edit.js';
import {
  chartItemOf,
  packageFiles,
  workbookItemOf,
  workbookReader,
} from '../../support/readers/chart-reading.js';
import { attr, readXmlTree, type TreeElement } from '../../support/readers/xml-tree.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { formatValidatorResult, validateXlsx, validatorErrorKey } from '../../support/checks/validator.js';
import { itCorpus, readCorpus } from '../../support/corpus/corpus.js';
import { slideParts } from '../../support/decks/deck.js';

const WORKBOOK = 'ppt/embeddings/Microsoft_Excel_Worksheet1.xlsx';
const SHEET = 'xl/worksheets/sheet1.xml';
const STYLES = 'xl/styles.xml';
/** The built-in formats these tests meet (§18.8.30). */
const BUILT_IN: Record<number, string> = { 0: 'General', 9: '0%', 14: 'm/d/yyyy' };
const EURO = '#,##0.00 [$€-407]';

/** The owned chart template with dates on a date axis: `c:dateAx`, categories as numbers (format General). */
function dateAxisDeck(): Uint8Array {
  return editPart(chartDeck(), 'ppt/charts/chart1.xml', (xml) =>
    xml
      .replace(
        /<c:cat><c:strRef>(<c:f>[^<]*<\/c:f>)[\s\S]*?<\/c:strRef><\/c:cat>/g,
        (_all, f: string) =>
          `<c:cat><c:numRef>${f}<c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="4"/>` +
          [46023, 46054, 46082, 46113].map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join('') +
          '</c:numCache></c:numRef></c:cat>',
      )
      .replace(
        /<c:catAx>[\s\S]*?<\/c:catAx>/,
        '<c:dateAx><c:axId val="1"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:axPos val="b"/><c:numFmt formatCode="General" sourceLinked="1"/><c:tickLblPos val="nextTo"/><c:crossAx val="2"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblOffset val="100"/><c:baseTimeUnit val="days"/></c:dateAx>',
      ),
  );
}

/** The template with its workbook's parts edited as text. */
function withWorkbook(template: Uint8Array, edit: (book: Record<string, string>) => void): Uint8Array {
  return editPackage(template, (files) => {
    files[WORKBOOK] = editPackage(files[WORKBOOK]!, (book: PackageFiles) => {
      const text = Object.fromEntries(Object.entries(book).map(([k, v]) => [k, strFromU8(v)]));
      edit(text);
      for (const key of Object.keys(book)) if (!(key in text)) delete book[key];
      for (const [key, value] of Object.entries(text)) book[key] = strToU8(value);
    });
  });
}

function fill(
  template: Uint8Array,
  content: unknown,
  slide = 0,
  name = 'Chart 5',
  settings?: Record<string, unknown>,
): GenerateResult {
  return generate({
    files: new Map([['t.pptx', template]]),
    payload: {
      presentation: {
        template: 't.pptx',
        slides: [{ slide_index: slide, shapes: [{ name, content, ...(settings && { settings }) }] }],
      },
    },
  });
}

const typed = (format: string, numbers: number[]) => numbers.map((number) => ({ number, format }));

/** Dates on the categories, and a percentage (twice), a currency and a built-in percentage series. */
const TYPED_CONTENT = {
  categories: ['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31'],
  series: [
    { name: 'Share', values: typed('0.0%', [0.125, 0.25, 0.375, 0.5, 0.625]) },
    { name: 'Revenue', values: typed(EURO, [1234.5, 2345.25, 3456, 4567.75, 5678]) },
    { name: 'Margin', values: typed('0.0%', [0.1, 0.2, 0.3, 0.4, 0.5]) },
    { name: 'Growth', values: typed('0%', [0.01, 0.02, 0.03, 0.04, 0.05]) },
  ],
};

/** The chart's embedded workbook in an output deck: its bytes and its parts' text. */
function outputWorkbook(bytes: Uint8Array, shapeId = 6): { xlsx: Uint8Array; parts: Record<string, string> } {
  const files = packageFiles(bytes);
  const item = workbookItemOf(files, chartItemOf(files, slideParts(bytes)[0]!, shapeId))!;
  const xlsx = files[item]!;
  return {
    xlsx,
    parts: Object.fromEntries(Object.entries(unzipSync(xlsx)).map(([k, v]) => [k, strFromU8(v)])),
  };
}

const children = (el: TreeElement | undefined, local: string): TreeElement[] =>
  el?.children.filter((c) => c.local === local) ?? [];

/** What styles.xml says, read by the tests' own XML reader (which throws on markup that is not well-formed). */
function stylesOf(xml: string) {
  const root = readXmlTree(xml);
  const numFmts = children(root, 'numFmts')[0];
  const cellXfs = children(root, 'cellXfs')[0];
  const custom = new Map(
    children(numFmts, 'numFmt').map((n) => [Number(attr(n, 'numFmtId')), attr(n, 'formatCode') ?? '']),
  );
  const xfs = children(cellXfs, 'xf');
  return {
    order: root.children.map((c) => c.local),
    numFmts: children(numFmts, 'numFmt').map((n) => ({
      id: Number(attr(n, 'numFmtId')),
      code: attr(n, 'formatCode'),
    })),
    numFmtsCount: numFmts && attr(numFmts, 'count'),
    xfs,
    xfsCount: cellXfs && attr(cellXfs, 'count'),
    /** A style index's number format: its id and code. */
    format(s: string | undefined): { id: number; code: string | undefined } {
      const id = Number(attr(xfs[Number(s ?? 0)]!, 'numFmtId') ?? 0);
      return { id, code: custom.get(id) ?? BUILT_IN[id] };
    },
  };
}

/** The `s` of each cell of the sheet, by reference. */
function cellStyles(sheetXml: string): Map<string, string | undefined> {
  const sheetData = children(readXmlTree(sheetXml), 'sheetData')[0];
  return new Map(
    children(sheetData, 'row').flatMap((row) => children(row, 'c').map((c) => [attr(c, 'r')!, attr(c, 's')])),
  );
}

function formatsOf(parts: Record<string, string>, cells: readonly string[]) {
  const styles = stylesOf(parts[STYLES]!);
  const s = cellStyles(parts[SHEET]!);
  return Object.fromEntries(cells.map((ref) => [ref, styles.format(s.get(ref)).code]));
}

const column = (col: string, rows: number[]) => rows.map((r) => `${col}${r}`);
const DATA_ROWS = [2, 3, 4, 5, 6];

/** The workbook's validator errors that the template's workbook does not have. */
async function newWorkbookErrors(output: Uint8Array, template: Uint8Array): Promise<string[]> {
  const before = new Set((await validateXlsx(unzipSync(template)[WORKBOOK]!)).map(validatorErrorKey));
  return (await validateXlsx(outputWorkbook(output).xlsx))
    .filter((e) => !before.has(validatorErrorKey(e)))
    .map(formatValidatorResult);
}

describe('the embedded workbook carries the number formats of typed values', () => {
  it('date categories, percentage and currency series: each written cell shows its format', async () => {
    const template = dateAxisDeck();
    const result = fill(template, TYPED_CONTENT);
    expect(result.warnings).toEqual([]);
    await expectValidPptx(result.bytes, template);
    expect(await newWorkbookErrors(result.bytes, template)).toEqual([]);

    const { parts, xlsx } = outputWorkbook(result.bytes);
    const expected = {
      A: 'm/d/yyyy',
      B: '0.0%',
      C: EURO,
      D: '0.0%',
      E: '0%',
    };
    for (const [col, code] of Object.entries(expected)) {
      const cells = column(col, DATA_ROWS);
      expect(formatsOf(parts, cells), `column ${col}`).toEqual(
        Object.fromEntries(cells.map((ref) => [ref, code])),
      );
    }
    // The series names (text) keep the header's style.
    expect(formatsOf(parts, ['B1', 'C1', 'E1'])).toEqual({ B1: 'General', C1: 'General', E1: 'General' });

    const styles = stylesOf(parts[STYLES]!);
    // Dates and 0% are built-in formats (14 and 9), 0.0% once for both its series, the euro format once.
    expect(styles.format(cellStyles(parts[SHEET]!).get('A2')).id).toBe(14);
    expect(styles.format(cellStyles(parts[SHEET]!).get('E2')).id).toBe(9);
    expect(styles.numFmts).toEqual([
      { id: 164, code: '0.0%' },
      { id: 165, code: EURO },
    ]);
    expect(styles.numFmtsCount).toBe('2');
    expect(styles.xfsCount).toBe(String(styles.xfs.length));
    expect(styles.xfs).toHaveLength(5);
    // CT_Stylesheet order (§18.8.39): numFmts first; each new xf copies the font, fill and border of the first.
    expect(styles.order.slice(0, 2)).toEqual(['numFmts', 'fonts']);
    for (const xf of styles.xfs.slice(1)) {
      expect([attr(xf, 'fontId'), attr(xf, 'fillId'), attr(xf, 'borderId')]).toEqual(['0', '0', '0']);
      expect(attr(xf, 'applyNumberFormat')).toBe('1');
    }

    // ExcelJS, as a spreadsheet reader would, finds dates and the series' formats on the cells.
    const book = (await workbookReader(xlsx)).workbook.getWorksheet('Sheet1')!;
    expect(book.getCell('A2').value).toEqual(new Date(Date.UTC(2026, 0, 31)));
    expect(book.getCell('B3').numFmt).toBe('0.0%');
    expect(book.getCell('C6').numFmt).toBe(EURO);
    expect(book.getCell('D2').numFmt).toBe('0.0%');
    expect(book.getCell('E4').numFmt).toBe('0%');
  });

  it("the chart's number_format reaches the value cells; a series' typed values keep their own", async () => {
    const template = chartDeck();
    const thousands = '#,##0.0 "k"';
    const result = fill(
      template,
      {
        categories: ['Q1', 'Q2', 'Q3', 'Q4', 'Q5'],
        series: [
          { name: 'Sales', values: [1.5, 2.5, 3.5, 4.5, 5.5] },
          { name: 'Share', values: typed('0%', [0.1, 0.2, 0.3, 0.4, 0.5]) },
        ],
      },
      0,
      'Chart 5',
      { number_format: thousands },
    );
    expect(result.warnings).toEqual([]);
    await expectValidPptx(result.bytes, template);
    expect(await newWorkbookErrors(result.bytes, template)).toEqual([]);

    // The caches show what the cells show (docs/payload-charts.md "Formatting: `settings`").
    const files = packageFiles(result.bytes);
    const chart = strFromU8(files[chartItemOf(files, slideParts(result.bytes)[0]!, 6)]!);
    const codes = [...chart.matchAll(/<c:val>[\s\S]*?<c:formatCode>([^<]*)<\/c:formatCode>/g)].map(
      (m) => m[1],
    );
    expect(codes).toEqual([thousands, '0%']);

    const { parts, xlsx } = outputWorkbook(result.bytes);
    const b = column('B', DATA_ROWS);
    const c = column('C', DATA_ROWS);
    expect(formatsOf(parts, b)).toEqual(Object.fromEntries(b.map((ref) => [ref, thousands])));
    expect(formatsOf(parts, c)).toEqual(Object.fromEntries(c.map((ref) => [ref, '0%'])));
    // Text cells (categories, series names) keep the template's style.
    expect(formatsOf(parts, ['A2', 'B1', 'C1'])).toEqual({ A2: 'General', B1: 'General', C1: 'General' });
    expect(stylesOf(parts[STYLES]!).numFmts).toEqual([{ id: 164, code: thousands }]);

    const book = (await workbookReader(xlsx)).workbook.getWorksheet('Sheet1')!;
    expect(book.getCell('B2').value).toBe(1.5);
    expect(book.getCell('B2').numFmt).toBe(thousands);
    expect(book.getCell('C6').numFmt).toBe('0%');
  });

  it('reuses a number format and a cell format the workbook already has, and leaves styles.xml as it was', async () => {
    const template = withWorkbook(chartDeck(), (book) => {
      book[STYLES] = book[STYLES]!.replace(
        '<fonts',
        '<numFmts count="1"><numFmt numFmtId="170" formatCode="0.0%"/></numFmts><fonts',
      ).replace(
        /<cellXfs count="1">(<xf [^>]*\/>)<\/cellXfs>/,
        '<cellXfs count="2">$1<xf numFmtId="170" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>',
      );
    });
    const result = fill(template, {
      categories: ['Q1', 'Q2'],
      series: [{ name: 'Share', values: typed('0.0%', [0.125, 0.5]) }],
    });
    await expectValidPptx(result.bytes, template);
    const { parts } = outputWorkbook(result.bytes);
    expect(cellStyles(parts[SHEET]!).get('B2')).toBe('1');
    expect(cellStyles(parts[SHEET]!).get('B3')).toBe('1');
    expect(parts[STYLES]).toBe(strFromU8(unzipSync(unzipSync(template)[WORKBOOK]!)[STYLES]!));
  });

  it('a new number format takes an id no other format of the stylesheet has, a differential one included', async () => {
    const template = withWorkbook(chartDeck(), (book) => {
      book[STYLES] = book[STYLES]!.replace(
        '<dxfs count="0"/>',
        '<dxfs count="1"><dxf><numFmt numFmtId="164" formatCode="0.000"/></dxf></dxfs>',
      );
    });
    const result = fill(template, {
      categories: ['Q1', 'Q2'],
      series: [{ name: 'Share', values: typed('0.0%', [0.125, 0.5]) }],
    });
    await expectValidPptx(result.bytes, template);
    expect(await newWorkbookErrors(result.bytes, template)).toEqual([]);
    const { parts } = outputWorkbook(result.bytes);
    expect(stylesOf(parts[STYLES]!).numFmts).toEqual([{ id: 165, code: '0.0%' }]);
    expect(formatsOf(parts, ['B2', 'B3'])).toEqual({ B2: '0.0%', B3: '0.0%' });
  });

  it('values without a format keep the cells and the stylesheet as they were', async () => {
    const template = chartDeck();
    const result = fill(template, {
      categories: ['Q1', 'Q2', 'Q3', 'Q4', 'Q5'],
      series: [{ name: 'Sales', values: [1.5, 2.5, 3.5, 4.5, 5.5] }],
    });
    await expectValidPptx(result.bytes, template);
    const { parts } = outputWorkbook(result.bytes);
    expect(parts[STYLES]).toBe(strFromU8(unzipSync(unzipSync(template)[WORKBOOK]!)[STYLES]!));
    expect([...cellStyles(parts[SHEET]!).values()].every((s) => s === undefined)).toBe(true);
  });

  it('a workbook without a stylesheet keeps its cells unstyled', async () => {
    const template = withWorkbook(chartDeck(), (book) => {
      delete book[STYLES];
      book['xl/_rels/workbook.xml.rels'] = book['xl/_rels/workbook.xml.rels']!.replace(
        /<Relationship [^>]*relationships\/styles"[^>]*\/>/,
        '',
      );
      book['[Content_Types].xml'] = book['[Content_Types].xml']!.replace(
        /<Override PartName="\/xl\/styles.xml"[^>]*\/>/,
        '',
      );
    });
    const result = fill(template, TYPED_CONTENT);
    await expectValidPptx(result.bytes, template);
    expect(await newWorkbookErrors(result.bytes, template)).toEqual([]);
    const { parts } = outputWorkbook(result.bytes);
    expect(parts[STYLES]).toBeUndefined();
    expect([...cellStyles(parts[SHEET]!).values()].every((s) => s === undefined)).toBe(true);
  });

  itCorpus(
    'a real date chart: its date cells keep their date format, a percentage series gets its own',
    async () => {
      // python-pptx/cht-series.pptx, slide 9: a line chart on a date axis, categories m/d/yy in the cache and
      // the workbook's built-in date format 14 on the cells.
      const template = readCorpus('python-pptx/cht-series.pptx');
      const result = fill(
        template,
        {
          categories: ['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31', '2026-06-30'],
          series: [
            { name: 'Share', values: typed('0.0%', [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]) },
            { name: 'Plain', values: [1, 2, 3, 4, 5, 6] },
          ],
        },
        8,
        'Chart 1',
      );
      expect(result.warnings).toEqual([]);
      await expectValidPptx(result.bytes, template);
      const { parts } = outputWorkbook(result.bytes, 2);
      const styles = stylesOf(parts[STYLES]!);
      const s = cellStyles(parts[SHEET]!);
      const rows = [2, 3, 4, 5, 6, 7];
      expect(column('A', rows).map((ref) => styles.format(s.get(ref)).id)).toEqual(rows.map(() => 14));
      expect(column('B', rows).map((ref) => styles.format(s.get(ref)).code)).toEqual(rows.map(() => '0.0%'));
      expect(column('C', rows).map((ref) => s.get(ref))).toEqual(rows.map(() => undefined));
      expect(styles.numFmts).toEqual([{ id: 164, code: '0.0%' }]);
      expect(styles.order.slice(0, 2)).toEqual(['numFmts', 'fonts']);
      expect(styles.xfsCount).toBe(String(styles.xfs.length));
    },
  );
});
