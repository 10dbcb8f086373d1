/**
 * Cells a payload row does not list (a row shorter than the grid, a table filled with fewer columns than it
 * has): by default they keep the template's text and a warning names them; `"unspecified_cells": "clear"`
 * empties them, `"keep"` keeps them without a warning. Every deck passes expectValidPptx.
 */
import { describe, expect, it } from 'vitest';
import type { GenerateResult } from '../../../src/engine/index.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { REPORT_TEMPLATE } from '../../support/decks/report-template.js';
import { tablesIn } from '../../support/readers/table-reading.js';
import { parts, run, slideParts } from '../../support/decks/deck.js';

const AT = 'presentation.slides[0].shapes[0].content';

function fill(table: Record<string, unknown>): GenerateResult {
  return run(REPORT_TEMPLATE, { slides: [{ slide_index: 0, shapes: [{ name: 'Table 1', ...table }] }] });
}

function texts(result: GenerateResult): string[][] {
  const xml = parts(result.bytes).get(slideParts(result.bytes)[0]!)!;
  const table = tablesIn(xml).find((t) => t.name === 'Table 1')!;
  return table.rows.map((row) => row.map((cell) => cell.text));
}

const SHORT_ROWS = [
  ['Region', 'Sales'],
  ['North', 1200],
  ['South', 950, 'n/a'],
];

describe('cells a row does not list', () => {
  it("keep the template's text by default, with one warning naming them row by row", async () => {
    const result = fill({ content: SHORT_ROWS });
    expect(texts(result)).toEqual([
      ['Region', 'Sales', 'Q2', 'Q3', 'Q4'],
      ['North', '1200', '2', '3', '4'],
      ['South', '950', 'n/a', '7', '8'],
    ]);
    expect(result.warnings).toEqual([
      {
        path: AT,
        message:
          'table "Table 1" has 5 columns; cells not given in the payload keep the template\'s text: ' +
          'row 0 columns 2–4, row 1 columns 2–4, row 2 columns 3–4; send "" for an empty cell, or ' +
          '"unspecified_cells": "clear" (or "keep") on the shape',
      },
    ]);
    await expectValidPptx(result.bytes, REPORT_TEMPLATE);
  });

  it('are emptied with "unspecified_cells": "clear", without a warning; null still keeps a cell', async () => {
    const result = fill({
      unspecified_cells: 'clear',
      content: [['Region', 'Sales', null], ...SHORT_ROWS.slice(1)],
    });
    expect(texts(result)).toEqual([
      ['Region', 'Sales', 'Q2', '', ''],
      ['North', '1200', '', '', ''],
      ['South', '950', 'n/a', '', ''],
    ]);
    expect(result.warnings).toEqual([]);
    await expectValidPptx(result.bytes, REPORT_TEMPLATE);
  });

  it('are kept without a warning with "unspecified_cells": "keep"', async () => {
    const result = fill({ unspecified_cells: 'keep', content: SHORT_ROWS });
    expect(texts(result)[1]).toEqual(['North', '1200', '2', '3', '4']);
    expect(result.warnings).toEqual([]);
    await expectValidPptx(result.bytes, REPORT_TEMPLATE);
  });

  it('rows added beyond the template start empty either way, and a long list of rows is cut short', async () => {
    const rows = Array.from({ length: 9 }, (_, i) => [`R${i}`]);
    const result = fill({ content: rows });
    expect(texts(result).slice(6)).toEqual([
      ['R6', '', '', '', ''],
      ['R7', '', '', '', ''],
      ['R8', '', '', '', ''],
    ]);
    expect(result.warnings.map((w) => w.message)).toEqual([
      'table "Table 1" has 5 columns; cells not given in the payload keep the template\'s text: ' +
        'row 0 columns 1–4, row 1 columns 1–4, row 2 columns 1–4, row 3 columns 1–4, row 4 columns 1–4, ' +
        'and 1 more row; send "" for an empty cell, or "unspecified_cells": "clear" (or "keep") on the shape',
    ]);
    await expectValidPptx(result.bytes, REPORT_TEMPLATE);
  });
});
