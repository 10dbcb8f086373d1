/**
 * Large charts fill in time linear in categories × series (one series of 40 000 categories once took 53.6 s,
 * 5 000 series 65 s, because every cell written searched its row and every new row searched the sheet). Not a
 * timed test: the timeouts are bounds several times what a loaded machine needs, far under what the quadratic
 * steps took; what is asserted is that the decks are whole and in order (Excel refuses rows or cells out of
 * order). The figures are bench/chart-points/run.js's; most of this file's time is the validator's.
 */
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { generate } from '../../../src/engine/index.js';
import {
  chartItemOf,
  packageFiles,
  readChartSeries,
  textOf,
  workbookItemOf,
  workbookReader,
} from '../../support/readers/chart-reading.js';
import { chartDeck } from '../../support/decks/chart-templates.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { slideParts } from '../../support/decks/deck.js';

const CHART_2D = chartDeck();

function fill(categories: number, series: number, seriesName = (k: number) => `S${k + 1}`) {
  return generate({
    files: new Map([['t.pptx', CHART_2D]]),
    payload: {
      presentation: {
        template: 't.pptx',
        slides: [
          {
            slide_index: 0,
            shapes: [
              {
                name: 'Chart 5',
                content: {
                  categories: Array.from({ length: categories }, (_, i) => `Cat ${i + 1}`),
                  series: Array.from({ length: series }, (_, k) => ({
                    name: seriesName(k),
                    values: Array.from({ length: categories }, (_, i) => k * 1000 + i),
                  })),
                },
              },
            ],
          },
        ],
      },
    },
  });
}

/** The filled chart's XML, and its workbook: the .xlsx bytes, its first sheet's XML and its table's. */
function chartAndSheet(bytes: Uint8Array) {
  const files = packageFiles(bytes);
  const chart = chartItemOf(files, slideParts(bytes)[0] as string, 6);
  const xlsx = files[workbookItemOf(files, chart) as string] as Uint8Array;
  const book = unzipSync(xlsx);
  return {
    chartXml: textOf(files, chart),
    xlsx,
    sheetXml: strFromU8(book['xl/worksheets/sheet1.xml']!),
    tableXml: strFromU8(book['xl/tables/table1.xml']!),
  };
}

/** Excel refuses a sheet whose rows, or the cells of a row, are out of order: both must strictly ascend. */
function expectSheetInOrder(sheetXml: string, rows: number, cellsPerRow: number): void {
  const rowNumbers: number[] = [];
  for (const row of sheetXml.matchAll(/<row r="(\d+)"[^>]*>([\s\S]*?)<\/row>/g)) {
    rowNumbers.push(Number(row[1]));
    const columns = [...(row[2] as string).matchAll(/<c r="([A-Z]+)\d+"/g)].map((m) =>
      [...(m[1] as string)].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0),
    );
    expect(columns).toHaveLength(cellsPerRow);
    expect(columns.every((c, i) => i === 0 || c > (columns[i - 1] as number))).toBe(true);
  }
  expect(rowNumbers).toHaveLength(rows);
  expect(rowNumbers.every((r, i) => r === i + 1)).toBe(true);
}

/** Each filled deck, kept for the validator's test below. */
const decks = new Map<string, Uint8Array>();

describe('large charts', () => {
  // 45 s is generous: these fill in about a second on a quiet machine and their tests took 8–11 s on one loaded
  // twenty times over; before the fix the first took 53.6 s and the second 65 s on a quiet machine.
  it('one series of 40 000 categories: chart cache and workbook hold them all, in order', () => {
    const result = fill(40_000, 1);
    decks.set('40 000 categories', result.bytes);
    const { chartXml, sheetXml } = chartAndSheet(result.bytes);
    const [only] = readChartSeries(chartXml);
    expect(only?.values).toHaveLength(40_000);
    expect(only?.values.at(-1)).toBe(39_999);
    expect(only?.categories.at(-1)).toBe('Cat 40000');
    expectSheetInOrder(sheetXml, 40_001, 2);
    expect(sheetXml).toMatch(
      /<row r="40001"[^>]*><c r="A40001"[^>]*><v>\d+<\/v><\/c><c r="B40001"[^>]*><v>39999<\/v>/,
    );
  }, 45_000);

  it('5 000 series of one name and 10 categories: all in the chart, the workbook and its table, in order', async () => {
    const result = fill(10, 5_000, () => 'Sales');
    decks.set('5 000 series', result.bytes);
    const { chartXml, xlsx, sheetXml, tableXml } = chartAndSheet(result.bytes);
    const series = readChartSeries(chartXml);
    expect(series).toHaveLength(5_000);
    expect(series.at(-1)?.values).toEqual(Array.from({ length: 10 }, (_, i) => 4_999_000 + i));
    expectSheetInOrder(sheetXml, 11, 5_001);
    const reader = await workbookReader(xlsx);
    // Excel's names for repeated headers: Sales, Sales2 … (it repairs a workbook whose table names repeat),
    // written into the header cells too.
    expect(reader.cells('Sheet1!$GJI$1:$GJI$2')).toEqual(['Sales5000', 4_999_000]);
    const names = [...tableXml.matchAll(/<tableColumn [^>]*name="([^"]*)"/g)].map((m) => m[1]);
    expect(names).toEqual([' ', 'Sales', ...Array.from({ length: 4_999 }, (_, i) => `Sales${i + 2}`)]);
  }, 45_000);

  it("both decks are valid (the validator takes most of this file's time)", async () => {
    expect([...decks.keys()]).toEqual(['40 000 categories', '5 000 series']);
    for (const bytes of decks.values()) await expectValidPptx(bytes, CHART_2D);
  }, 600_000);
});
