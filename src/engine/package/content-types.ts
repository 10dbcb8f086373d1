/**
 * The [Content_Types].xml stream (ECMA-376 Part 2 §10.1.2, docs/powerpoint-rules.md
 * "Every part has exactly one content type"): an Override by part name wins over a Default by extension, both
 * compared case-insensitively. On output, an Override for a part that is not in the package, or for
 * /[Content_Types].xml itself, makes Office repair or refuse the file.
 */
import { EngineError } from '../errors.js';
import { escapeAttribute, localName, parseXml, XML_DECLARATION } from '../xml/index.js';
import { extensionOf, partKey } from './part-names.js';

const OOXML = 'application/vnd.openxmlformats-officedocument.';
const PML = `${OOXML}presentationml.`;
const DML = `${OOXML}drawingml.`;

/** Content types (ECMA-376 Part 1 §15). */
export const CT = Object.freeze({
  presentationMain: `${PML}presentation.main+xml`,
  presentationTemplate: `${PML}template.main+xml`,
  slideshowMain: `${PML}slideshow.main+xml`,
  presentationMacroEnabled: 'application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml',
  slideshowMacroEnabled: 'application/vnd.ms-powerpoint.slideshow.macroEnabled.main+xml',
  templateMacroEnabled: 'application/vnd.ms-powerpoint.template.macroEnabled.main+xml',
  addInMacroEnabled: 'application/vnd.ms-powerpoint.addin.macroEnabled.main+xml',
  slide: `${PML}slide+xml`,
  slideLayout: `${PML}slideLayout+xml`,
  slideMaster: `${PML}slideMaster+xml`,
  notesSlide: `${PML}notesSlide+xml`,
  notesMaster: `${PML}notesMaster+xml`,
  handoutMaster: `${PML}handoutMaster+xml`,
  tags: `${PML}tags+xml`,
  comments: `${PML}comments+xml`,
  commentAuthors: `${PML}commentAuthors+xml`,
  presProps: `${PML}presProps+xml`,
  viewProps: `${PML}viewProps+xml`,
  tableStyles: `${OOXML}presentationml.tableStyles+xml`,
  theme: `${OOXML}theme+xml`,
  themeOverride: `${OOXML}themeOverride+xml`,
  chart: `${DML}chart+xml`,
  chartEx: 'application/vnd.ms-office.chartex+xml',
  chartStyle: 'application/vnd.ms-office.chartstyle+xml',
  chartColorStyle: 'application/vnd.ms-office.chartcolorstyle+xml',
  chartDrawing: `${DML}chartshapes+xml`,
  diagramData: `${DML}diagramData+xml`,
  diagramLayout: `${DML}diagramLayout+xml`,
  diagramStyle: `${DML}diagramStyle+xml`,
  diagramColors: `${DML}diagramColors+xml`,
  diagramDrawing: 'application/vnd.ms-office.drawingml.diagramDrawing+xml',
  spreadsheet: `${OOXML}spreadsheetml.sheet`,
  oleObject: `${OOXML}oleObject`,
  vmlDrawing: `${OOXML}vmlDrawing`,
  relationships: 'application/vnd.openxmlformats-package.relationships+xml',
  coreProperties: 'application/vnd.openxmlformats-package.core-properties+xml',
  extendedProperties: `${OOXML}extended-properties+xml`,
  customProperties: `${OOXML}custom-properties+xml`,
  xml: 'application/xml',
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
  emf: 'image/x-emf',
  wmf: 'image/x-wmf',
  mp4: 'video/mp4',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  /** Main parts of the other Office formats, to tell a user what they uploaded instead. */
  wordMain: `${OOXML}wordprocessingml.document.main+xml`,
  spreadsheetMain: `${OOXML}spreadsheetml.sheet.main+xml`,
});

const TYPES_NAMESPACE = 'http://schemas.openxmlformats.org/package/2006/content-types';
const CONTENT_TYPES_PART = '/[content_types].xml';

interface Entry {
  /** As written (extension or part name). */
  name: string;
  contentType: string;
}

export class ContentTypes {
  /**
   * Keyed by lower-case extension / part key; Map order is the order of first appearance, kept on output. An
   * Override is written with the part's own spelling (serialize), so only its type is kept here: a deck of
   * 20 000 slides has as many.
   */
  private constructor(
    private readonly defaults: Map<string, Entry>,
    private readonly overrides: Map<string, string>,
  ) {}

  static empty(): ContentTypes {
    return new ContentTypes(new Map(), new Map());
  }

  static parse(xml: string | Uint8Array): ContentTypes {
    const path = '/[Content_Types].xml';
    const { root } = parseXml(xml, path);
    if (localName(root.name) !== 'Types')
      throw new EngineError('INVALID_TEMPLATE', 'not a content types stream', path);
    const types = ContentTypes.empty();
    for (const node of root.children) {
      if (node.kind !== 'element') continue;
      const { Extension: extension, PartName: partName, ContentType: contentType } = node.attrs;
      const kind = localName(node.name);
      if (kind === 'Default' && extension !== undefined && contentType) {
        const key = extension.toLowerCase();
        if (!types.defaults.has(key)) types.defaults.set(key, { name: extension, contentType });
      } else if (kind === 'Override' && partName && contentType) {
        const key = partKey(partName);
        if (!types.overrides.has(key)) types.overrides.set(key, contentType);
      }
    }
    return types;
  }

  typeOf(partName: string): string | undefined {
    return this.overrides.get(partKey(partName)) ?? this.defaultFor(extensionOf(partName));
  }

  defaultFor(extension: string): string | undefined {
    return this.defaults.get(extension.toLowerCase())?.contentType;
  }

  overrideFor(partName: string): string | undefined {
    return this.overrides.get(partKey(partName));
  }

  setOverride(partName: string, contentType: string): void {
    this.overrides.set(partKey(partName), contentType);
  }

  removeOverride(partName: string): void {
    this.overrides.delete(partKey(partName));
  }

  /**
   * Adds a Default unless one exists for the extension. Returns whether the extension's Default now has this
   * type; when it does not (`.bin` is both printer settings and OLE objects), the caller needs an Override.
   */
  ensureDefault(extension: string, contentType: string): boolean {
    const key = extension.toLowerCase();
    const existing = this.defaults.get(key);
    if (!existing) this.defaults.set(key, { name: key, contentType });
    return (existing?.contentType ?? contentType) === contentType;
  }

  /** Sets the type of a part with as few entries as possible: no Override where the Default already says it. */
  assign(partName: string, contentType: string): void {
    if (this.defaultFor(extensionOf(partName)) === contentType) this.removeOverride(partName);
    else this.setOverride(partName, contentType);
  }

  clone(): ContentTypes {
    return new ContentTypes(new Map(this.defaults), new Map(this.overrides));
  }

  /**
   * The stream for a package holding exactly `existingParts`: Overrides for other parts are dropped,
   * and an Override is written with the part's own spelling of its name.
   */
  serialize(existingParts: Iterable<string>): string {
    const present = new Map<string, string>();
    for (const name of existingParts) present.set(partKey(name), name);
    let xml = `${XML_DECLARATION}<Types xmlns="${TYPES_NAMESPACE}">`;
    for (const { name, contentType } of this.defaults.values()) {
      xml += `<Default Extension="${escapeAttribute(name)}" ContentType="${escapeAttribute(contentType)}"/>`;
    }
    for (const [key, contentType] of this.overrides) {
      const name = present.get(key);
      if (name === undefined || key === CONTENT_TYPES_PART) continue;
      xml += `<Override PartName="${escapeAttribute(name)}" ContentType="${escapeAttribute(contentType)}"/>`;
    }
    return `${xml}</Types>`;
  }
}
