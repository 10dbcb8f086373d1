/**
 * The Excel table over a chart's data (`xl/tables/tableN.xml`, the blue border in PowerPoint's data sheet;
 * docs/powerpoint-rules.md "The embedded workbook"). When the data grows or shrinks, the table's `ref` (and its
 * `autoFilter/@ref`, without the filter columns past its last column) follow, and it has one `tableColumn` per
 * column whose `name` equals the header cell's text: Excel repairs a workbook where they differ. Column names are
 * unique (ignoring case); an empty or repeated header gets a name Excel would give it, written into the cell too.
 */
import { child, childElements, element, type XmlElement } from '../../xml/index.js';
import { cellAddress, parseCell, type Cell } from '../formula.js';
import type { TablePart, Worksheet } from './worksheet.js';

type Box = { from: Cell; to: Cell };

/** Refits every table of the sheet that overlaps the chart's old data block to the new one. */
export function fitTables(sheet: Worksheet, oldBlock: Box | null, block: Box): void {
  for (const table of sheet.tables) {
    const root = table.doc.root;
    const ref = parseRef(root.attrs.ref ?? '');
    if (!ref || !overlaps(ref, oldBlock ?? block)) continue;
    const from = { row: Math.min(ref.from.row, block.from.row), col: Math.min(ref.from.col, block.from.col) };
    const to = { row: Math.max(block.to.row, from.row + 1), col: block.to.col };
    const newRef = `${cellAddress(from)}:${cellAddress(to)}`;
    root.attrs.ref = newRef;
    const filter = child(root, name(table, 'autoFilter'));
    if (filter) {
      filter.attrs.ref = newRef;
      // A filter column past the table's last column (one the data lost) is one Excel repairs away.
      const width = to.col - from.col + 1;
      filter.children = filter.children.filter(
        (node) =>
          node.kind !== 'element' ||
          node.name !== name(table, 'filterColumn') ||
          Number(node.attrs.colId) < width,
      );
    }
    if (root.attrs.headerRowCount !== '0') renameColumns(sheet, table, from, to.col);
  }
}

function renameColumns(sheet: Worksheet, table: TablePart, from: Cell, lastCol: number): void {
  const root = table.doc.root;
  const columnsName = name(table, 'tableColumns');
  let columns = child(root, columnsName);
  if (!columns) {
    columns = element(columnsName);
    root.children.push(columns);
  }
  const existing = childElements(columns, name(table, 'tableColumn'));
  let nextId = Math.max(0, ...existing.map((c) => Number(c.attrs.id) || 0)) + 1;
  const used = new Set<string>();
  // Per repeated name, the suffix to try next: counting up from 2 for each repeat made 5 000 series of one
  // name cost 12.5 million look-ups. Every lower suffix is taken already, so the names are the same.
  const nextSuffix = new Map<string, number>();
  const kept: XmlElement[] = [];
  for (let col = from.col, i = 0; col <= lastCol; col++, i++) {
    const header = { row: from.row, col };
    const written = sheet.textOf(header);
    let columnName = written === '' ? ' ' : written;
    if (used.has(columnName.toLowerCase())) {
      const base = written.trim() || 'Column';
      let n = nextSuffix.get(base.toLowerCase()) ?? 2;
      while (used.has(`${base}${n}`.toLowerCase())) n++;
      nextSuffix.set(base.toLowerCase(), n + 1);
      columnName = `${base}${n}`;
    }
    used.add(columnName.toLowerCase());
    if (columnName !== written) sheet.set(header, columnName);
    const column = existing[i] ?? element(name(table, 'tableColumn'), { id: String(nextId++) });
    column.attrs.name = columnName;
    kept.push(column);
  }
  columns.children = kept;
  columns.attrs.count = String(kept.length);
}

function name(table: TablePart, local: string): string {
  const root = table.doc.root.name;
  return root.includes(':') ? `${root.slice(0, root.indexOf(':'))}:${local}` : local;
}

function parseRef(ref: string): Box | null {
  const [a, b = a] = ref.split(':');
  const from = a ? parseCell(a) : null;
  const to = b ? parseCell(b) : null;
  return from && to ? { from, to } : null;
}

function overlaps(a: Box, b: Box): boolean {
  return a.from.row <= b.to.row && b.from.row <= a.to.row && a.from.col <= b.to.col && b.from.col <= a.to.col;
}
