/**
 * The estimated height of each payload row as it will be drawn: the payload's text (or the template cell's,
 * where the payload leaves a cell as it is) in the formatting it will have — the run's own font size, else the
 * cell's `cell_properties`, else the template cell's (its first run, or a:endParaRPr of an empty cell), else
 * the presentation's default — wrapped at the cell's width (row-height.ts).
 */
import type { TableCell, TableContent, TextContent } from '../payload/model.js';
import { child, childElements, textContent, type XmlElement } from '../xml/index.js';
import {
  DEFAULT_MARGIN_X,
  DEFAULT_MARGIN_Y,
  textHeight,
  type MeasuredParagraph,
  type MeasuredRun,
} from './row-height.js';
import { cellsOf, emu, isOn, rowHeight, type TableXml } from './table-grid.js';

/** The formatting a template cell lends to text written into it, per paragraph. */
interface CellLook {
  sizes: number[];
  bold: boolean[];
}

export class RowMeasure {
  private readonly looks = new Map<XmlElement, CellLook>();

  /** `table` must be the template's table as it was before any row was written. */
  constructor(
    private readonly table: TableXml,
    private readonly content: TableContent,
    private readonly defaultFontSize: number,
  ) {}

  /** Height in EMU (the table's own space) of payload row `index`. */
  height(index: number): number {
    const { rows, columnWidths } = this.table;
    const added = index >= rows.length;
    const tr = rows[Math.min(index, rows.length - 1)]!;
    const entries = this.content.rows[index] ?? [];
    let height = rowHeight(tr);
    const cells = cellsOf(tr);
    for (let c = 0; c < cells.length && c < columnWidths.length; c++) {
      const tc = cells[c]!;
      const { attrs } = tc;
      // Covered cells draw nothing; a cell spanning rows shares its height with them (not estimated).
      if (isOn(attrs.hMerge) || isOn(attrs.vMerge) || (!added && emu(attrs.rowSpan) > 1)) continue;
      const span = Math.max(1, emu(attrs.gridSpan));
      let width = 0;
      for (let k = c; k < c + span && k < columnWidths.length; k++) width += columnWidths[k]!;
      const tcPr = child(tc, 'a:tcPr');
      const margin = (name: string, fallback: number): number =>
        tcPr?.attrs[name] === undefined ? fallback : emu(tcPr.attrs[name]);
      width -= margin('marL', DEFAULT_MARGIN_X) + margin('marR', DEFAULT_MARGIN_X);
      const paragraphs = this.paragraphs(tc, entries[c], added);
      const needed = textHeight(
        paragraphs,
        width,
        margin('marT', DEFAULT_MARGIN_Y),
        margin('marB', DEFAULT_MARGIN_Y),
      );
      if (needed > height) height = needed;
    }
    return height;
  }

  private paragraphs(tc: XmlElement, entry: TableCell | undefined, added: boolean): MeasuredParagraph[] {
    const look = this.look(tc);
    const sizeAt = (p: number): number =>
      look.sizes[Math.min(p, look.sizes.length - 1)] ?? this.defaultFontSize;
    const boldAt = (p: number): boolean => look.bold[Math.min(p, look.bold.length - 1)] ?? false;
    const cellSize = entry?.runProps?.size;
    const cellBold = entry?.runProps?.bold;
    if (entry?.text)
      return fromPayload(
        entry.text,
        (p) => cellSize ?? sizeAt(p),
        (p) => cellBold ?? boldAt(p),
      );
    // A row added by copying the last one starts empty; a template row keeps its text.
    if (added) return [[{ text: '', size: cellSize ?? sizeAt(0), bold: false }]];
    const body = child(tc, 'a:txBody');
    return (body ? childElements(body, 'a:p') : []).map((p, i) => [
      { text: textContent(p), size: cellSize ?? sizeAt(i), bold: cellBold ?? boldAt(i) },
    ]);
  }

  private look(tc: XmlElement): CellLook {
    let look = this.looks.get(tc);
    if (!look) {
      look = { sizes: [], bold: [] };
      const body = child(tc, 'a:txBody');
      for (const p of body ? childElements(body, 'a:p') : []) {
        const rPr = firstRunProperties(p);
        look.sizes.push(emu(rPr?.attrs.sz) || this.defaultFontSize);
        look.bold.push(isOn(rPr?.attrs.b));
      }
      this.looks.set(tc, look);
    }
    return look;
  }
}

function firstRunProperties(p: XmlElement): XmlElement | undefined {
  for (const el of childElements(p)) if (el.name === 'a:r') return child(el, 'a:rPr');
  return child(p, 'a:endParaRPr');
}

function fromPayload(
  text: TextContent,
  size: (paragraph: number) => number,
  bold: (paragraph: number) => boolean,
): MeasuredParagraph[] {
  return text.paragraphs.map((paragraph, i): MeasuredRun[] =>
    paragraph.runs.length === 0
      ? [{ text: '', size: size(i), bold: bold(i) }]
      : paragraph.runs.map((run) => ({
          text: run.text,
          size: run.props.size ?? size(i),
          bold: run.props.bold ?? bold(i),
        })),
  );
}
