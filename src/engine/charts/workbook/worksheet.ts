/**
 * One worksheet's cells (`sheetData`, SpreadsheetML §18.3.1.80): rows and cells kept in ascending order, as
 * Excel requires; a written cell keeps its style (`s`, so number and date formats stay), a new cell takes the
 * style of its nearest neighbour above or to the left, and a number written with a format code (a typed value, a
 * date category) takes a style with that number format. Text goes to the shared string table (inline strings
 * when the workbook has none). The sheet's `dimension` and the Excel tables over the chart's data follow.
 */
import {
  child,
  childElements,
  element,
  insertInOrder,
  text,
  textContent,
  type XmlDocument,
  type XmlElement,
} from '../../xml/index.js';
import { cellAddress, columnNumber, type Cell } from '../formula.js';
import type { PointValue } from '../series-caches.js';
import type { CellFormat, CellStyles } from './cell-styles.js';
import type { SharedStrings } from './shared-strings.js';

/** CT_Worksheet child order up to sheetData (§18.3.1.99), for a dimension the sheet did not have. */
const SHEET_HEAD = ['sheetPr', 'dimension', 'sheetViews', 'sheetFormatPr', 'cols', 'sheetData'];
const ADDRESS = /^([A-Za-z]{1,3})(\d+)$/;

export interface TablePart {
  part: string;
  doc: XmlDocument;
}

/** One row and its cells by column, indexed the first time the row is touched. */
interface IndexedRow {
  element: XmlElement;
  cells: Map<number, XmlElement>;
  /** The highest column with a cell: a cell written past it (the usual case) takes its place in O(1). */
  lastCol: number;
  /** The row ends with an `extLst`, which must stay last. */
  hasExtension: boolean;
}

export class Worksheet {
  private readonly sheetData: XmlElement;
  private readonly rows = new Map<number, XmlElement>();
  private readonly indexed = new Map<number, IndexedRow>();
  /** Rows added or removed, and rows whose cells changed order: put in order once, by finish(). */
  private rowsMoved = false;
  private readonly reordered = new Set<IndexedRow>();
  private readonly prefix: string;

  constructor(
    readonly partName: string,
    readonly document: XmlDocument,
    readonly tables: readonly TablePart[],
    private readonly strings: SharedStrings | null,
    /** The workbook's cell formats, read the first time a number needs one (null: the workbook has none). */
    private readonly styles: () => CellStyles | null = () => null,
  ) {
    const root = document.root.name;
    this.prefix = root.includes(':') ? root.slice(0, root.indexOf(':') + 1) : '';
    let sheetData = child(document.root, this.n('sheetData'));
    if (!sheetData) {
      sheetData = element(this.n('sheetData'));
      insertInOrder(
        document.root,
        sheetData,
        SHEET_HEAD.map((s) => this.n(s)),
      );
    }
    this.sheetData = sheetData;
    let implicit = 0;
    for (const row of childElements(sheetData, this.n('row'))) {
      // `r` is optional (rows then follow one another); writing it makes every row addressable.
      const r = Number(row.attrs.r) || implicit + 1;
      row.attrs.r = String(r);
      implicit = r;
      this.rows.set(r, row);
    }
  }

  /**
   * Writes a value (text, number) into a cell, or empties it (null). A number with a `format` gets a style
   * showing it so (cell-styles.ts); without one the cell keeps its style.
   */
  set(cell: Cell, value: PointValue, format: CellFormat | null = null): void {
    if (value === null || value === '') {
      this.clear(cell);
      return;
    }
    const c = this.cellElement(cell, true) as XmlElement;
    c.children = c.children.filter((n) => n.kind !== 'element' || n.name === this.n('extLst'));
    delete c.attrs.t;
    let content: XmlElement;
    if (typeof value === 'number') content = element(this.n('v'), {}, [text(String(value))]);
    else if (this.strings) {
      c.attrs.t = 's';
      content = element(this.n('v'), {}, [text(String(this.strings.indexOf(value)))]);
    } else {
      c.attrs.t = 'inlineStr';
      content = element(this.n('is'), {}, [element(this.n('t'), {}, [text(value)])]);
    }
    c.children.unshift(content);
    if (format !== null && typeof value === 'number') {
      const style = this.styles()?.withNumberFormat(c.attrs.s, format);
      if (style !== undefined) c.attrs.s = style;
    }
  }

  clear(cell: Cell): void {
    const row = this.row(cell.row);
    if (!row?.cells.delete(cell.col)) return;
    this.reordered.add(row);
    if (row.cells.size === 0 && Object.keys(row.element.attrs).length <= 2) {
      this.rows.delete(cell.row);
      this.indexed.delete(cell.row);
      this.reordered.delete(row);
      this.rowsMoved = true;
    }
  }

  /** A cell's text as Excel shows it in a table header ('' for an empty cell). */
  textOf(cell: Cell): string {
    const c = this.cellElement(cell, false);
    if (!c) return '';
    if (c.attrs.t === 's') return this.strings?.textAt(Number(textContent(child(c, this.n('v')) ?? c))) ?? '';
    if (c.attrs.t === 'inlineStr') return textContent(child(c, this.n('is')) ?? c);
    return textContent(child(c, this.n('v')) ?? element('v'));
  }

  /**
   * Puts rows and cells in ascending order (Excel requires it; they are written in any order and sorted once
   * here, so that filling stays linear in the number of cells), brings `dimension` up to date and drops row
   * `spans` (optional hints that may no longer hold).
   */
  finish(): void {
    for (const row of this.reordered) {
      const cells = [...row.cells].sort((a, b) => a[0] - b[0]).map(([, c]) => c);
      const rest = row.element.children.filter((n) => n.kind === 'element' && n.name !== this.n('c'));
      row.element.children = [...cells, ...rest];
    }
    if (this.rowsMoved) {
      const rows = [...this.rows].sort((a, b) => a[0] - b[0]).map(([, row]) => row);
      const rest = this.sheetData.children.filter((n) => n.kind === 'element' && n.name !== this.n('row'));
      this.sheetData.children = [...rows, ...rest];
    }
    let minRow = Infinity,
      maxRow = 0,
      minCol = Infinity,
      maxCol = 0;
    for (const [r, row] of this.rows) {
      delete row.attrs.spans;
      const columns = this.indexed.get(r)?.cells.keys() ?? childElements(row, this.n('c')).map(columnOf);
      for (const col of columns) {
        minRow = Math.min(minRow, r);
        maxRow = Math.max(maxRow, r);
        minCol = Math.min(minCol, col);
        maxCol = Math.max(maxCol, col);
      }
    }
    const ref =
      maxRow === 0
        ? 'A1'
        : `${cellAddress({ row: minRow, col: minCol })}:${cellAddress({ row: maxRow, col: maxCol })}`;
    insertInOrder(
      this.document.root,
      element(this.n('dimension'), { ref }),
      SHEET_HEAD.map((s) => this.n(s)),
    );
  }

  /** Row `r` with its cells indexed, or undefined when the sheet has no such row. */
  private row(r: number): IndexedRow | undefined {
    const known = this.indexed.get(r);
    if (known) return known;
    const element = this.rows.get(r);
    if (!element) return undefined;
    const row: IndexedRow = {
      element,
      cells: new Map(),
      lastCol: 0,
      hasExtension: child(element, this.n('extLst')) !== undefined,
    };
    let implicit = 0;
    for (const c of childElements(element, this.n('c'))) {
      // `r` is optional (cells then follow one another); writing it makes every cell addressable.
      const col = c.attrs.r ? columnOf(c) : implicit + 1;
      c.attrs.r ??= cellAddress({ row: r, col });
      implicit = col;
      if (!row.cells.has(col)) row.cells.set(col, c); // a repeated column: the first one counts, as before
      row.lastCol = Math.max(row.lastCol, col);
    }
    this.indexed.set(r, row);
    return row;
  }

  private cellElement(cell: Cell, create: boolean): XmlElement | undefined {
    let row = this.row(cell.row);
    const found = row?.cells.get(cell.col);
    if (found || !create) return found;
    const fresh = this.newCell(cell);
    row ??= this.addRow(cell.row);
    row.cells.set(cell.col, fresh);
    // Past the last cell of an ordered row it can go at the end; anywhere else finish() sorts the row.
    if (cell.col > row.lastCol && !row.hasExtension && !this.reordered.has(row))
      row.element.children.push(fresh);
    else this.reordered.add(row);
    row.lastCol = Math.max(row.lastCol, cell.col);
    return fresh;
  }

  private addRow(r: number): IndexedRow {
    const row: IndexedRow = {
      element: element(this.n('row'), { r: String(r) }),
      cells: new Map(),
      lastCol: 0,
      hasExtension: false,
    };
    this.rows.set(r, row.element);
    this.indexed.set(r, row);
    this.sheetData.children.push(row.element);
    this.rowsMoved = true;
    return row;
  }

  private newCell(cell: Cell): XmlElement {
    const style = this.neighbourStyle(cell);
    return element(this.n('c'), style ? { r: cellAddress(cell), s: style } : { r: cellAddress(cell) });
  }

  /** The style of the nearest cell above in the same column, else to the left in the same row. */
  private neighbourStyle(cell: Cell): string | undefined {
    for (let r = cell.row - 1; r >= Math.max(1, cell.row - 64); r--) {
      const above = this.row(r)?.cells.get(cell.col);
      if (above) return above.attrs.s;
    }
    const row = this.row(cell.row);
    if (!row) return undefined;
    if (cell.col > row.lastCol) return row.cells.get(row.lastCol)?.attrs.s;
    let nearest = 0;
    for (const col of row.cells.keys()) if (col < cell.col && col > nearest) nearest = col;
    return row.cells.get(nearest)?.attrs.s;
  }

  private n(local: string): string {
    return this.prefix + local;
  }
}

function columnOf(c: XmlElement): number {
  const match = ADDRESS.exec(c.attrs.r ?? '');
  return match ? columnNumber(match[1] as string) : 0;
}
