/**
 * The workbook's cell formats (`xl/styles.xml`, SpreadsheetML §18.8): a cell's `s` is an index into `cellXfs`, and
 * its `xf` names a number format (`numFmtId`), built in (§18.8.30) or custom (`numFmts`, ids from 164). A value
 * the chart shows with a format code (a typed value, a date category) gets a cell format with that code, so
 * "Edit Data" shows it as the chart does; everything else about the cell's look (font, fill, border, alignment)
 * stays as its own or its neighbour's. Existing formats are reused, never renumbered: other cells point at them.
 */
import {
  child,
  childElements,
  cloneElement,
  descendants,
  element,
  insertInOrder,
  serializeElement,
  serializeXml,
  type XmlDocument,
  type XmlElement,
} from '../../xml/index.js';
import { isDateFormat } from '../category-values.js';

/** How a number written to the workbook is shown. */
export interface CellFormat {
  code: string;
  /**
   * A cell that already shows a date keeps its own format: the template's date categories, whose code the
   * chart's cache may spell otherwise than the cell's (built-in format 14 is the reader's short date).
   */
  anyDate: boolean;
}

/** CT_Stylesheet child order (§18.8.39), for a `numFmts` the stylesheet did not have. */
const STYLESHEET_ORDER = [
  'numFmts',
  'fonts',
  'fills',
  'borders',
  'cellStyleXfs',
  'cellXfs',
  'cellStyles',
  'dxfs',
  'tableStyles',
  'colors',
  'extLst',
];

/**
 * Built-in number formats (§18.8.30) whose code does not depend on the reader's locale, and 14, which Excel
 * shows as the system's short date and writes into chart caches as `m/d/yyyy` in en-US. A code listed here
 * takes its built-in id; any other code becomes a custom `numFmt`.
 */
const BUILT_IN = new Map<number, string>([
  [0, 'General'],
  [1, '0'],
  [2, '0.00'],
  [3, '#,##0'],
  [4, '#,##0.00'],
  [9, '0%'],
  [10, '0.00%'],
  [11, '0.00E+00'],
  [12, '# ?/?'],
  [13, '# ??/??'],
  [14, 'm/d/yyyy'],
  [15, 'd-mmm-yy'],
  [16, 'd-mmm'],
  [17, 'mmm-yy'],
  [18, 'h:mm AM/PM'],
  [19, 'h:mm:ss AM/PM'],
  [20, 'h:mm'],
  [21, 'h:mm:ss'],
  [37, '#,##0 ;(#,##0)'],
  [38, '#,##0 ;[Red](#,##0)'],
  [39, '#,##0.00;(#,##0.00)'],
  [40, '#,##0.00;[Red](#,##0.00)'],
  [45, 'mm:ss'],
  [46, '[h]:mm:ss'],
  [47, 'mmss.0'],
  [48, '##0.0E+0'],
  [49, '@'],
]);
const BUILT_IN_IDS = new Map([...BUILT_IN].map(([id, code]) => [code, id]));
/** Built-in formats that show dates and times (§18.8.30, with the locale-specific ones 27–36 and 50–58). */
const BUILT_IN_DATES: readonly [number, number][] = [
  [14, 22],
  [27, 36],
  [45, 47],
  [50, 58],
];
/** The first id of a custom number format (§18.8.30: ids below are reserved for built-in formats). */
const FIRST_CUSTOM_ID = 164;

export class CellStyles {
  /** Custom codes by id, as the stylesheet lists them. */
  private readonly custom = new Map<number, string>();
  /** The style chosen for (base style, format) in this request, so each pair is looked up and added once. */
  private readonly made = new Map<string, { style: string | undefined }>();
  private xfs: XmlElement[] | undefined;
  changed = false;

  constructor(
    readonly partName: string,
    private readonly document: XmlDocument,
  ) {
    const numFmts = child(document.root, this.name('numFmts'));
    for (const numFmt of numFmts ? childElements(numFmts, this.name('numFmt')) : []) {
      const id = Number(numFmt.attrs.numFmtId);
      if (Number.isInteger(id) && numFmt.attrs.formatCode !== undefined)
        this.custom.set(id, numFmt.attrs.formatCode);
    }
  }

  /**
   * The style (`s`) that shows a number as `format` says and otherwise looks like `style` (a cell's `s`; none
   * is the workbook's default format 0). `style` itself when it already shows that code (or any date, when the
   * format allows it); undefined when the stylesheet has no cell formats to start from (a default `xf` would
   * need fonts, fills and borders too).
   */
  withNumberFormat(style: string | undefined, format: CellFormat): string | undefined {
    const key = `${style ?? ''}\u0000${format.anyDate ? 'date' : ''}\u0000${format.code}`;
    let chosen = this.made.get(key);
    if (chosen === undefined) {
      chosen = { style: this.styleFor(style, format) };
      this.made.set(key, chosen);
    }
    return chosen.style;
  }

  private styleFor(style: string | undefined, format: CellFormat): string | undefined {
    const xfs = this.cellFormats();
    const baseIndex = Number(style ?? '0');
    const base = xfs[Number.isInteger(baseIndex) ? baseIndex : 0] ?? xfs[0];
    if (!base || this.codeOf(base) === format.code || (format.anyDate && this.showsDate(base))) return style;
    const id = this.numberFormatId(format.code);
    const look = lookOf(base);
    const same = xfs.findIndex((xf) => Number(xf.attrs.numFmtId ?? '0') === id && lookOf(xf) === look);
    if (same >= 0) return String(same);
    const xf = cloneElement(base);
    xf.attrs.numFmtId = String(id);
    xf.attrs.applyNumberFormat = '1';
    const cellXfs = child(this.document.root, this.name('cellXfs')) as XmlElement;
    cellXfs.children.push(xf);
    xfs.push(xf);
    cellXfs.attrs.count = String(xfs.length);
    this.changed = true;
    return String(xfs.length - 1);
  }

  serialize(): string {
    return serializeXml(this.document);
  }

  private cellFormats(): XmlElement[] {
    const cellXfs = child(this.document.root, this.name('cellXfs'));
    this.xfs ??= cellXfs ? childElements(cellXfs, this.name('xf')) : [];
    return this.xfs;
  }

  private codeOf(xf: XmlElement): string | undefined {
    const id = Number(xf.attrs.numFmtId ?? '0');
    return this.custom.get(id) ?? BUILT_IN.get(id);
  }

  private showsDate(xf: XmlElement): boolean {
    const id = Number(xf.attrs.numFmtId ?? '0');
    const custom = this.custom.get(id);
    if (custom !== undefined) return isDateFormat(custom);
    return BUILT_IN_DATES.some(([first, last]) => id >= first && id <= last);
  }

  /** The id showing `formatCode`: a custom format with that code, the built-in one, else a new custom format. */
  private numberFormatId(formatCode: string): number {
    for (const [id, code] of this.custom) if (code === formatCode) return id;
    const builtIn = BUILT_IN_IDS.get(formatCode);
    if (builtIn !== undefined) return builtIn;
    // Differential formats (`dxf`) carry number formats of their own; a new id stays clear of theirs too.
    const taken = [...descendants(this.document.root, this.name('numFmt'))].map(
      (n) => Number(n.attrs.numFmtId) || 0,
    );
    const id = Math.max(FIRST_CUSTOM_ID - 1, ...taken) + 1;
    let numFmts = child(this.document.root, this.name('numFmts'));
    if (!numFmts) {
      numFmts = element(this.name('numFmts'));
      insertInOrder(
        this.document.root,
        numFmts,
        STYLESHEET_ORDER.map((n) => this.name(n)),
      );
    }
    numFmts.children.push(element(this.name('numFmt'), { numFmtId: String(id), formatCode }));
    numFmts.attrs.count = String(childElements(numFmts, this.name('numFmt')).length);
    this.custom.set(id, formatCode);
    this.changed = true;
    return id;
  }

  private name(local: string): string {
    const root = this.document.root.name;
    const colon = root.indexOf(':');
    return colon < 0 ? local : `${root.slice(0, colon)}:${local}`;
  }
}

/** What a cell format looks like apart from its number format: its other attributes and its children. */
function lookOf(xf: XmlElement): string {
  const attrs = Object.entries(xf.attrs)
    .filter(([name]) => name !== 'numFmtId' && name !== 'applyNumberFormat')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([attrs, childElements(xf).map(serializeElement)]);
}
