/**
 * The table filler (docs/payload-tables.md). The output table has one row per payload row (template row i
 * for payload row i, copies of the last template row beyond), the cells get the payload's text and
 * properties (fill-cells.ts), the frame's height follows the rows, and the table keeps its style, banding
 * flags, column widths and position.
 *
 * Rows that do not fit on the slide (row-measure.ts estimates how tall each will be drawn) give a warning, or,
 * with `"overflow": "continue"`, go on copies of the slide: this slide shows the header rows and the rows from
 * `firstBodyRow` on that fit, and asks the slide for another copy for the rest (`continueFrom`).
 */
import { EngineError, type Warning } from '../errors.js';
import type { Hyperlink, ShapeContent, TableCell, TableContent } from '../payload/model.js';
import { shapeVariants, type FoundShape } from '../shapes/find-shape.js';
import { enclosingGroups, toSlideSpace } from '../shapes/group-transform.js';
import { ownBox } from '../shapes/shape-properties.js';
import { child, type XmlElement } from '../xml/index.js';
import { fillCells, type KeptCell } from './fill-cells.js';
import { hasMerges } from './merges.js';
import { placeRows } from './place-rows.js';
import { RowMeasure } from './row-measure.js';
import { cellsOf, readTable, rowHeight, tableOf } from './table-grid.js';

export interface TableFillContext {
  /** Relationship id of a hyperlink from this slide (runs with `hyperlink`). */
  addHyperlink(link: Hyperlink): string;
  warnings: Warning[];
  /** p:sld of the slide being filled: where the frame sits (inside groups, maybe). */
  slideRoot: XmlElement;
  /** The deck's slide height (p:sldSz/@cy), EMU. */
  slideHeight: number;
  /** Font size (1/100 pt) of text that sets none: the presentation's default text style. */
  defaultFontSize: number;
  /** On a continuation slide, the first body row it shows; null on the slide where the table starts. */
  firstBodyRow: number | null;
  /** With `"overflow": "continue"`: rows from `row` on go on a further copy of this slide. */
  continueFrom(row: number): void;
}

/** Room kept below a continued table: as much as there is above it, at most half an inch. */
const MAX_BOTTOM_MARGIN = 457_200;
const EMU_PER_CM = 360_000;

export function fillTable(
  shape: FoundShape,
  content: ShapeContent,
  path: string,
  ctx: TableFillContext,
): void {
  if (content.kind !== 'table')
    throw new EngineError('CONTENT_MISMATCH', `shape "${shape.name}" is a table; it takes rows`, path);
  const frames = shapeVariants(shape).filter((el) => el.name === 'p:graphicFrame' && tableOf(el));
  const main = frames[0];
  if (!main) throw new EngineError('INVALID_TEMPLATE', `shape "${shape.name}" holds no table`, path);
  const template = readTable(tableOf(main)!, shape.name);
  const columns = template.columnWidths.length;
  // Checked once, on the slide where the table starts (its copies show the same rows).
  if (ctx.firstBodyRow === null) checkRowLengths(content.rows, columns, shape.name, path);
  const headerRows = Math.min(content.headerRows ?? (template.firstRowFlag ? 1 : 0), content.rows.length);

  const measure = new RowMeasure(template, content, ctx.defaultFontSize);
  const place = placement(ctx.slideRoot, shape, main);
  const plan = planRows(content, headerRows, ctx.firstBodyRow, (i) => measure.height(i) * place.scale, {
    top: place.top,
    slideHeight: ctx.slideHeight,
  });

  for (const frame of frames) {
    const table = frame === main ? template : readTable(tableOf(frame)!, shape.name);
    const placed = placeRows(table, plan.rows, headerRows);
    const merged = hasMerges(placed.map((p) => p.tr));
    const kept = fillCells(
      placed.map((p) => cellsOf(p.tr)),
      placed,
      plan.rows,
      content.rows,
      columns,
      merged,
      {
        path,
        addHyperlink: (url) => ctx.addHyperlink(url),
        warnings: ctx.warnings,
        clearUnlisted: content.unspecifiedCells === 'clear',
      },
    );
    // Header rows on a continuation slide were reported with the slide where the table starts.
    const reported = kept.filter((cell) => ctx.firstBodyRow === null || cell.row >= headerRows);
    if (frame === main && content.unspecifiedCells === null && reported.length > 0)
      ctx.warnings.push({ path, message: keptCellsMessage(shape.name, columns, reported) });
    setFrameHeight(
      frame,
      placed.reduce((sum, row) => sum + rowHeight(row.tr), 0),
    );
  }

  if (plan.next !== null) ctx.continueFrom(plan.next);
  if (plan.bottom > ctx.slideHeight)
    ctx.warnings.push({ path, message: overflowMessage(shape, content, plan) });
}

/** "table "T" has 5 columns, row 2 has 7 cells" (docs/payload.md): a shorter row is filled as far as it goes. */
function checkRowLengths(
  rows: readonly (readonly TableCell[])[],
  columns: number,
  name: string,
  path: string,
): void {
  for (let r = 0; r < rows.length; r++) {
    const length = rows[r]!.length;
    if (length > columns) {
      throw new EngineError(
        'INVALID_PAYLOAD',
        `table "${name}" has ${columns} ${columns === 1 ? 'column' : 'columns'}, row ${r} has ${length} cells`,
        `${path}[${r}]`,
      );
    }
  }
}

/** Rows listed in a warning about kept cells; a long table's further rows are counted. */
const LISTED_ROWS = 5;

/**
 * `table "T" has 5 columns; rows 1 and 2 do not list them all, so these cells keep the template's text: row 1
 * columns 3–4, row 2 column 4; …`: what the template's old text is doing next to new data.
 */
function keptCellsMessage(name: string, columns: number, kept: readonly KeptCell[]): string {
  const byRow = new Map<number, number[]>();
  for (const { row, column } of kept) {
    const list = byRow.get(row);
    if (list) list.push(column);
    else byRow.set(row, [column]);
  }
  const rows = [...byRow].slice(0, LISTED_ROWS).map(([row, cols]) => `row ${row} ${columnList(cols)}`);
  const more = byRow.size - LISTED_ROWS;
  if (more > 0) rows.push(`and ${more} more ${more === 1 ? 'row' : 'rows'}`);
  return (
    `table "${name}" has ${columns} ${columns === 1 ? 'column' : 'columns'}; cells not given in the payload keep ` +
    `the template's text: ${rows.join(', ')}; send "" for an empty cell, or "unspecified_cells": "clear" ` +
    '(or "keep") on the shape'
  );
}

/** "column 4", "columns 2–4", "columns 1, 3" (ascending). */
function columnList(columns: readonly number[]): string {
  if (columns.length === 1) return `column ${columns[0]}`;
  const consecutive = columns.every((c, i) => i === 0 || c === columns[i - 1]! + 1);
  return consecutive
    ? `columns ${columns[0]}–${columns[columns.length - 1]}`
    : `columns ${columns.join(', ')}`;
}

interface RowPlan {
  /** Payload rows this slide shows, ascending. */
  rows: number[];
  /** First payload row left for a further slide; null when none is. */
  next: number | null;
  /** Estimated bottom of the table on the slide, EMU. */
  bottom: number;
}

function planRows(
  content: TableContent,
  headerRows: number,
  firstBodyRow: number | null,
  height: (row: number) => number,
  slide: { top: number; slideHeight: number },
): RowPlan {
  const count = content.rows.length;
  const rows: number[] = [];
  let bottom = slide.top;
  for (let i = 0; i < headerRows; i++) {
    rows.push(i);
    bottom += height(i);
  }
  const start = Math.max(firstBodyRow ?? headerRows, headerRows);
  if (content.overflow === 'warn') {
    for (let i = start; i < count; i++) {
      rows.push(i);
      bottom += height(i);
    }
    return { rows, next: null, bottom };
  }
  const limit = slide.slideHeight - Math.min(Math.max(slide.top, 0), MAX_BOTTOM_MARGIN);
  let end = start;
  // At least one body row per slide, however tall: the table always moves on.
  while (end < count) {
    const h = height(end);
    if (end > start && bottom + h > limit) break;
    rows.push(end);
    bottom += h;
    end++;
  }
  return { rows, next: end < count ? end : null, bottom };
}

function overflowMessage(shape: FoundShape, content: TableContent, plan: RowPlan): string {
  if (content.overflow === 'continue') {
    const last = plan.rows[plan.rows.length - 1] ?? 0;
    return (
      `table "${shape.name}": row ${last} with the header rows is taller than the slide has room for; ` +
      'it runs past the bottom of the slide'
    );
  }
  return (
    `table "${shape.name}" runs past the bottom of the slide (its ${content.rows.length} rows reach about ` +
    `${cm(plan.bottom)} cm from the top); "overflow": "continue" carries rows that do not fit onto copies of the slide`
  );
}

function cm(emu: number): string {
  return (emu / EMU_PER_CM).toFixed(1);
}

/** The frame's top on the slide and how much enclosing groups scale it vertically. */
function placement(
  slideRoot: XmlElement,
  shape: FoundShape,
  frame: XmlElement,
): { top: number; scale: number } {
  const own = ownBox(frame) ?? { x: 0, y: 0, cx: 0, cy: 0 };
  if (shape.parent.name !== 'p:grpSp') return { top: own.y, scale: 1 };
  const cSld = child(slideRoot, 'p:cSld');
  const spTree = cSld ? child(cSld, 'p:spTree') : undefined;
  if (!spTree) return { top: own.y, scale: 1 };
  const unit = 1_000_000;
  const box = toSlideSpace({ ...own, cy: unit }, enclosingGroups(spTree, shape));
  return { top: box.y, scale: box.cy / unit };
}

/** p:xfrm/a:ext/@cy = the rows' heights summed, as PowerPoint saves it (docs/powerpoint-rules.md "Table sizes"). */
function setFrameHeight(frame: XmlElement, height: number): void {
  const xfrm = child(frame, 'p:xfrm');
  const ext = xfrm ? child(xfrm, 'a:ext') : undefined;
  if (ext) ext.attrs.cy = String(Math.round(height));
}
