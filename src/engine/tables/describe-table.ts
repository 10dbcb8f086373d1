/**
 * What `inspect` says about a table, so a user can write `content` without opening PowerPoint: its grid (every
 * payload row lists one cell per column), its merges, whether its style formats a header row (the default of
 * `header_rows`), the text of its first row, and the text of every cell (what a table's `content` gives back).
 */
import { textContent, childElements, child, type XmlElement } from '../xml/index.js';
import { listMerges, type Merge } from './merges.js';
import { cellsOf, isOn, tableOf } from './table-grid.js';

export interface InspectedTable {
  rows: number;
  columns: number;
  /** `a:tblPr/@firstRow`: the table style formats the first row as a header. */
  headerRow: boolean;
  /** Merged cells, by their top-left cell (zero-based row and column, as in `content`). */
  merges: Merge[];
  /** Text of the first row, one entry per grid column (`""` for a cell a merge covers). */
  firstRow: string[];
  /** Text of every cell, row by row, one entry per grid column (`""` for a cell a merge covers). */
  cells: string[][];
}

export function describeTable(frame: XmlElement): InspectedTable | null {
  const tbl = tableOf(frame);
  if (!tbl) return null;
  const grid = child(tbl, 'a:tblGrid');
  const columns = grid ? childElements(grid, 'a:gridCol').length : 0;
  const cells = childElements(tbl, 'a:tr').map(cellsOf);
  const texts = cells.map((row) =>
    Array.from({ length: columns }, (_, c) => {
      const tc = row[c];
      return tc && !isOn(tc.attrs.hMerge) && !isOn(tc.attrs.vMerge) ? cellText(tc) : '';
    }),
  );
  return {
    rows: cells.length,
    columns,
    headerRow: isOn(child(tbl, 'a:tblPr')?.attrs.firstRow),
    merges: listMerges(cells),
    firstRow: Array.from({ length: columns }, (_, c) => {
      const tc = cells[0]?.[c];
      return tc && !isOn(tc.attrs.hMerge) ? cellText(tc) : '';
    }),
    cells: texts,
  };
}

function cellText(tc: XmlElement): string {
  const body = child(tc, 'a:txBody');
  return body ? childElements(body, 'a:p').map(textContent).join('\n') : '';
}
