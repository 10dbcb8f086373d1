/**
 * Where a chart's new data goes in its workbook, and the formulas that name it (docs/powerpoint-rules.md
 * "Chart XML order and series data", "The embedded workbook").
 *
 * The layout follows the template's own: the data sheet and the orientation (series in columns, points running
 * down; or series in rows) come from the template's formulas, the points start where the template's did, the
 * categories stay in their column, and each series keeps its column (or row). Series beyond the template's go
 * to the next free columns; a series whose column another series now uses (two scatter series that shared
 * their x values but no longer do) gets a free one. Every cell the template's formulas named that holds no new
 * data is cleared, so "Edit Data" shows exactly the chart's data.
 */
import { cellsOf, formatArea, sameSheet, type Area, type Cell } from './formula.js';
import type { PointValue } from './series-caches.js';
import type { CellFormat } from './workbook/cell-styles.js';

/** A template series' references, by role; each role may span several areas (multi-area formulas). */
export interface TemplateRefs {
  name: Area[] | null;
  categories: Area[] | null;
  /** Category series: [values]; scatter: [x, y]; bubble: [x, y, size]. */
  dims: (Area[] | null)[];
  /** Data label texts from cells (Office 2013 `c15:datalabelsRange`). */
  labels: Area[] | null;
}

export interface LayoutSeries {
  name: string;
  dims: PointValue[][];
  /** Which dimension the name sits above (the values; y for scatter and bubble). */
  primary: number;
  /** The template series this one is (index < template count) or was cloned from. */
  template: number;
  /** Whether the series has a data label range to fill (`labels` of its template). */
  labels: PointValue[] | null;
  /** The number format of each dimension's cells (a typed value's); null or none: the cells keep theirs. */
  formats?: readonly (CellFormat | null)[];
}

export interface PlacedSeries {
  name: string | null;
  categories: string | null;
  dims: string[];
  labels: string | null;
}

export interface LayoutPlan {
  /** The data sheet's prefix as the template wrote it. */
  sheet: string;
  /** Cells to write, by `row:col`, with the number format their numbers are shown in (null: the cell's own). */
  writes: Map<string, CellWrite>;
  /** Template cells that hold no data any more. */
  clears: Cell[];
  formulas: PlacedSeries[];
  /** The new data block, header included (for an Excel table's `ref`). */
  block: { from: Cell; to: Cell };
  /** The template's data block (a table that overlaps it is the chart's table). */
  oldBlock: { from: Cell; to: Cell } | null;
  /** The header cell of the categories column (the table's first column), if there is a header row. */
  categoryHeader: Cell | null;
}

export interface CellWrite {
  cell: Cell;
  value: PointValue;
  format: CellFormat | null;
}

type Orientation = 'columns' | 'rows';

/**
 * `fallbackSheet`: where data goes when the template has no formulas at all (a chart built with no series):
 * the workbook's first sheet, from A1. Null when there is no workbook either: then there is nothing to plan.
 * Returns null when the template's formulas span several sheets (the data cannot be kept together).
 * `categoryFormat`: the number format of the category cells (dates), null for the cells' own.
 */
export function planLayout(
  refs: readonly TemplateRefs[],
  series: readonly LayoutSeries[],
  categories: readonly PointValue[] | null,
  fallbackSheet: string | null,
  categoryFormat: CellFormat | null = null,
): LayoutPlan | null {
  const all = refs.flatMap((r) => [r.name, r.categories, ...r.dims, r.labels].flatMap((a) => a ?? []));
  const first = refs.flatMap((r) => r.dims.flatMap((d) => d ?? []))[0] ?? all[0];
  const sheet = first?.sheet ?? fallbackSheet;
  if (sheet === null) return null;
  if (all.some((a) => !sameSheet(a.sheet, sheet))) return null;

  const orientation = orientationOf(refs, first);
  const along = (c: Cell): number => (orientation === 'columns' ? c.row : c.col);
  const across = (c: Cell): number => (orientation === 'columns' ? c.col : c.row);
  const at = (a: number, b: number): Cell =>
    orientation === 'columns' ? { row: a, col: b } : { row: b, col: a };

  const p0 = first ? along(first.from) : 2;
  const firstName = refs.find((r) => r.name)?.name?.[0];
  const headerAlong = firstName ? along(firstName.from) : p0 > 1 ? p0 - 1 : null;
  let next = all.length > 0 ? Math.max(...all.map((a) => across(a.to))) + 1 : 2;
  const taken = new Map<number, string>();

  const templateCategories = refs.find((r) => r.categories)?.categories?.[0];
  let categoryAcross: number | null = null;
  if (categories) {
    if (templateCategories) categoryAcross = across(templateCategories.from);
    else if (!first) categoryAcross = 1;
    else if (
      across(first.from) > 1 &&
      !all.some((a) => across(a.from) <= across(first.from) - 1 && across(a.to) >= across(first.from) - 1)
    )
      categoryAcross = across(first.from) - 1;
    if (categoryAcross !== null) taken.set(categoryAcross, 'categories');
  }

  const writes = new Map<string, CellWrite>();
  const gaps: Cell[] = [];
  const write = (cell: Cell, value: PointValue, format: CellFormat | null = null): void => {
    if (value !== null && value !== '') writes.set(`${cell.row}:${cell.col}`, { cell, value, format });
    else gaps.push(cell);
  };
  const range = (acrossAt: number, count: number): string =>
    formatArea(sheet, at(p0, acrossAt), at(p0 + Math.max(count, 1) - 1, acrossAt));

  let maxPoints = categories?.length ?? 0;
  const formulas: PlacedSeries[] = series.map((s, k) => {
    const own = k < refs.length ? refs[k] : undefined;
    const dims = s.dims.map((values, d) => {
      // Only x values are shared between series (below); any other column is its series' own.
      const shareable = d === 0 && s.primary > 0;
      const key = shareable ? JSON.stringify(values) : `${k}:${d}`;
      const candidate = own?.dims[d]?.[0];
      let place: number | undefined;
      if (
        candidate &&
        (!taken.has(across(candidate.from)) || (shareable && taken.get(across(candidate.from)) === key))
      )
        place = across(candidate.from);
      // Scatter and bubble series may share one column of x values, as PowerPoint writes them.
      if (place === undefined && shareable)
        for (const [at, content] of taken) if (content === key) place = at;
      place ??= next++;
      taken.set(place, key);
      const format = s.formats?.[d] ?? null;
      values.forEach((value, i) => write(at(p0 + i, place), value, format));
      maxPoints = Math.max(maxPoints, values.length);
      return place;
    });
    const points = s.dims[0]?.length ?? 0;
    const primaryAcross = dims[s.primary] as number;
    const ownName = own?.name?.[0];
    const nameAlong =
      ownName &&
      ownName.from.row === ownName.to.row &&
      ownName.from.col === ownName.to.col &&
      across(ownName.from) === primaryAcross
        ? along(ownName.from)
        : headerAlong;
    let name: string | null = null;
    if (nameAlong !== null && nameAlong < p0) {
      write(at(nameAlong, primaryAcross), s.name);
      name = formatArea(sheet, at(nameAlong, primaryAcross));
    }
    let labels: string | null = null;
    const labelArea = refs[s.template]?.labels?.[0];
    if (s.labels && labelArea) {
      const labelAcross =
        k === s.template || !taken.has(across(labelArea.from)) ? across(labelArea.from) : next++;
      taken.set(labelAcross, `labels${k}`);
      s.labels.forEach((value, i) => write(at(p0 + i, labelAcross), value));
      labels = range(labelAcross, points);
    }
    return {
      name,
      categories: categoryAcross !== null && categories ? range(categoryAcross, categories.length) : null,
      dims: dims.map((place, d) => range(place, s.dims[d]?.length ?? 0)),
      labels,
    };
  });
  if (categories && categoryAcross !== null)
    categories.forEach((value, i) => write(at(p0 + i, categoryAcross), value, categoryFormat));

  // A gap is an empty cell, whatever the sheet held there before.
  const clears: Cell[] = [...gaps];
  for (const area of all)
    for (const cell of cellsOf(area)) if (!writes.has(`${cell.row}:${cell.col}`)) clears.push(cell);

  const acrosses = [...taken.keys()];
  const top = headerAlong !== null && headerAlong < p0 ? headerAlong : p0;
  const corners = [
    at(top, Math.min(...acrosses)),
    at(p0 + Math.max(maxPoints, 1) - 1, Math.max(...acrosses)),
  ];
  return {
    sheet,
    writes,
    clears,
    formulas,
    block: boundingBox(corners),
    oldBlock: all.length > 0 ? boundingBox(all.flatMap((a) => [a.from, a.to])) : null,
    categoryHeader: categoryAcross !== null && top < p0 ? at(top, categoryAcross) : null,
  };
}

/** Series in columns when the first series' points run down a column (PowerPoint's default), else in rows. */
function orientationOf(refs: readonly TemplateRefs[], first: Area | undefined): Orientation {
  const shapeOf = (area: Area | undefined): Orientation | null =>
    !area ? null : area.to.row > area.from.row ? 'columns' : area.to.col > area.from.col ? 'rows' : null;
  const categories = refs.find((r) => r.categories)?.categories?.[0];
  const name = refs.find((r) => r.name)?.name?.[0];
  const byName =
    name && first
      ? name.from.row < first.from.row
        ? 'columns'
        : name.from.col < first.from.col
          ? 'rows'
          : null
      : null;
  return shapeOf(first) ?? shapeOf(categories) ?? byName ?? 'columns';
}

function boundingBox(cells: readonly Cell[]): { from: Cell; to: Cell } {
  const rows = cells.map((c) => c.row);
  const cols = cells.map((c) => c.col);
  return {
    from: { row: Math.min(...rows), col: Math.min(...cols) },
    to: { row: Math.max(...rows), col: Math.max(...cols) },
  };
}
