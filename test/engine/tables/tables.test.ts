/**
 * Filling template tables (docs/payload-tables.md): text that replaces a cell's and looks like the
 * template's, rows added and removed, merged cells under both conventions, rich cells, tags in cells, inspect's
 * report, and the refusals. Every deck a test writes passes expectValidPptx.
 */
import { describe, expect, it } from 'vitest';
import { inspect, type GenerateResult } from '../../../src/engine/index.js';
import { engineErrorOf } from '../../support/checks/engine-error.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { editPart } from '../../support/decks/package-edit.js';
import { tablesDeck } from '../../support/decks/table-decks.js';
import {
  mergeProblems,
  paragraphTexts,
  tablesIn,
  type ReadTable,
} from '../../support/readers/table-reading.js';
import { parts, run, slideParts } from '../../support/decks/deck.js';
import { groupTable } from './table-templates.js';

// The owned table template (table-decks.ts): slide 0 "Table 1" and "Table 2", slide 1 the formatted and empty
// tables, slides 2-4 the merged ones.
const TABLES = tablesDeck();
const MERGED = TABLES;
const CASE4 = TABLES;
const FORMATS = 1;
const [ACROSS, DOWN, BOTH] = [2, 3, 4];

/** The tables of output slide `position`, by name. */
function tablesOf(result: GenerateResult, position: number): Map<string, ReadTable> {
  const xml = parts(result.bytes).get(slideParts(result.bytes)[position]!)!;
  return new Map(tablesIn(xml).map((t) => [t.name, t]));
}

function texts(table: ReadTable): string[][] {
  return table.rows.map((row) => row.map((cell) => cell.text));
}

describe('cell text', () => {
  it('a string replaces all of a cell\'s text; "\\n" starts paragraphs that keep the template\'s paragraph i formatting', async () => {
    // Cell (0,0) of "TableWithFormattedCells" gets a second paragraph of its own formatting (right, 9 pt).
    const template = editPart(TABLES, 'ppt/slides/slide2.xml', (xml) => {
      const at = xml.indexOf('<a:t>cell</a:t>', xml.indexOf('TableWithFormattedCells'));
      const end = xml.indexOf('</a:p>', at) + '</a:p>'.length;
      return `${xml.slice(0, end)}<a:p><a:pPr algn="r"/><a:r><a:rPr lang="de-DE" sz="900"/><a:t>second</a:t></a:r></a:p>${xml.slice(end)}`;
    });
    const result = run(template, {
      slides: [
        {
          slide_index: FORMATS,
          shapes: [{ name: 'TableWithFormattedCells', content: [['One\nTwo\nThree', 'x']] }],
        },
      ],
    });
    const cell = tablesOf(result, 0).get('TableWithFormattedCells')!.rows[0]![0]!;
    expect(paragraphTexts(cell.xml)).toEqual(['One', 'Two', 'Three']);
    const paragraphs = [...cell.xml.matchAll(/<a:p>[\s\S]*?<\/a:p>/g)].map((m) => m[0]);
    expect(paragraphs[0]).toMatch(/<a:pPr [^>]*algn="ctr"/);
    expect(paragraphs[0]).toMatch(/<a:rPr [^>]*sz="1400" b="1"[\s\S]*<a:srgbClr val="979696"\/>/);
    for (const p of paragraphs.slice(1)) {
      expect(p).toMatch(/<a:pPr algn="r"\/>/);
      expect(p).toMatch(/<a:rPr lang="de-DE" sz="900"\/>/);
    }
    await expectValidPptx(result.bytes, template);
  });

  it("text written into a cell that had no run looks like the template's (its a:endParaRPr)", async () => {
    const result = run(TABLES, {
      slides: [
        {
          slide_index: FORMATS,
          shapes: [{ name: 'TableWithEmptyCells', content: [[null, 'value'], [], ['Total']] }],
        },
      ],
    });
    const table = tablesOf(result, 0).get('TableWithEmptyCells')!;
    expect(texts(table)).toEqual([
      ['label', 'value'],
      ['label', ''],
      ['Total', ''],
    ]);
    // Empty in the template: centred, 14 pt, the theme's minor font; bold and right-aligned in the first column.
    expect(table.rows[0]![1]!.xml).toMatch(
      /<a:pPr algn="ctr"\/><a:r><a:rPr lang="de-DE" sz="1400"><a:latin typeface="\+mn-lt"\/><\/a:rPr><a:t>value<\/a:t>/,
    );
    expect(table.rows[2]![0]!.xml).toMatch(/<a:pPr algn="r"\/><a:r><a:rPr lang="de-DE" sz="1400" b="1">/);
    await expectValidPptx(result.bytes, TABLES);
  });

  it('numbers read as a person would write them', async () => {
    const result = run(TABLES, {
      slides: [
        { slide_index: FORMATS, shapes: [{ name: 'EmptyTable', content: [[0.1 + 0.2, 1e21, -1234.5]] }] },
      ],
    });
    expect(texts(tablesOf(result, 0).get('EmptyTable')!)[0]).toEqual([
      '0.3',
      '1000000000000000000000',
      '-1234.5',
    ]);
    await expectValidPptx(result.bytes, TABLES);
  });

  it('rich cells: runs with links, the older text_runs and text_content, and cell_properties over the whole cell', async () => {
    const result = run(CASE4, {
      slides: [
        {
          slide_index: 0,
          shapes: [
            {
              name: 'Table 1',
              data_cells: [
                [
                  {
                    text: [
                      { text_run: 'Bold ', text_properties: { font_bold: true } },
                      { text_run: 'site', text_properties: { hyperlink: 'https://example.com/a?b=1&c=2' } },
                      { text_run: 'next line', text_properties: { new_line: true, font_size: 20 } },
                    ],
                    cell_properties: {
                      fill_color: '#FFEE00',
                      vertical_align: 'middle',
                      font_size: 9,
                      font_color: 'navy',
                      text_align: 'right',
                    },
                  },
                  { text_runs: [{ text_run: 'runs' }] },
                  { text_content: 'content' },
                  { cell_properties: { fill_color: 'silver' } },
                ],
              ],
            },
          ],
        },
      ],
    });
    const table = tablesOf(result, 0).get('Table 1')!;
    expect(table.rows).toHaveLength(1);
    const [rich, runs, content, fillOnly] = table.rows[0]!;
    expect(paragraphTexts(rich!.xml)).toEqual(['Bold site', 'next line']);
    expect(rich!.xml).toMatch(
      /<a:pPr algn="r"\/><a:r><a:rPr lang="en-US" sz="900" b="1"><a:solidFill><a:srgbClr val="000080"\/>/,
    );
    // A run's own size wins over the cell's; the link has its relationship.
    expect(rich!.xml).toMatch(
      /<a:rPr lang="en-US" sz="2000"><a:solidFill><a:srgbClr val="000080"\/><\/a:solidFill><\/a:rPr><a:t>next line/,
    );
    const rId = /<a:hlinkClick r:id="(rId\d+)"\/><\/a:rPr><a:t>site<\/a:t>/.exec(rich!.xml)?.[1];
    const rels = parts(result.bytes).get('ppt/slides/_rels/slide1.xml.rels')!;
    expect(rels).toMatch(
      new RegExp(`Id="${rId}"[^>]*Target="https://example.com/a\\?b=1&amp;c=2"[^>]*TargetMode="External"`),
    );
    // The fill goes after the borders (CT_TableCellProperties order), the anchor on a:tcPr.
    expect(rich!.xml).toMatch(
      /<a:tcPr anchor="ctr">[\s\S]*<\/a:lnBlToTr><a:solidFill><a:srgbClr val="FFEE00"\/><\/a:solidFill><\/a:tcPr>/,
    );
    expect(runs!.text).toBe('runs');
    expect(content!.text).toBe('content');
    expect(fillOnly!.text).toBe('');
    expect(fillOnly!.xml).toMatch(/<a:solidFill><a:srgbClr val="C0C0C0"\/><\/a:solidFill><\/a:tcPr>/);
    await expectValidPptx(result.bytes, CASE4);
  });

  it("{{tags}} in cells are replaced, also when PowerPoint split them across runs, and in the payload's own text", async () => {
    const template = editPart(TABLES, 'ppt/slides/slide2.xml', (xml) => {
      const start = xml.indexOf('TableWithFormattedCells');
      const at = xml.indexOf('<a:t>cell</a:t></a:r>', start);
      const split =
        '<a:t>{{reg</a:t></a:r><a:r><a:rPr lang="de-DE" sz="1400" err="1"/><a:t>ion}} total</a:t></a:r>';
      return xml.slice(0, at) + split + xml.slice(at + '<a:t>cell</a:t></a:r>'.length);
    });
    const result = run(template, {
      tags: [
        { key: 'region', value: 'EMEA' },
        { key: 'currency', value: 'EUR' },
      ],
      slides: [
        {
          slide_index: FORMATS,
          shapes: [{ name: 'TableWithFormattedCells', content: [[null, 'in {{ currency }}']] }],
        },
      ],
    });
    expect(texts(tablesOf(result, 0).get('TableWithFormattedCells')!)[0]).toEqual(['EMEA total', 'in EUR']);
    expect(result.warnings).toEqual([]);
    await expectValidPptx(result.bytes, template);
  });
});

describe('rows', () => {
  it('added rows copy the last row (height, borders, fills, text formatting) and get row ids of their own', async () => {
    const rows = [
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
      ['g', 'h'],
      ['i', 'j'],
    ];
    const result = run(TABLES, {
      slides: [{ slide_index: FORMATS, shapes: [{ name: 'TableWithFormattedCells', content: rows }] }],
    });
    const table = tablesOf(result, 0).get('TableWithFormattedCells')!;
    expect(texts(table)).toEqual(rows);
    expect(table.rowHeights).toEqual([370840, 370840, 370840, 370840, 370840]);
    expect(table.frameHeight).toBe(5 * 370840);
    const look = (xml: string): string => xml.replace(/<a:t>[^<]*<\/a:t>/g, '');
    for (const r of [3, 4])
      for (const c of [0, 1]) expect(look(table.rows[r]![c]!.xml)).toBe(look(table.rows[2]![c]!.xml));
    const rowIds = [...table.xml.matchAll(/<a16:rowId [^>]*val="(\d+)"/g)].map((m) => m[1]);
    expect(rowIds).toHaveLength(5);
    expect(new Set(rowIds).size).toBe(5);
    await expectValidPptx(result.bytes, TABLES);
  });

  it('rows beyond the payload go, and the frame follows; a short row leaves the rest of its cells', async () => {
    const result = run(TABLES, {
      slides: [
        {
          slide_index: FORMATS,
          shapes: [{ name: 'TableWithHeader', content: [['Region'], ['North', 1, 2, 3]] }],
        },
      ],
    });
    const table = tablesOf(result, 0).get('TableWithHeader')!;
    expect(texts(table)).toEqual([
      ['Region', 'Header 2', 'Header 3', 'Header 4'],
      ['North', '1', '2', '3'],
    ]);
    expect(table.frameHeight).toBe(table.rowHeights[0]! + table.rowHeights[1]!);
    await expectValidPptx(result.bytes, TABLES);
  });

  it('refuses a row longer than the grid, naming the row, its length, the grid and the field sent', () => {
    const error = engineErrorOf(() =>
      run(TABLES, {
        slides: [
          {
            slide_index: FORMATS,
            shapes: [{ name: 'TableDefault', data_cells: [['a'], ['a', 'b', 'c', 'd', 'e']] }],
          },
        ],
      }),
    );
    expect(error.code).toBe('INVALID_PAYLOAD');
    expect(error.path).toBe('presentation.slides[0].shapes[0].data_cells[1]');
    expect(error.message).toContain('table "TableDefault" has 4 columns, row 1 has 5 cells');
  });
});

describe('merged cells', () => {
  it('the text of a merge goes to its first cell, or to a later cell when the first is null or ""', async () => {
    const result = run(MERGED, {
      slides: [
        {
          slide_index: ACROSS,
          shapes: [
            {
              name: 'Merged across',
              content: [
                ['Whole row', null, null],
                ['a', 'b', 'c'],
                ['', 'Sent in the last cell', 'kept'],
                ['x', 'first wins', 'hidden'],
                [null, '', 'from the end'],
                [null, null, 'Footer'],
              ],
            },
          ],
        },
      ],
    });
    const table = tablesOf(result, 0).get('Merged across')!;
    expect(texts(table)).toEqual([
      ['Whole row', '', ''],
      ['a', 'b', 'c'],
      ['Sent in the last cell', '', 'kept'],
      ['x', 'first wins', ''],
      ['C: 4, 0', 'from the end', ''],
      ['Footer', '', ''],
    ]);
    expect(result.warnings).toEqual([
      {
        path: 'presentation.slides[0].shapes[0].content[3][2]',
        message:
          'this cell is covered by the merged cell at row 3, column 1, which shows other text; its text is not shown',
      },
    ]);
    expect(mergeProblems(table)).toEqual([]);
    await expectValidPptx(result.bytes, MERGED);
  });

  it('a vertical merge never runs past the last row, and added rows continue none', async () => {
    const content = (rows: number): string[][] =>
      Array.from({ length: rows }, (_, r) => [`r${r}`, '', `c${r}`, '']);
    const result = run(MERGED, {
      slides: [2, 8].map((rows) => ({
        slide_index: DOWN,
        shapes: [{ name: 'Merged down', content: content(rows) }],
      })),
    });
    const shrunk = tablesOf(result, 0).get('Merged down')!;
    expect(mergeProblems(shrunk)).toEqual([]);
    expect(shrunk.rows.map((row) => row.map((c) => [c.rowSpan, c.vMerge]))).toEqual([
      [
        [2, false],
        [2, false],
        [1, false],
        [1, false],
      ],
      [
        [1, true],
        [1, true],
        [1, false],
        [1, false],
      ],
    ]);
    const grown = tablesOf(result, 1).get('Merged down')!;
    expect(mergeProblems(grown)).toEqual([]);
    expect(grown.rows[0]!.map((c) => c.rowSpan)).toEqual([6, 3, 1, 1]);
    for (const r of [6, 7]) expect(grown.rows[r]!.some((c) => c.vMerge || c.rowSpan > 1)).toBe(false);
    expect(texts(grown).map((row) => row[0])).toEqual(['r0', '', '', '', '', '', 'r6', 'r7']);
    await expectValidPptx(result.bytes, MERGED);
  });

  it('a two-way merge cut by the last row stays a merge along its row', async () => {
    const content = [
      ['a', '', 'b', 'c'],
      ['', '', 'd', 'e'],
      ['f', 'Wide', '', ''],
    ];
    const result = run(MERGED, {
      slides: [{ slide_index: BOTH, shapes: [{ name: 'Merged both ways', content }] }],
    });
    const table = tablesOf(result, 0).get('Merged both ways')!;
    expect(mergeProblems(table)).toEqual([]);
    expect(table.rows[2]!.map((c) => [c.gridSpan, c.rowSpan, c.hMerge, c.vMerge])).toEqual([
      [1, 1, false, false],
      [3, 1, false, false],
      [1, 1, true, false],
      [1, 1, true, false],
    ]);
    expect(texts(table)[2]).toEqual(['f', 'Wide', '', '']);
    await expectValidPptx(result.bytes, MERGED);
  });

  it('growing a table that has only its header row does not copy the header merge into body rows', async () => {
    // "Merged across" cut to its first row, which spans all three columns.
    const template = editPart(MERGED, 'ppt/slides/slide3.xml', (xml) => {
      const first = xml.indexOf('</a:tr>') + '</a:tr>'.length;
      const end = xml.lastIndexOf('</a:tr>') + '</a:tr>'.length;
      return xml.slice(0, first) + xml.slice(end);
    });
    const result = run(template, {
      slides: [
        {
          slide_index: ACROSS,
          shapes: [
            {
              name: 'Merged across',
              header_rows: 1,
              content: [
                ['Title', null, null],
                ['a', 'b', 'c'],
                ['d', 'e', 'f'],
              ],
            },
          ],
        },
      ],
    });
    const table = tablesOf(result, 0).get('Merged across')!;
    expect(texts(table)).toEqual([
      ['Title', '', ''],
      ['a', 'b', 'c'],
      ['d', 'e', 'f'],
    ]);
    expect(table.rows[0]![0]!.gridSpan).toBe(3);
    for (const row of table.rows.slice(1)) expect(row.some((c) => c.gridSpan > 1 || c.hMerge)).toBe(false);
    expect(mergeProblems(table)).toEqual([]);
    await expectValidPptx(result.bytes, template);
  });
});

describe('where tables are', () => {
  it('several tables on a slide, a slide used several times, each copy with its own rows', async () => {
    const result = run(CASE4, {
      slides: [0, 1, 2].map((copy) => ({
        slide_index: 0,
        shapes: [
          {
            name: 'Table 1',
            content: Array.from({ length: copy + 1 }, (_, r) => [`t1 copy ${copy} row ${r}`]),
          },
          { name: 'Table 2', content: [[`t2 copy ${copy}`]] },
        ],
      })),
    });
    expect(result.slideCount).toBe(3);
    for (const copy of [0, 1, 2]) {
      const tables = tablesOf(result, copy);
      expect(texts(tables.get('Table 1')!).map((row) => row[0])).toEqual(
        Array.from({ length: copy + 1 }, (_, r) => `t1 copy ${copy} row ${r}`),
      );
      expect(texts(tables.get('Table 2')!)).toEqual([[`t2 copy ${copy}`, '', '', '', '']]);
    }
    await expectValidPptx(result.bytes, CASE4);
  });

  it('a table inside a group, found by name and filled', async () => {
    const template = groupTable(CASE4, 1);
    const result = run(template, {
      slides: [{ slide_index: 0, shapes: [{ name: 'Table 1', content: [['in a group'], ['second']] }] }],
    });
    expect(inspect(template).slides[0]!.shapes.find((s) => s.name === 'Table 1')!.group).toBe('Grouped');
    expect(texts(tablesOf(result, 0).get('Table 1')!).map((row) => row[0])).toEqual(['in a group', 'second']);
    await expectValidPptx(result.bytes, template);
  });
});

describe('inspect', () => {
  it("reports each table's grid, merges, header flag, first row and every cell", () => {
    const shapes = inspect(MERGED).slides[BOTH]!.shapes;
    expect(shapes.find((s) => s.kind === 'table')?.table).toEqual({
      rows: 5,
      columns: 4,
      headerRow: false,
      merges: [
        { row: 0, column: 0, rowSpan: 2, columnSpan: 2 },
        { row: 2, column: 1, rowSpan: 3, columnSpan: 3 },
      ],
      firstRow: ['C: 0, 0 merged 2 x 2', '', 'C: 0, 2', 'C: 0, 3'],
      cells: [
        ['C: 0, 0 merged 2 x 2', '', 'C: 0, 2', 'C: 0, 3'],
        ['', '', 'C: 1, 2', 'C: 1, 3'],
        ['C: 2, 0', 'C: 2, 1', '', ''],
        ['C: 3, 0', '', '', ''],
        ['C: 4, 0', '', '', ''],
      ],
    });
    const header = inspect(CASE4).slides[0]!.shapes.find((s) => s.name === 'Table 1')!.table!;
    expect([header.rows, header.columns, header.headerRow, header.firstRow]).toEqual([
      6,
      5,
      true,
      ['', '', '', '', ''],
    ]);
  });
});

describe('refusals', () => {
  it('table rows for a text shape, and text for a table, name both kinds', () => {
    const rowsForText = engineErrorOf(() =>
      run(TABLES, { slides: [{ slide_index: 0, shapes: [{ name: 'Title 1', content: [['a']] }] }] }),
    );
    expect(rowsForText.code).toBe('CONTENT_MISMATCH');
    expect(rowsForText.message).toContain('shape "Title 1" is a text shape but content is a table');
    const textForTable = engineErrorOf(() =>
      run(TABLES, {
        slides: [{ slide_index: FORMATS, shapes: [{ name: 'TableDefault', content: 'hello' }] }],
      }),
    );
    expect(textForTable.code).toBe('CONTENT_MISMATCH');
    expect(textForTable.message).toContain(
      'shape "TableDefault" is a table but content is text; a table takes an array of rows',
    );
  });

  it('rows and cells of the wrong type are refused at their path', () => {
    const error = engineErrorOf(() =>
      run(TABLES, {
        slides: [{ slide_index: FORMATS, shapes: [{ name: 'TableDefault', content: [['a'], { b: 1 }] }] }],
      }),
    );
    expect(error.path).toBe('presentation.slides[0].shapes[0].content[1]');
    expect(error.message).toContain('expected a row (an array of cells), got an object');
  });

  it('a 100 000-row table is refused by the documented limit, before the rows are read', () => {
    const rows = Array.from({ length: 100_000 }, (_, r) => [`row ${r}`, r, r * 2, 'x', 'y', 'z']);
    const started = performance.now();
    const error = engineErrorOf(() =>
      run(CASE4, {
        slides: [{ slide_index: 0, shapes: [{ name: 'Table 1', content: rows, overflow: 'continue' }] }],
      }),
    );
    expect(performance.now() - started).toBeLessThan(2000);
    expect(error.code).toBe('INVALID_PAYLOAD');
    expect(error.message).toContain('100000 rows is more than a table takes (at most 10000)');
  });
});
