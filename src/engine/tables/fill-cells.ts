/**
 * Payload cells onto the table's cells (docs/payload-tables.md). Every payload row lists one cell per grid
 * column, merged or not. A merge shows one cell, its top-left one: the text of the group goes there — the
 * payload's entry for that cell, or, as the hosted API's clients send it, the first later entry of the group
 * with text when that one is `null` or `""`. Text is never written into a covered cell (nobody would see it);
 * other text given for covered cells is dropped with a warning.
 */
import type { Warning } from '../errors.js';
import type { Hyperlink, TableCell, TextContent } from '../payload/model.js';
import type { XmlElement } from '../xml/index.js';
import { clearCell, writeCell } from './cell-fill.js';
import { mergeOrigins, type PlacedRow } from './merges.js';

export interface CellFillContext {
  /** JSON path of the table content; cells are `path[row][column]`. */
  path: string;
  addHyperlink(link: Hyperlink): string;
  warnings: Warning[];
  /** Empty the template cells a row does not list (`"unspecified_cells": "clear"`) rather than keep them. */
  clearUnlisted: boolean;
}

/** A template cell a payload row does not list, left as the template has it. */
export interface KeptCell {
  row: number;
  column: number;
}

/** One payload entry at its place: payload row, grid column, and the table cell there. */
interface Slot {
  row: number;
  column: number;
  entry: TableCell | undefined;
}

/**
 * `cells[k]` are the cells of output row k, which shows payload row `payloadRows[k]`. Copied rows' cells that
 * receive nothing are emptied (an added row starts blank, formatted like the template's last row). A template
 * row's cells that its payload row does not list are emptied with `clearUnlisted`, else kept and returned.
 */
export function fillCells(
  cells: readonly (readonly XmlElement[])[],
  placed: readonly PlacedRow[],
  payloadRows: readonly number[],
  rows: readonly (readonly TableCell[])[],
  columnCount: number,
  merged: boolean,
  ctx: CellFillContext,
): KeptCell[] {
  const kept: KeptCell[] = [];
  const origins = merged ? mergeOrigins(cells, columnCount) : null;
  const groups = new Map<number, Slot[]>();
  for (let k = 0; k < cells.length; k++) {
    const row = payloadRows[k]!;
    const entries = rows[row] ?? [];
    for (let c = 0; c < columnCount; c++) {
      const tc = cells[k]![c];
      if (!tc) continue;
      const entry = entries[c];
      if (origins) {
        const origin = origins[k * columnCount + c]!;
        let group = groups.get(origin);
        if (!group) groups.set(origin, (group = []));
        group.push({ row, column: c, entry });
      } else if (entry && (entry.text || hasCellProperties(entry))) {
        writeCell(tc, entry, cellContext(ctx, row, c));
      } else if (placed[k]!.copy || (entry === undefined && ctx.clearUnlisted)) {
        clearCell(tc, cellContext(ctx, row, c));
      } else if (entry === undefined) kept.push({ row, column: c });
    }
  }
  if (!origins) return kept;
  for (const [origin, group] of groups) {
    const k = Math.floor(origin / columnCount);
    const tc = cells[k]![origin % columnCount]!;
    const first = group[0]!;
    const source = textSource(group);
    const cell = source === first ? first.entry : withProperties(source.entry!, first.entry);
    const unlisted = group.every((slot) => slot.entry === undefined);
    if (cell && (cell.text || hasCellProperties(cell)))
      writeCell(tc, cell, cellContext(ctx, first.row, first.column));
    else if (placed[k]!.copy || (unlisted && ctx.clearUnlisted))
      clearCell(tc, cellContext(ctx, first.row, first.column));
    else if (unlisted) kept.push({ row: first.row, column: first.column });
    warnHidden(group, source, ctx);
  }
  return kept;
}

/** The group's own cell when it has text; else the first later cell that has; else the group's own. */
function textSource(group: readonly Slot[]): Slot {
  const first = group[0]!;
  if (hasText(first.entry) || group.length === 1) return first;
  return group.find((slot) => hasText(slot.entry)) ?? first;
}

/** Text taken from a later cell of the group, over the first cell's properties (the later one's win). */
function withProperties(source: TableCell, first: TableCell | undefined): TableCell {
  return first ? { ...first, ...source } : source;
}

function warnHidden(group: readonly Slot[], source: Slot, ctx: CellFillContext): void {
  if (group.length === 1) return;
  const shown = source.entry?.text ? plainText(source.entry.text) : null;
  const first = group[0]!;
  for (const slot of group) {
    if (slot === source || !hasText(slot.entry) || plainText(slot.entry!.text!) === shown) continue;
    ctx.warnings.push({
      path: `${ctx.path}[${slot.row}][${slot.column}]`,
      message:
        `this cell is covered by the merged cell at row ${first.row}, column ${first.column}, which shows ` +
        `other text; its text is not shown`,
    });
  }
}

function hasText(entry: TableCell | undefined): boolean {
  return entry?.text != null && plainText(entry.text) !== '';
}

function hasCellProperties(entry: TableCell): boolean {
  return (
    entry.fillColor !== undefined ||
    entry.verticalAlign !== undefined ||
    entry.runProps !== undefined ||
    entry.paragraphProps !== undefined
  );
}

function plainText(text: TextContent): string {
  return text.paragraphs.map((p) => p.runs.map((r) => r.text).join('')).join('\n');
}

function cellContext(ctx: CellFillContext, row: number, column: number) {
  return {
    path: `${ctx.path}[${row}][${column}]`,
    addHyperlink: ctx.addHyperlink,
    warnings: ctx.warnings,
  };
}
