/**
 * The workbook embedded in a chart (`ppt/embeddings/*.xlsx`, docs/powerpoint-rules.md "The embedded workbook"): a
 * zip inside the zip, read and written with the engine's own zip and XML code, within the template's zip-bomb
 * limits. Only the parts a chart edit touches are parsed (the workbook, the data sheet, shared strings, the
 * sheet's tables); everything else is copied as its compressed bytes. A stale calculation chain is dropped (Excel
 * rebuilds it), and the workbook asks Excel to recalculate on load, so formulas that read the chart's data are up
 * to date.
 */
import { EngineError } from '../../errors.js';
import { ContentTypes } from '../../package/content-types.js';
import type { PackageLimits } from '../../package/limits.js';
import { partKey } from '../../package/part-names.js';
import {
  parseRelationships,
  relsPartName,
  resolveTarget,
  serializeRelationships,
  type Relationship,
} from '../../package/relationships.js';
import { readZip, writeZip, type ZipArchive, type ZipOutputEntry } from '../../package/zip.js';
import {
  child,
  childElements,
  cloneDocument,
  element,
  insertInOrder,
  parseXml,
  serializeXml,
  type XmlDocument,
} from '../../xml/index.js';
import { parseCell, type Area, type Cell } from '../formula.js';
import { sheetPrefix } from '../sheet-prefix.js';
import { CellStyles } from './cell-styles.js';
import { SharedStrings } from './shared-strings.js';
import { Worksheet } from './worksheet.js';

const CONTENT_TYPES_ITEM = '[Content_Types].xml';
const OFFICE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/';
const REL_OFFICE_DOCUMENT = `${OFFICE}officeDocument`;
const REL_WORKSHEET = `${OFFICE}worksheet`;
const REL_SHARED_STRINGS = `${OFFICE}sharedStrings`;
const REL_STYLES = `${OFFICE}styles`;
const REL_CALC_CHAIN = `${OFFICE}calcChain`;
const REL_TABLE = `${OFFICE}table`;
/** A formula element in a worksheet's text (`<f>`, `<f t="shared" …>`, `<x:f>`; not `<font>` or `<fill>`). */
const FORMULA = /<(?:[\w.-]+:)?f[\s/>]/;
/** The memo key of `hasFormulas` (no part item is named so). */
const FORMULAS_KEY = '#formulas';
const LAST_COMPRESSED_KEY = '#compressed';

/** CT_Workbook child order (SpreadsheetML §18.2.27), for a calcPr the workbook did not have. */
const WORKBOOK_ORDER = [
  'fileVersion',
  'fileSharing',
  'workbookPr',
  'workbookProtection',
  'bookViews',
  'sheets',
  'functionGroups',
  'externalReferences',
  'definedNames',
  'calcPr',
  'oleSize',
  'customWorkbookViews',
  'pivotCaches',
  'smartTagPr',
  'smartTagTypes',
  'webPublishing',
  'fileRecoveryPr',
  'webPublishObjects',
  'extLst',
];

export class EmbeddedWorkbook {
  private readonly changed = new Map<string, string>();
  private readonly removed = new Set<string>();
  private readonly contentTypes: ContentTypes;
  private readonly workbookPart: string;
  private readonly workbook: XmlDocument;
  private sharedStrings: SharedStrings | null | undefined;
  private cellStyles: CellStyles | null | undefined;
  private tableList: ReturnType<EmbeddedWorkbook['tables']> | undefined;

  private constructor(
    private readonly archive: ZipArchive,
    /** Item names by part key. */
    private readonly items: Map<string, string>,
    private readonly partName: string,
    /** Parsed parts of this workbook's bytes, shared by every copy of the chart in the request (cloned on use). */
    private readonly parsed: Map<string, unknown>,
    private readonly limits: PackageLimits,
  ) {
    const typesItem = [...archive.entries.keys()].find(
      (n) => n.toLowerCase() === CONTENT_TYPES_ITEM.toLowerCase(),
    );
    if (!typesItem) throw this.invalid('the embedded workbook has no [Content_Types].xml');
    this.contentTypes = this.once(typesItem, () => ContentTypes.parse(archive.inflate(typesItem))).clone();
    const main = this.relationships('/').find((r) => r.type === REL_OFFICE_DOCUMENT && !r.external);
    if (!main) throw this.invalid('the embedded workbook has no workbook part');
    this.workbookPart = resolveTarget('/', main.target);
    this.workbook = this.xml(this.workbookPart);
  }

  /**
   * Opens the workbook bytes; a package that is not a workbook is refused with the chart part's name. `memo`
   * keeps what is read from these bytes for the next chart made from the same template part.
   */
  static open(
    bytes: Uint8Array,
    limits: PackageLimits,
    partName: string,
    memo: <T>(key: object, make: () => T) => T = (_key, make) => make(),
  ): EmbeddedWorkbook {
    const { archive, items, parsed } = memo(bytes, () => {
      const archive = readZip(bytes, limits);
      const items = new Map<string, string>();
      for (const name of archive.entries.keys()) items.set(partKey(`/${name}`), name);
      return { archive, items, parsed: new Map<string, unknown>() };
    });
    return new EmbeddedWorkbook(archive, items, partName, parsed, limits);
  }

  private once<T>(key: string, make: () => T): T {
    if (!this.parsed.has(key)) this.parsed.set(key, make());
    return this.parsed.get(key) as T;
  }

  /** The names of the workbook's sheets, in order. */
  sheetNames(): string[] {
    const sheets = child(this.workbook.root, this.name('sheets'));
    return sheets ? childElements(sheets, this.name('sheet')).map((s) => s.attrs.name ?? '') : [];
  }

  /** The worksheet named `name` (compared case-insensitively, as Excel does), or null. */
  sheet(name: string): Worksheet | null {
    const sheets = child(this.workbook.root, this.name('sheets'));
    const entry = sheets
      ? childElements(sheets, this.name('sheet')).find(
          (s) => (s.attrs.name ?? '').toLowerCase() === name.toLowerCase(),
        )
      : undefined;
    const relId = entry && Object.entries(entry.attrs).find(([k]) => k.endsWith(':id'))?.[1];
    const rel = this.relationships(this.workbookPart).find((r) => r.id === relId && r.type === REL_WORKSHEET);
    if (!rel || rel.external) return null;
    const part = resolveTarget(this.workbookPart, rel.target);
    if (!this.items.has(partKey(part))) return null;
    const tables = this.relationships(part)
      .filter((r) => r.type === REL_TABLE && !r.external)
      .map((r) => resolveTarget(part, r.target))
      .filter((t) => this.items.has(partKey(t)))
      .map((t) => ({ part: t, doc: this.xml(t) }));
    return new Worksheet(part, this.xml(part), tables, this.strings(), () => this.styles());
  }

  /**
   * The cells a structured reference names (`Table13[Series 2]`, `Table13[[#Headers],[Series 2]]`): PowerPoint
   * writes chart formulas this way when the data is an Excel table. Null when no table or column matches.
   */
  structuredReference(formula: string): Area[] | null {
    const match = /^([^[\]!]+)\[(.*)\]$/.exec(formula.trim());
    if (!match) return null;
    const table = this.tables().find((t) => t.name.toLowerCase() === (match[1] as string).toLowerCase());
    if (!table) return null;
    const items = (match[2] as string).startsWith('[')
      ? (match[2] as string).slice(1, -1).split(/\],\s*\[/)
      : [match[2] as string];
    const headers = items.some((i) => /^#Headers$/i.test(i));
    const column = items.find((i) => !i.startsWith('#'))?.replace(/'(.)/g, '$1');
    const index =
      column === undefined ? -1 : table.columns.findIndex((c) => c.toLowerCase() === column.toLowerCase());
    if (index < 0) return null;
    const col = table.from.col + index;
    const first = table.from.row + (headers || !table.header ? 0 : 1);
    const last = headers ? table.from.row : table.to.row;
    return [{ sheet: table.sheet, from: { row: first, col }, to: { row: last, col } }];
  }

  /** Every Excel table of the workbook: its name, sheet (as a formula prefix), range and column names. */
  private tables(): {
    name: string;
    sheet: string;
    from: Cell;
    to: Cell;
    header: boolean;
    columns: string[];
  }[] {
    this.tableList ??= this.sheetNames().flatMap((sheetName) => {
      const sheet = this.sheet(sheetName);
      return (sheet?.tables ?? []).flatMap(({ doc }) => {
        const [a = '', b = a] = (doc.root.attrs.ref ?? '').split(':');
        const from = parseCell(a);
        const to = parseCell(b);
        if (!from || !to) return [];
        const prefix = doc.root.name.includes(':')
          ? doc.root.name.slice(0, doc.root.name.indexOf(':') + 1)
          : '';
        const columns = child(doc.root, `${prefix}tableColumns`);
        return [
          {
            name: doc.root.attrs.displayName ?? doc.root.attrs.name ?? '',
            sheet: sheetPrefix(sheetName),
            from,
            to,
            header: doc.root.attrs.headerRowCount !== '0',
            columns: columns
              ? childElements(columns, `${prefix}tableColumn`).map((c) => c.attrs.name ?? '')
              : [],
          },
        ];
      });
    });
    return this.tableList;
  }

  /** Keeps an edited sheet (and its tables, and the shared strings) for `toBytes`. */
  save(sheet: Worksheet): void {
    this.changed.set(partKey(sheet.partName), serializeXml(sheet.document));
    for (const table of sheet.tables) this.changed.set(partKey(table.part), serializeXml(table.doc));
    const strings = this.sharedStrings;
    if (strings?.changed) this.changed.set(partKey(strings.partName), strings.serialize());
    const styles = this.cellStyles;
    if (styles?.changed) this.changed.set(partKey(styles.partName), styles.serialize());
    this.dropCalculationChain();
  }

  /** The workbook as a zip: unchanged parts as their compressed bytes, edited ones anew. */
  toBytes(): Uint8Array {
    const entries: ZipOutputEntry[] = [];
    for (const [key, name] of this.items) {
      if (this.removed.has(key)) continue;
      const data = this.changed.get(key);
      entries.push(
        data === undefined
          ? { name, from: this.archive, source: name }
          : { name, from: this.compressed(name, data), source: name },
      );
    }
    return writeZip(entries);
  }

  /**
   * An edited part compressed, as a one-entry archive to copy from. Copies of a chart often write the same text
   * (the same category and series names, the same table): the last text of each part is kept for the request,
   * and the next copy with the same text reuses it rather than compressing it again.
   */
  private compressed(name: string, data: string): ZipArchive {
    const last = this.once(
      LAST_COMPRESSED_KEY,
      () => new Map<string, { data: string; archive: ZipArchive }>(),
    );
    const kept = last.get(name);
    if (kept?.data === data) return kept.archive;
    const archive = readZip(
      writeZip([{ name, data: Buffer.from(data, 'utf8'), compress: true }]),
      this.limits,
    );
    last.set(name, { data, archive });
    return archive;
  }

  private strings(): SharedStrings | null {
    if (this.sharedStrings === undefined) {
      const rel = this.relationships(this.workbookPart).find(
        (r) => r.type === REL_SHARED_STRINGS && !r.external,
      );
      const part = rel ? resolveTarget(this.workbookPart, rel.target) : null;
      this.sharedStrings =
        part && this.items.has(partKey(part)) ? new SharedStrings(part, this.xml(part)) : null;
    }
    return this.sharedStrings;
  }

  /**
   * The stylesheet, read only when a cell needs a number format. A workbook without one keeps its cells
   * unstyled: adding a stylesheet would take a part, its relationship, its content type and the default fonts,
   * fills, borders and formats every `xf` points at, for workbooks PowerPoint and Excel do not write.
   */
  private styles(): CellStyles | null {
    if (this.cellStyles === undefined) {
      const rel = this.relationships(this.workbookPart).find((r) => r.type === REL_STYLES && !r.external);
      const part = rel ? resolveTarget(this.workbookPart, rel.target) : null;
      this.cellStyles = part && this.items.has(partKey(part)) ? new CellStyles(part, this.xml(part)) : null;
    }
    return this.cellStyles;
  }

  /**
   * The calculation chain lists formula cells in calculation order; after cells change it is stale, and Excel
   * repairs a workbook whose chain names cells that have no formula. Without one, Excel rebuilds it. A workbook
   * with formulas is marked for a full calculation on load, so formulas over the chart's data show the new
   * data; one without formulas (most chart workbooks) has nothing to calculate and keeps its workbook part.
   */
  private dropCalculationChain(): void {
    const rels = this.relationships(this.workbookPart);
    const chain = rels.find((r) => r.type === REL_CALC_CHAIN && !r.external);
    if (!chain && !this.hasFormulas()) return;
    if (chain) {
      const part = resolveTarget(this.workbookPart, chain.target);
      this.removed.add(partKey(part));
      this.contentTypes.removeOverride(part);
      const kept = rels.filter((r) => r !== chain);
      this.changed.set(partKey(relsPartName(this.workbookPart)), serializeRelationships(kept));
      this.changed.set(partKey('/[Content_Types].xml'), this.contentTypes.serialize(this.partNames()));
    }
    const calcPr = child(this.workbook.root, this.name('calcPr')) ?? element(this.name('calcPr'));
    calcPr.attrs.fullCalcOnLoad = '1';
    insertInOrder(
      this.workbook.root,
      calcPr,
      WORKBOOK_ORDER.map((n) => this.name(n)),
    );
    this.changed.set(partKey(this.workbookPart), serializeXml(this.workbook));
  }

  /** Whether a worksheet of the workbook holds a formula (an `f` element), read once per request. */
  private hasFormulas(): boolean {
    return this.once(FORMULAS_KEY, () =>
      this.relationships(this.workbookPart)
        .filter((r) => r.type === REL_WORKSHEET && !r.external)
        .some((r) => {
          const item = this.items.get(partKey(resolveTarget(this.workbookPart, r.target)));
          return item !== undefined && FORMULA.test(new TextDecoder().decode(this.archive.inflate(item)));
        }),
    );
  }

  private partNames(): string[] {
    return [...this.items].filter(([key]) => !this.removed.has(key)).map(([, name]) => `/${name}`);
  }

  /** The workbook's own prefix for SpreadsheetML elements ('' for the default namespace, as Excel writes). */
  private name(local: string): string {
    const root = this.workbook?.root.name ?? '';
    const colon = root.indexOf(':');
    return colon < 0 ? local : `${root.slice(0, colon)}:${local}`;
  }

  private relationships(partName: string): Relationship[] {
    const rels = relsPartName(partName);
    const item = this.items.get(partKey(rels));
    if (item === undefined) return [];
    return this.once<Relationship[]>(item, () => parseRelationships(this.archive.inflate(item), rels)).map(
      (r) => ({ ...r }),
    );
  }

  /** A fresh tree of the part (parsed once per request, then cloned). */
  private xml(partName: string): XmlDocument {
    const item = this.items.get(partKey(partName));
    if (item === undefined) throw this.invalid(`the embedded workbook has no part ${partName}`);
    return cloneDocument(
      this.once(item, () => parseXml(this.archive.inflate(item), `${this.partName}${partName}`)),
    );
  }

  private invalid(message: string): EngineError {
    return new EngineError('INVALID_TEMPLATE', message, this.partName);
  }
}
