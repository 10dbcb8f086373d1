/**
 * Puts the rows a slide shows into the table: payload row i is the template's row i, and a row beyond the
 * template's is a copy of its last row (height, borders, fills and text formatting come along). Template rows
 * nobody asked for go. Then the merges are rewritten for the rows as they now stand (merges.ts).
 */
import { cloneElement, child, childElements, type XmlElement } from '../xml/index.js';
import { normalizeMerges, unmergeRow, type PlacedRow } from './merges.js';
import { setRows, type TableXml } from './table-grid.js';

/** `a:tr/a:extLst/a:ext` holding PowerPoint 2016's `a16:rowId` (docs/powerpoint-rules.md "Ids inside a slide"). */
const ROW_ID_EXT = '{0D108BD9-81ED-4DB2-BD59-A6C34878D82A}';

/**
 * `payloadRows`: the payload rows this table shows, ascending. `headerRows`: a copy of a header row (a table
 * whose template has only its header) is a body row, so it does not keep the header's merges.
 */
export function placeRows(table: TableXml, payloadRows: readonly number[], headerRows: number): PlacedRow[] {
  const templateRows = table.rows;
  const lastIndex = templateRows.length - 1;
  const needsCopies = (payloadRows[payloadRows.length - 1] ?? 0) > lastIndex;
  // Copied before anything is written into the template's own last row.
  const pattern = needsCopies ? cloneElement(templateRows[lastIndex]!) : null;
  const rowIds = needsCopies ? new RowIds(templateRows) : null;
  const placed = payloadRows.map((index): PlacedRow => {
    if (index <= lastIndex) return { tr: templateRows[index]!, source: index, copy: false };
    const tr = cloneElement(pattern!);
    rowIds!.renew(tr);
    if (lastIndex < headerRows) unmergeRow(tr);
    return { tr, source: lastIndex, copy: true };
  });
  setRows(
    table.tbl,
    placed.map((row) => row.tr),
  );
  normalizeMerges(placed, table.columnWidths.length);
  return placed;
}

/**
 * `a16:rowId` names a row for co-authoring and must be unique within the table (docs/powerpoint-rules.md
 * "Ids inside a slide"): a copy gets the next number above every id the table has.
 */
class RowIds {
  private next: number;

  constructor(rows: readonly XmlElement[]) {
    let highest = 0;
    for (const tr of rows) highest = Math.max(highest, Number(rowIdOf(tr)?.attrs.val) || 0);
    this.next = highest + 1;
  }

  renew(tr: XmlElement): void {
    const id = rowIdOf(tr);
    // ST_UnsignedInt: wraps rather than overflows on a table whose ids are near the top of the range.
    if (id) id.attrs.val = String(this.next++ % 4294967296);
  }
}

function rowIdOf(tr: XmlElement): XmlElement | undefined {
  const extLst = child(tr, 'a:extLst');
  if (!extLst) return undefined;
  for (const ext of childElements(extLst, 'a:ext'))
    if (ext.attrs.uri === ROW_ID_EXT) return child(ext, 'a16:rowId');
  return undefined;
}
