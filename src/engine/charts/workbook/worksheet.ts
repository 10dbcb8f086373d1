/**
 * One worksheet's cells (`sheetData`, SpreadsheetML §18.3.1.80): rows and cells kept in ascending order, as
 * Excel requires; a written cell keeps its style (`s`, so number and date formats stay), a new cell takes the
 * style of its nearest neighbour above or to the left. Text goes to the shared string table (inline strings
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
import type { SharedStrings } from './shared-strings.js';

/** CT_Worksheet child order up to sheetData (§18.3.1.99), for a dimension the sheet did not have. */
const SHEET_HEAD = ['sheetPr', 'dimension', 'sheetViews', 'sheetFormatPr', 'cols', 'sheetData'];
const ADDRESS = /^([A-Za-z]{1,3})(\d+)$/;

export interface TablePart {
  part: string;
  doc: XmlDocument;
}

export class Worksheet {
  private readonly sheetData: XmlElement;
  private readonly rows = new Map<number, XmlElement>();
  private readonly prefix: string;

  constructor(
    readonly partName: string,
    readonly document: XmlDocument,
    readonly tables: readonly TablePart[],
    private readonly strings: SharedStrings | null,
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

  /** Writes a value (text, number) into a cell, or empties it (null). */
  set(cell: Cell, value: PointValue): void {
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
  }

  clear(cell: Cell): void {
    const row = this.rows.get(cell.row);
    const c = row && this.cellElement(cell, false);
    if (!row || !c) return;
    row.children.splice(row.children.indexOf(c), 1);
    if (childElements(row, this.n('c')).length === 0 && Object.keys(row.attrs).length <= 2) {
      this.sheetData.children.splice(this.sheetData.children.indexOf(row), 1);
      this.rows.delete(cell.row);
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

  /** Brings `dimension` up to date and drops row `spans` (optional hints that may no longer hold). */
  finish(): void {
    let minRow = Infinity,
      maxRow = 0,
      minCol = Infinity,
      maxCol = 0;
    for (const [r, row] of this.rows) {
      delete row.attrs.spans;
      for (const c of childElements(row, this.n('c'))) {
        const col = columnOf(c);
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

  private cellElement(cell: Cell, create: boolean): XmlElement | undefined {
    let row = this.rows.get(cell.row);
    if (!row) {
      if (!create) return undefined;
      row = element(this.n('row'), { r: String(cell.row) });
      const after = [...this.rows.keys()].filter((r) => r < cell.row).sort((a, b) => b - a)[0];
      const children = this.sheetData.children;
      const at =
        after === undefined
          ? firstRowIndex(children, this.n('row'))
          : children.indexOf(this.rows.get(after)!) + 1;
      children.splice(at, 0, row);
      this.rows.set(cell.row, row);
    }
    let implicit = 0;
    const children = row.children;
    for (let i = 0; i < children.length; i++) {
      const c = children[i]!;
      if (c.kind !== 'element' || c.name !== this.n('c')) continue;
      const col = c.attrs.r ? columnOf(c) : implicit + 1;
      // `r` is optional (cells then follow one another); writing it makes every cell addressable.
      c.attrs.r ??= cellAddress({ row: cell.row, col });
      implicit = col;
      if (col === cell.col) return c;
      if (col > cell.col) {
        if (!create) return undefined;
        const fresh = this.newCell(cell);
        children.splice(i, 0, fresh);
        return fresh;
      }
    }
    if (!create) return undefined;
    const fresh = this.newCell(cell);
    const ext = child(row, this.n('extLst'));
    children.splice(ext ? children.indexOf(ext) : children.length, 0, fresh);
    return fresh;
  }

  private newCell(cell: Cell): XmlElement {
    const style = this.neighbourStyle(cell);
    return element(this.n('c'), style ? { r: cellAddress(cell), s: style } : { r: cellAddress(cell) });
  }

  /** The style of the nearest cell above in the same column, else to the left in the same row. */
  private neighbourStyle(cell: Cell): string | undefined {
    for (let r = cell.row - 1; r >= Math.max(1, cell.row - 64); r--) {
      const above = this.rows.get(r) && this.cellElement({ row: r, col: cell.col }, false);
      if (above) return above.attrs.s;
    }
    const row = this.rows.get(cell.row);
    const left = row
      ? childElements(row, this.n('c'))
          .filter((c) => columnOf(c) < cell.col)
          .pop()
      : undefined;
    return left?.attrs.s;
  }

  private n(local: string): string {
    return this.prefix + local;
  }
}

function columnOf(c: XmlElement): number {
  const match = ADDRESS.exec(c.attrs.r ?? '');
  return match ? columnNumber(match[1] as string) : 0;
}

function firstRowIndex(children: XmlElement['children'], rowName: string): number {
  const index = children.findIndex((n) => n.kind === 'element' && n.name === rowName);
  return index < 0 ? children.length : index;
}
