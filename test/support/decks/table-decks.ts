/**
 * The owned table template of the engine's table scenarios (tables*.test.ts), on the layouts template's master
 * (one-slide-deck.ts). Its slides:
 *   0 "Title 1"; "Table 1": 6 rows × 5 columns, empty, header row and banded rows in a built-in table style,
 *     every cell with borders on all sides and a diagonal; "Table 2": 2 rows × 5 columns below it, where 4 rows fit.
 *   1 "Title 1"; "TableWithHeader" (4 columns: "Header 1" … "Header 4", then figures); "TableDefault"
 *     (4 columns, figures); "TableWithFormattedCells" (2 columns, rows 370 840 EMU high with row ids, text "cell"
 *     centred, 14 pt, bold, grey); "TableWithEmptyCells" (3 rows × 2 columns: "label" twice in the first column,
 *     the rest empty with the look of their empty paragraph: bold, right-aligned in the major font in the first
 *     column, centred in the minor font in the second); "EmptyTable" (1 row × 3 empty columns).
 *   2 "Merged across": 6 rows × 3 columns, merges along rows (all three columns in rows 0 and 5, the first two in
 *     row 2, the last two in rows 3 and 4).
 *   3 "Merged down": 6 rows × 4 columns, column 0 merged down all six rows, column 1 down the first three.
 *   4 "Merged both ways": 5 rows × 4 columns, a 2 × 2 merge at the top left and a 3 × 3 one from row 2, column 1.
 * Cells that show text hold "C: row, column" unless said otherwise; cells a merge covers are empty.
 */
import { slidesDeck, titleShape } from './one-slide-deck.js';

interface CellSpec {
  text?: string;
  gridSpan?: number;
  rowSpan?: number;
  hMerge?: boolean;
  vMerge?: boolean;
  /** The whole a:p content of an empty cell (its look), or of a cell's paragraph with text. */
  paragraph?: string;
  tcPr?: string;
}

const ROW = 370_840;
const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function tc(cell: CellSpec): string {
  const attrs =
    (cell.rowSpan ? ` rowSpan="${cell.rowSpan}"` : '') +
    (cell.gridSpan ? ` gridSpan="${cell.gridSpan}"` : '') +
    (cell.hMerge ? ' hMerge="1"' : '') +
    (cell.vMerge ? ' vMerge="1"' : '');
  const paragraph =
    cell.paragraph ??
    (cell.text
      ? `<a:r><a:rPr lang="en-US" sz="1200" dirty="0"/><a:t>${escape(cell.text)}</a:t></a:r>`
      : '<a:endParaRPr lang="en-US" sz="1200"/>');
  return `<a:tc${attrs}><a:txBody><a:bodyPr/><a:lstStyle/><a:p>${paragraph}</a:p></a:txBody>${cell.tcPr ?? '<a:tcPr/>'}</a:tc>`;
}

let rowIds = 1_000;
/** A row of cells; with `ids`, the row id PowerPoint 2016 gives each row. */
function tr(cells: CellSpec[], height = ROW, ids = false): string {
  const id = ids
    ? `<a:extLst><a:ext uri="{0D108BD9-81ED-4DB2-BD59-A6C34878D82A}"><a16:rowId xmlns:a16="http://schemas.microsoft.com/office/drawing/2014/main" val="${rowIds++}"/></a:ext></a:extLst>`
    : '';
  return `<a:tr h="${height}">${cells.map(tc).join('')}${id}</a:tr>`;
}

interface TableSpec {
  id: number;
  name: string;
  x: number;
  y: number;
  columns: number[];
  rows: string[];
  tblPr?: string;
}

function table(t: TableSpec): string {
  const cx = t.columns.reduce((a, b) => a + b, 0);
  const cy = [...t.rows.join('').matchAll(/<a:tr h="(\d+)"/g)].reduce((a, m) => a + Number(m[1]), 0);
  return (
    `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${t.id}" name="${t.name}"/><p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr>` +
    `<p:xfrm><a:off x="${t.x}" y="${t.y}"/><a:ext cx="${cx}" cy="${cy}"/></p:xfrm>` +
    '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl>' +
    (t.tblPr ?? '<a:tblPr/>') +
    `<a:tblGrid>${t.columns.map((w) => `<a:gridCol w="${w}"/>`).join('')}</a:tblGrid>${t.rows.join('')}` +
    '</a:tbl></a:graphicData></a:graphic></p:graphicFrame>'
  );
}

const times = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
const labelled = (r: number, c: number): CellSpec => ({ text: `C: ${r}, ${c}` });

/** A built-in table style ("No Style, Table Grid"), as PowerPoint names it by id. */
export const TABLE_STYLE_ID = '{5940675A-B579-460E-94D1-54222C63F5DA}';
const line = (name: string, fill = '<a:solidFill><a:srgbClr val="404040"/></a:solidFill>'): string =>
  `<a:${name} w="12700" cap="flat" cmpd="sng" algn="ctr">${fill}<a:prstDash val="solid"/></a:${name}>`;
const BORDERED =
  '<a:tcPr>' +
  ['lnL', 'lnR', 'lnT', 'lnB'].map((n) => line(n)).join('') +
  line('lnTlToBr', '<a:noFill/>') +
  line('lnBlToTr', '<a:noFill/>') +
  '</a:tcPr>';
const emptyBordered = (): CellSpec => ({ paragraph: '<a:endParaRPr lang="en-US"/>', tcPr: BORDERED });

const gridSlide =
  titleShape('Quarterly tables') +
  table({
    id: 4,
    name: 'Table 1',
    x: 457200,
    y: 1600200,
    columns: times(5, () => 1645920),
    rows: times(6, () => tr(times(5, emptyBordered))),
    tblPr: `<a:tblPr firstRow="1" bandRow="1"><a:tableStyleId>${TABLE_STYLE_ID}</a:tableStyleId></a:tblPr>`,
  }) +
  table({
    id: 5,
    name: 'Table 2',
    x: 457200,
    y: 4572000,
    columns: times(5, () => 1645920),
    rows: times(2, () => tr(times(5, emptyBordered))),
    tblPr: `<a:tblPr firstRow="1" bandRow="1"><a:tableStyleId>${TABLE_STYLE_ID}</a:tableStyleId></a:tblPr>`,
  });

const FORMATTED: CellSpec = {
  paragraph:
    '<a:pPr algn="ctr"/><a:r><a:rPr lang="de-DE" sz="1400" b="1" dirty="0"><a:solidFill><a:srgbClr val="979696"/></a:solidFill></a:rPr><a:t>cell</a:t></a:r>',
};
const figures = (r: number): CellSpec[] => times(4, (c) => ({ text: String(r * 4 + c + 1) }));
const formatsSlide =
  titleShape('Tables of every look') +
  table({
    id: 3,
    name: 'TableWithHeader',
    x: 457200,
    y: 1300000,
    columns: times(4, () => 1000000),
    rows: [tr(times(4, (c) => ({ text: `Header ${c + 1}` }))), tr(figures(1)), tr(figures(2))],
    tblPr: '<a:tblPr firstRow="1" bandRow="1"/>',
  }) +
  table({
    id: 4,
    name: 'TableDefault',
    x: 4800000,
    y: 1300000,
    columns: times(4, () => 900000),
    rows: [tr(figures(0)), tr(figures(1))],
  }) +
  table({
    id: 5,
    name: 'TableWithFormattedCells',
    x: 457200,
    y: 2600000,
    columns: [1800000, 1800000],
    rows: times(3, () => tr([FORMATTED, FORMATTED], ROW, true)),
  }) +
  table({
    id: 6,
    name: 'TableWithEmptyCells',
    x: 4800000,
    y: 2600000,
    columns: [1800000, 1800000],
    rows: times(3, (r) =>
      tr([
        r < 2
          ? { paragraph: '<a:pPr algn="r"/><a:r><a:rPr lang="de-DE" sz="1400" b="1"/><a:t>label</a:t></a:r>' }
          : {
              paragraph:
                '<a:pPr algn="r"/><a:endParaRPr lang="de-DE" sz="1400" b="1"><a:latin typeface="+mj-lt"/></a:endParaRPr>',
            },
        {
          paragraph:
            '<a:pPr algn="ctr"/><a:endParaRPr lang="de-DE" sz="1400"><a:latin typeface="+mn-lt"/></a:endParaRPr>',
        },
      ]),
    ),
  }) +
  table({
    id: 7,
    name: 'EmptyTable',
    x: 457200,
    y: 4800000,
    columns: times(3, () => 1500000),
    rows: [tr(times(3, () => ({})))],
  });

/** A table of `merges` (row, column, rows, columns) over `rows` × `columns`, other cells labelled. */
function mergedTable(
  id: number,
  name: string,
  rows: number,
  columns: number,
  merges: number[][],
  first?: string,
): string {
  const grid: CellSpec[][] = times(rows, (r) => times(columns, (c) => labelled(r, c)));
  for (const [r0, c0, height, width] of merges as [number, number, number, number][])
    for (let r = r0; r < r0 + height; r++)
      for (let c = c0; c < c0 + width; c++) {
        const cell: CellSpec = r === r0 && c === c0 ? labelled(r, c) : {};
        if (height > 1 && r === r0) cell.rowSpan = height;
        if (width > 1 && c === c0) cell.gridSpan = width;
        if (c > c0) cell.hMerge = true;
        if (r > r0) cell.vMerge = true;
        grid[r]![c] = cell;
      }
  if (first) grid[0]![0] = { ...grid[0]![0], text: first };
  return table({
    id,
    name,
    x: 457200,
    y: 1600200,
    columns: times(columns, () => Math.floor(8229600 / columns)),
    rows: grid.map((cells) => tr(cells)),
  });
}

let bytes: Uint8Array | undefined;

/** The deck's bytes (a fresh copy each call). */
export function tablesDeck(): Uint8Array {
  bytes ??= slidesDeck([
    { shapes: gridSlide, layout: 6 },
    { shapes: formatsSlide, layout: 6 },
    {
      shapes:
        titleShape('Merged across') +
        mergedTable(3, 'Merged across', 6, 3, [
          [0, 0, 1, 3],
          [2, 0, 1, 2],
          [3, 1, 1, 2],
          [4, 1, 1, 2],
          [5, 0, 1, 3],
        ]),
      layout: 6,
    },
    {
      shapes:
        titleShape('Merged down') +
        mergedTable(3, 'Merged down', 6, 4, [
          [0, 0, 6, 1],
          [0, 1, 3, 1],
        ]),
      layout: 6,
    },
    {
      shapes:
        titleShape('Merged both ways') +
        mergedTable(
          3,
          'Merged both ways',
          5,
          4,
          [
            [0, 0, 2, 2],
            [2, 1, 3, 3],
          ],
          'C: 0, 0 merged 2 x 2',
        ),
      layout: 6,
    },
  ]);
  return bytes.slice();
}
