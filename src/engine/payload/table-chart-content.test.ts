import { describe, expect, it } from 'vitest';
import { engineErrorOf } from '../../../test/support/checks/engine-error.js';
import type { ChartContent, ShapeContent, TableContent } from './model.js';
import { parsePayload } from './parse-payload.js';

const AT = 'presentation.slides[0].shapes[0]';

function content(shape: Record<string, unknown>): ShapeContent | null {
  const { request } = parsePayload({
    presentation: { template: 't.pptx', slides: [{ slide_index: 0, shapes: [{ name: 'S', ...shape }] }] },
  });
  return request.slides[0]?.shapes[0]?.content ?? null;
}

function refusal(shape: Record<string, unknown>): { path: string | null; message: string } {
  const e = engineErrorOf(() => content(shape));
  return { path: e.path, message: e.message };
}

const plain = (text: string) => ({
  kind: 'text',
  fromRuns: false,
  paragraphs: [{ props: {}, runs: [{ text, props: {} }] }],
});

describe('table content', () => {
  it('takes cells as strings, numbers, null and objects', () => {
    const table = content({ data_cells: [['Region', 2026, null, { text: 'x' }]] }) as TableContent;
    expect(table).toEqual({
      kind: 'table',
      rows: [[{ text: plain('Region') }, { text: plain('2026') }, { text: null }, { text: plain('x') }]],
      overflow: 'warn',
      headerRows: null,
      unspecifiedCells: null,
    });
  });

  it('writes numbers as a person reads them: no float noise, no exponent', () => {
    const table = content({ content: [[0.1 + 0.2, 1e21, 1e-7, -0, 1234.5, 2 ** 53 + 2]] }) as TableContent;
    expect(table.rows[0]?.map((cell) => cell.text?.paragraphs[0]?.runs[0]?.text)).toEqual([
      '0.3',
      '1000000000000000000000',
      '0.0000001',
      '0',
      '1234.5',
      '9007199254740990',
    ]);
  });

  it('takes overflow and header_rows on the shape entry', () => {
    expect(content({ content: [['a']], overflow: 'Continue', header_rows: 2 })).toMatchObject({
      overflow: 'continue',
      headerRows: 2,
    });
    expect(content({ data_cells: [['a']], overflow: 'warn' })).toMatchObject({
      overflow: 'warn',
      headerRows: null,
    });
    expect(refusal({ content: [['a']], overflow: 'split' })).toEqual({
      path: `${AT}.overflow`,
      message: `${AT}.overflow: expected one of "warn", "continue", got "split"`,
    });
    expect(refusal({ content: [['a']], header_rows: -1 }).path).toBe(`${AT}.header_rows`);
  });

  it('takes unspecified_cells on the shape entry: "keep" or "clear"', () => {
    expect(content({ content: [['a']], unspecified_cells: 'clear' })).toMatchObject({
      unspecifiedCells: 'clear',
    });
    expect(content({ content: [['a']], unspecified_cells: 'keep' })).toMatchObject({
      unspecifiedCells: 'keep',
    });
    expect(content({ content: [['a']], overflow: 'continue' })).toMatchObject({ unspecifiedCells: null });
    expect(refusal({ content: [['a']], unspecified_cells: 'empty' }).message).toBe(
      `${AT}.unspecified_cells: expected one of "keep", "clear", got "empty"`,
    );
  });

  it('warns that overflow and header_rows mean nothing without table rows', () => {
    const { warnings } = parsePayload({
      presentation: {
        template: 't.pptx',
        slides: [{ slide_index: 0, shapes: [{ name: 'S', content: 'text', overflow: 'continue' }] }],
      },
    });
    expect(warnings).toEqual([
      { path: `${AT}.overflow`, message: 'overflow applies to table rows given with this shape; ignored' },
    ]);
  });

  it('refuses more rows than a table takes before reading them', () => {
    const rows = Array.from({ length: 100_000 }, () => ['x']);
    expect(refusal({ data_cells: rows })).toEqual({
      path: `${AT}.data_cells`,
      message:
        `${AT}.data_cells: 100000 rows is more than a table takes (at most 10000); ` +
        'split the data over several tables or requests',
    });
  });

  it('names the field the rows came from, for errors found against the template', () => {
    const { request } = parsePayload({
      presentation: {
        template: 't.pptx',
        slides: [
          {
            slide_index: 0,
            shapes: [
              { name: 'S', data_cells: [['a']] },
              { name: 'T', content: [['a']] },
            ],
          },
        ],
      },
    });
    expect(request.slides[0]?.shapes.map((s) => s.contentField)).toEqual(['data_cells', 'content']);
  });

  it('reads text_runs and text_content as older spellings of text, and runs in cells', () => {
    const table = content({
      content: [
        [{ text_runs: [{ text_run: 'a', text_properties: { font_bold: true } }] }, { text_content: 'b' }, {}],
      ],
    }) as TableContent;
    expect(table.rows[0]?.[0]?.text).toMatchObject({
      fromRuns: true,
      paragraphs: [{ runs: [{ text: 'a', props: { bold: true } }] }],
    });
    expect(table.rows[0]?.[1]?.text).toEqual(plain('b'));
    expect(table.rows[0]?.[2]).toEqual({ text: null });
  });

  it('maps cell_properties: fill, vertical alignment and any text property', () => {
    const table = content({
      data_cells: [
        ['a'],
        [
          {
            text: 'b',
            cell_properties: {
              fill_color: 'RGB(10,20,30)',
              vertical_align: 'middle',
              font_size: 9,
              font_color: 'gray',
              text_align: 'right',
            },
          },
        ],
      ],
    }) as TableContent;
    expect(table.rows[1]?.[0]).toEqual({
      text: plain('b'),
      fillColor: '0A141E',
      verticalAlign: 'ctr',
      runProps: { size: 900, color: '808080' },
      paragraphProps: { align: 'r' },
    });
    const valign = (v: string) =>
      (content({ data_cells: [[{ cell_properties: { vertical_align: v } }]] }) as TableContent).rows[0]?.[0]
        ?.verticalAlign;
    expect([valign('top'), valign('middle'), valign('bottom')]).toEqual(['t', 'ctr', 'b']);
  });

  it('refuses bad rows and cells, naming the cell', () => {
    expect(refusal({ data_cells: [['a'], 'b'] })).toEqual({
      path: `${AT}.data_cells[1]`,
      message: `${AT}.data_cells[1]: expected a row (an array of cells), got "b"`,
    });
    expect(refusal({ data_cells: [['a', true]] }).message).toBe(
      `${AT}.data_cells[0][1]: expected a cell (a string, a number, null, an object {text, cell_properties} or a typed value {number|date, format}), got true`,
    );
    expect(refusal({ data_cells: [[{ text: 'a', text_runs: [] }]] }).message).toBe(
      `${AT}.data_cells[0][0]: expected only one of text, text_runs, text_content, got text and text_runs`,
    );
    expect(refusal({ data_cells: [[{ cell_properties: { vertical_align: 'center' } }]] }).path).toBe(
      `${AT}.data_cells[0][0].cell_properties.vertical_align`,
    );
    expect(refusal({ data_cells: [[{ cell_properties: { fill_color: '#12345' } }]] }).path).toBe(
      `${AT}.data_cells[0][0].cell_properties.fill_color`,
    );
    expect(refusal({ content: [['a'], [{ cell_properties: { font_size: 0 } }]] }).message).toBe(
      `${AT}.content[1][0].cell_properties.font_size: expected a number from 1 to 4000, got 0`,
    );
  });
});

describe('chart content', () => {
  const expected: ChartContent = {
    kind: 'chart',
    categories: ['Q1', 'Q2'],
    series: [
      { name: 'North', values: [1, 3] },
      { name: 'South', values: [2, null] },
    ],
  };

  it('takes {categories, series}', () => {
    expect(
      content({
        content: {
          categories: ['Q1', 'Q2'],
          series: [
            { name: 'North', values: [1, 3] },
            { name: 'South', values: [2, null] },
          ],
        },
      }),
    ).toEqual(expected);
  });

  it('takes the hosted data matrix (series names, category names, one row per category), as data or inside content', () => {
    const data = [
      ['North', 'South'],
      ['Q1', 'Q2'],
      [1, 2],
      [3, null],
    ];
    expect(content({ data })).toEqual(expected);
    expect(content({ content: { data } })).toEqual(expected);
  });

  it('reads numbers as names, numeric strings as values', () => {
    expect(content({ data: [[2025, 2026], ['a'], ['1.5', ' -2e3 ']] })).toEqual({
      kind: 'chart',
      categories: ['a'],
      series: [
        { name: '2025', values: [1.5] },
        { name: '2026', values: [-2000] },
      ],
    });
  });

  it('takes scatter (x, y) and bubble (x, y, size) series', () => {
    expect(content({ content: { series: [{ name: 'S', x: [1, 2], y: [3, 4], size: [5, 6] }] } })).toEqual({
      kind: 'chart',
      categories: [],
      series: [{ name: 'S', x: [1, 2], y: [3, 4], size: [5, 6] }],
    });
  });

  it('keeps overlays given in the content', () => {
    expect(
      content({
        content: { categories: ['a', 'b'], series: [{ name: 'S', values: [1, 2] }], overlays: [['x', 'y']] },
      }),
    ).toMatchObject({
      overlays: [['x', 'y']],
    });
  });

  it('refuses inconsistent data, naming the path', () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ data: [['a', 'b'], ['c'], [1]] }, `${AT}.data[2]`, 'expected 2 values (one per series), got 1'],
      [
        { data: [['a'], ['c', 'd'], [1]] },
        `${AT}.data`,
        'expected 2 value rows after the two name rows (one per category), got 1',
      ],
      [{ data: [['a']] }, `${AT}.data`, 'expected a data matrix'],
      [
        { data: [['a'], ['c'], ['x']] },
        `${AT}.data[2][0]`,
        'expected a number, a numeric string, a typed value {number|date, format} or null, got "x"',
      ],
      [
        { content: { categories: ['a', 'b'], series: [{ name: 'S', values: [1] }] } },
        `${AT}.content.series[0].values`,
        'expected 2 values (one per category), got 1',
      ],
      [{ content: { categories: ['a'] } }, `${AT}.content`, 'expected series or data, got none of them'],
      [{ content: { series: [] } }, `${AT}.content.series`, 'expected a non-empty array'],
      [
        { content: { series: [{ values: [1] }] } },
        `${AT}.content.series[0].name`,
        'expected a string, a number or a typed value {number|date, format}, got nothing',
      ],
      [
        { content: { series: [{ name: 'S' }] } },
        `${AT}.content.series[0]`,
        'expected values or x, got none of them',
      ],
      [
        { content: { series: [{ name: 'S', x: [1] }] } },
        `${AT}.content.series[0]`,
        'expected both x and y, got only one of them',
      ],
      [
        { content: { series: [{ name: 'S', x: [1], y: [1, 2] }] } },
        `${AT}.content.series[0].y`,
        'expected 1 values (as many as x), got 2',
      ],
      [
        { content: { series: [{ name: 'S', values: [1] }], data: [['a'], ['b'], [1]] } },
        `${AT}.content`,
        'expected only one of series, data',
      ],
      [
        { content: { series: [{ name: 'S', values: [1] }], overlays: [['a'], ['b']] } },
        `${AT}.content.overlays`,
        'expected at most 1 arrays (one per series), got 2',
      ],
      [
        { content: { series: [{ name: 'S', values: [1] }], overlays: [['a', 'b']] } },
        `${AT}.content.overlays[0]`,
        'expected at most 1 strings (one per point), got 2',
      ],
    ];
    for (const [shape, path, text] of cases) {
      const r = refusal(shape);
      expect(r.path, text).toBe(path);
      expect(r.message).toContain(text);
    }
  });
});
