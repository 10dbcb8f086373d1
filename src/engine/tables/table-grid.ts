/**
 * The parts of a DrawingML table (docs/powerpoint-rules.md "Table grid and merges"):
 * `a:tbl = a:tblPr?, a:tblGrid, a:tr*, a:extLst?`, `a:tr = a:tc*, a:extLst?` with `@h` required, one `a:tc` per
 * grid column in every row.
 */
import { EngineError } from '../errors.js';
import { child, childElements, type XmlElement } from '../xml/index.js';

export interface TableXml {
  tbl: XmlElement;
  /** `a:gridCol/@w` in EMU, one per grid column. */
  columnWidths: number[];
  rows: XmlElement[];
  /** `a:tblPr/@firstRow`: the table style formats the first row as a header. */
  firstRowFlag: boolean;
}

/** `a:graphic/a:graphicData/a:tbl` of a graphic frame. */
export function tableOf(frame: XmlElement): XmlElement | undefined {
  const graphic = child(frame, 'a:graphic');
  const data = graphic ? child(graphic, 'a:graphicData') : undefined;
  return data ? child(data, 'a:tbl') : undefined;
}

export function readTable(tbl: XmlElement, name: string): TableXml {
  const grid = child(tbl, 'a:tblGrid');
  const columnWidths = grid ? childElements(grid, 'a:gridCol').map((col) => emu(col.attrs.w)) : [];
  const rows = childElements(tbl, 'a:tr');
  if (columnWidths.length === 0 || rows.length === 0) {
    throw new EngineError(
      'INVALID_TEMPLATE',
      `table "${name}" has no ${rows.length === 0 ? 'rows' : 'grid columns'} to fill`,
    );
  }
  const tblPr = child(tbl, 'a:tblPr');
  return { tbl, columnWidths, rows, firstRowFlag: isOn(tblPr?.attrs.firstRow) };
}

export function cellsOf(tr: XmlElement): XmlElement[] {
  return childElements(tr, 'a:tc');
}

/** `a:tr/@h`: a minimum; PowerPoint grows a row to fit its text (docs/powerpoint-rules.md "Table sizes"). */
export function rowHeight(tr: XmlElement): number {
  return emu(tr.attrs.h);
}

/** Replaces the table's rows, keeping a:tblPr and a:tblGrid before them and a:extLst after (CT_Table). */
export function setRows(tbl: XmlElement, rows: readonly XmlElement[]): void {
  const before: XmlElement['children'] = [];
  const after: XmlElement['children'] = [];
  let seenRow = false;
  for (const node of tbl.children) {
    if (node.kind === 'element' && node.name === 'a:tr') seenRow = true;
    else (seenRow || (node.kind === 'element' && node.name === 'a:extLst') ? after : before).push(node);
  }
  tbl.children = [...before, ...rows, ...after];
}

/** xsd:boolean as PowerPoint and others write it. */
export function isOn(value: string | undefined): boolean {
  return value === '1' || value === 'true';
}

/** A non-negative integer attribute (EMU, spans); anything else reads as 0. */
export function emu(value: string | undefined): number {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
}
