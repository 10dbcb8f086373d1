/**
 * Merged cells (docs/powerpoint-rules.md "Table grid and merges"): the top-left cell of a merge carries
 * `gridSpan` (columns) and `rowSpan` (rows); cells to its right carry `hMerge`, cells below it `vMerge`, and in a
 * two-way merge the covered cells repeat the span of the other axis (`rowSpan`+`hMerge`, `gridSpan`+`vMerge`,
 * `hMerge`+`vMerge`). So each axis reads on its own: down a column, `rowSpan`/`vMerge` make the vertical groups;
 * along a row, `gridSpan`/`hMerge` the horizontal ones. After rows are removed, cloned or repeated on another
 * slide, both are rewritten from the rows as they now stand, so no span runs past the last row and no `vMerge`
 * hangs below a row that is gone.
 */
import { cellsOf, emu, isOn } from './table-grid.js';
import type { XmlElement } from '../xml/index.js';

/** A row as placed in the output table: which template row it is, and whether it is a copy. */
export interface PlacedRow {
  tr: XmlElement;
  /** Index of the template row it is (or is a copy of). */
  source: number;
  /** A copy of a template row, made to add a row: it continues no vertical merge. */
  copy: boolean;
}

export interface Merge {
  row: number;
  column: number;
  rowSpan: number;
  columnSpan: number;
}

/**
 * Rewrites the spans of `rows` so that every vertical merge only joins rows that were adjacent in the
 * template (a copy joins none), and no horizontal span runs past the grid.
 */
export function normalizeMerges(rows: readonly PlacedRow[], columnCount: number): void {
  const cells = rows.map((row) => cellsOf(row.tr));
  for (const rowCells of cells) normalizeRow(rowCells, columnCount);
  for (let c = 0; c < columnCount; c++) {
    let start: XmlElement | undefined;
    let count = 0;
    for (let k = 0; k < rows.length; k++) {
      const tc = cells[k]![c];
      const row = rows[k]!;
      const above = rows[k - 1];
      const continues =
        tc !== undefined &&
        start !== undefined &&
        isOn(tc.attrs.vMerge) &&
        above !== undefined &&
        !row.copy &&
        !above.copy &&
        above.source === row.source - 1;
      if (continues) {
        count++;
        continue;
      }
      closeVertical(start, count);
      if (tc && 'vMerge' in tc.attrs) delete tc.attrs.vMerge;
      start = tc;
      count = 1;
    }
    closeVertical(start, count);
  }
}

function closeVertical(start: XmlElement | undefined, count: number): void {
  if (!start) return;
  if (count > 1) start.attrs.rowSpan = String(count);
  else if ('rowSpan' in start.attrs) delete start.attrs.rowSpan;
}

/** Along one row: each `gridSpan` covers the next cells (which carry `hMerge`) and stops at the grid's edge. */
function normalizeRow(cells: readonly XmlElement[], columnCount: number): void {
  let remaining = 0;
  for (let c = 0; c < cells.length; c++) {
    const tc = cells[c]!;
    if (remaining > 0 && isOn(tc.attrs.hMerge)) {
      remaining--;
      continue;
    }
    if ('hMerge' in tc.attrs) delete tc.attrs.hMerge;
    const span = Math.min(emu(tc.attrs.gridSpan) || 1, columnCount - c);
    let covered = 0;
    while (covered < span - 1 && isOn(cells[c + 1 + covered]?.attrs.hMerge)) covered++;
    if (covered > 0) tc.attrs.gridSpan = String(covered + 1);
    else if ('gridSpan' in tc.attrs) delete tc.attrs.gridSpan;
    remaining = covered;
  }
}

/** Removes every horizontal merge of a row (a copy of a header row becomes a plain body row). */
export function unmergeRow(tr: XmlElement): void {
  for (const tc of cellsOf(tr)) {
    if ('gridSpan' in tc.attrs) delete tc.attrs.gridSpan;
    if ('hMerge' in tc.attrs) delete tc.attrs.hMerge;
  }
}

/**
 * For every cell, the index (`row * columns + column`) of the cell that shows its merge: itself, or the
 * top-left cell of the merge that covers it. A missing cell (a row shorter than the grid) stands alone.
 */
export function mergeOrigins(cells: readonly (readonly XmlElement[])[], columnCount: number): Int32Array {
  const origins = new Int32Array(cells.length * columnCount);
  for (let r = 0; r < cells.length; r++) {
    for (let c = 0; c < columnCount; c++) {
      const index = r * columnCount + c;
      const tc = cells[r]![c];
      if (tc && c > 0 && isOn(tc.attrs.hMerge)) origins[index] = origins[index - 1]!;
      else if (tc && r > 0 && isOn(tc.attrs.vMerge)) origins[index] = origins[index - columnCount]!;
      else origins[index] = index;
    }
  }
  return origins;
}

/** Every merge of more than one cell, by its top-left cell. */
export function listMerges(cells: readonly (readonly XmlElement[])[]): Merge[] {
  const merges: Merge[] = [];
  cells.forEach((row, r) =>
    row.forEach((tc, c) => {
      if (isOn(tc.attrs.hMerge) || isOn(tc.attrs.vMerge)) return;
      const rowSpan = emu(tc.attrs.rowSpan) || 1;
      const columnSpan = emu(tc.attrs.gridSpan) || 1;
      if (rowSpan > 1 || columnSpan > 1) merges.push({ row: r, column: c, rowSpan, columnSpan });
    }),
  );
  return merges;
}

/** Whether any cell of the rows is part of a merge. */
export function hasMerges(rows: readonly XmlElement[]): boolean {
  for (const tr of rows)
    for (const tc of cellsOf(tr))
      if ('gridSpan' in tc.attrs || 'rowSpan' in tc.attrs || 'hMerge' in tc.attrs || 'vMerge' in tc.attrs)
        return true;
  return false;
}
