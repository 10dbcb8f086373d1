/**
 * Relationship parts (ECMA-376 Part 2 §9.3, docs/powerpoint-rules.md "Relationship ids and targets"). A
 * `Relationship` keeps its Target exactly as written; `resolveTarget` turns an internal Target into an absolute
 * part name and `relativeTarget` writes one back the way PowerPoint does.
 */
import { EngineError } from '../errors.js';
import { escapeAttribute, localName, parseXml, XML_DECLARATION } from '../xml/index.js';
import { decodePercent } from './part-names.js';

export interface Relationship {
  id: string;
  type: string;
  /** As written: relative ('../media/image1.png') or absolute for internal targets; a URI for external ones. */
  target: string;
  /** TargetMode="External": the target is not a part and is never copied, followed or pruned. */
  external: boolean;
}

const OFFICE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/';
const PACKAGE = 'http://schemas.openxmlformats.org/package/2006/relationships/';
const MS2006 = 'http://schemas.microsoft.com/office/2006/relationships/';
const MS2007 = 'http://schemas.microsoft.com/office/2007/relationships/';
const MS2011 = 'http://schemas.microsoft.com/office/2011/relationships/';

/** Relationship type URIs (transitional; compared case-sensitively, OPC M1.27). */
export const REL = Object.freeze({
  officeDocument: `${OFFICE}officeDocument`,
  /**
   * ISO/IEC 29500 Strict's officeDocument type: such packages are refused (docs/powerpoint-rules.md
   * "Strict OOXML").
   */
  strictOfficeDocument: 'http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument',
  slide: `${OFFICE}slide`,
  slideLayout: `${OFFICE}slideLayout`,
  slideMaster: `${OFFICE}slideMaster`,
  notesSlide: `${OFFICE}notesSlide`,
  notesMaster: `${OFFICE}notesMaster`,
  handoutMaster: `${OFFICE}handoutMaster`,
  theme: `${OFFICE}theme`,
  themeOverride: `${OFFICE}themeOverride`,
  image: `${OFFICE}image`,
  chart: `${OFFICE}chart`,
  chartEx: 'http://schemas.microsoft.com/office/2014/relationships/chartEx',
  chartUserShapes: `${OFFICE}chartUserShapes`,
  chartStyle: `${MS2011}chartStyle`,
  chartColorStyle: `${MS2011}chartColorStyle`,
  package: `${OFFICE}package`,
  oleObject: `${OFFICE}oleObject`,
  hyperlink: `${OFFICE}hyperlink`,
  tags: `${OFFICE}tags`,
  comments: `${OFFICE}comments`,
  commentAuthors: `${OFFICE}commentAuthors`,
  modernComments: 'http://schemas.microsoft.com/office/2018/10/relationships/comments',
  modernCommentAuthors: 'http://schemas.microsoft.com/office/2018/10/relationships/authors',
  diagramData: `${OFFICE}diagramData`,
  diagramLayout: `${OFFICE}diagramLayout`,
  diagramQuickStyle: `${OFFICE}diagramQuickStyle`,
  diagramColors: `${OFFICE}diagramColors`,
  diagramDrawing: `${MS2007}diagramDrawing`,
  media: `${MS2007}media`,
  hdphoto: `${MS2007}hdphoto`,
  video: `${OFFICE}video`,
  audio: `${OFFICE}audio`,
  vmlDrawing: `${OFFICE}vmlDrawing`,
  control: `${OFFICE}control`,
  font: `${OFFICE}font`,
  presProps: `${OFFICE}presProps`,
  viewProps: `${OFFICE}viewProps`,
  tableStyles: `${OFFICE}tableStyles`,
  customXml: `${OFFICE}customXml`,
  customXmlProps: `${OFFICE}customXmlProps`,
  customProperties: `${OFFICE}custom-properties`,
  extendedProperties: `${OFFICE}extended-properties`,
  coreProperties: `${PACKAGE}metadata/core-properties`,
  thumbnail: `${PACKAGE}metadata/thumbnail`,
  digitalSignatureOrigin: `${PACKAGE}digital-signature/origin`,
  vbaProject: `${MS2006}vbaProject`,
  printerSettings: `${OFFICE}printerSettings`,
  slideUpdateInfo: `${OFFICE}slideUpdateInfo`,
});

const RELATIONSHIPS_NAMESPACE = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** '/ppt/slides/slide1.xml' -> '/ppt/slides/_rels/slide1.xml.rels'; the package itself ('/') -> '/_rels/.rels'. */
export function relsPartName(partName: string): string {
  if (partName === '/' || partName === '') return '/_rels/.rels';
  const slash = partName.lastIndexOf('/');
  return `${partName.slice(0, slash)}/_rels/${partName.slice(slash + 1)}.rels`;
}

/** Inverse of relsPartName: the source part of a rels part ('/' for the package), or null if it is not one. */
export function sourcePartOfRels(relsName: string): string | null {
  const match = /^(.*)\/_rels\/([^/]*)\.rels$/i.exec(relsName);
  if (!match) return null;
  const [, folder = '', file = ''] = match;
  if (file === '') return folder === '' ? '/' : null;
  return `${folder}/${file}`;
}

export function isRelsPartName(partName: string): boolean {
  return sourcePartOfRels(partName) !== null;
}

/**
 * Parses a rels part. `partName` (the rels part or its source part) only locates errors. A Relationship
 * without Id or Type, or with an Id used twice, and any other element, are refused: Office refuses such a
 * package.
 */
export function parseRelationships(xml: string | Uint8Array, partName: string): Relationship[] {
  const path = isRelsPartName(partName) ? partName : relsPartName(partName);
  const { root } = parseXml(xml, path);
  if (localName(root.name) !== 'Relationships')
    throw new EngineError('INVALID_TEMPLATE', 'not a relationships part', path);
  const rels: Relationship[] = [];
  for (const node of root.children) {
    if (node.kind !== 'element') continue;
    if (localName(node.name) !== 'Relationship')
      throw new EngineError('INVALID_TEMPLATE', `an element <${node.name}> among the relationships`, path);
    const { Id: id, Type: type, Target: target = '', TargetMode: mode } = node.attrs;
    if (!id || !type) throw new EngineError('INVALID_TEMPLATE', 'a Relationship without Id or Type', path);
    // An r:id naming two relationships is ambiguous; the Open XML SDK refuses such a package outright.
    if (rels.some((rel) => rel.id === id))
      throw new EngineError('INVALID_TEMPLATE', `two relationships share the Id "${id}"`, path);
    rels.push({ id, type, target, external: mode?.toLowerCase() === 'external' });
  }
  return rels;
}

export function serializeRelationships(rels: readonly Relationship[]): string {
  let xml = `${XML_DECLARATION}<Relationships xmlns="${RELATIONSHIPS_NAMESPACE}">`;
  for (const rel of rels) {
    xml += `<Relationship Id="${escapeAttribute(rel.id)}" Type="${escapeAttribute(rel.type)}" Target="${escapeAttribute(rel.target)}"`;
    xml += rel.external ? ' TargetMode="External"/>' : '/>';
  }
  return `${xml}</Relationships>`;
}

/**
 * An internal Target as an absolute, percent-decoded part name. Relative targets resolve against the source
 * part's folder (RFC 3986 §5.2, as OPC requires); a leading '/' is package-absolute (seen in real decks).
 * Backslashes (written by some broken producers) count as '/'; '..' (also percent-encoded) above the root stays
 * at the root.
 */
export function resolveTarget(sourcePart: string, target: string): string {
  let path = target.replace(/\\/g, '/');
  const cut = path.search(/[?#]/);
  if (cut >= 0) path = path.slice(0, cut);
  const segments = path.startsWith('/') ? [] : folderSegments(sourcePart);
  for (const segment of path.split('/')) {
    // Decoded first: '%2e%2e' is '..' (RFC 3986 §6.2.2.2, percent-encoded unreserved characters).
    const decoded = decodePercent(segment);
    if (decoded === '' || decoded === '.') continue;
    if (decoded === '..') segments.pop();
    else segments.push(decoded);
  }
  return `/${segments.join('/')}`;
}

/**
 * How an internal Target leaves the package, if it does: `uri` for a URI with a scheme or an authority
 * (`file:///etc/passwd`, `//host/share`, `C:\\x`), `above-root` for more '..' segments (also percent-encoded)
 * than there are folders above the source part (`../../etc/passwd` from a slide). resolveTarget clamps such a
 * path at the root, but the Target as written reaches outside in any consumer that resolves it against a file
 * system; OPC part names never do (ECMA-376 Part 2 §9.1.1.1).
 */
export function targetEscape(sourcePart: string, target: string): 'uri' | 'above-root' | null {
  const path = target.replace(/\\/g, '/');
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//')) return 'uri';
  let depth = path.startsWith('/') ? 0 : folderSegments(sourcePart).length;
  for (const segment of (path.split(/[?#]/)[0] ?? '').split('/')) {
    const decoded = decodePercent(segment);
    if (decoded === '' || decoded === '.') continue;
    if (decoded !== '..') depth++;
    else if (--depth < 0) return 'above-root';
  }
  return null;
}

/**
 * The part name an escaping internal Target is confined to: '..' past the root stops at the root, as
 * resolveTarget reads it, and a URI loses its scheme and host (`file:///etc/passwd` → `/etc/passwd`).
 */
export function confinedTarget(sourcePart: string, target: string): string {
  const path = target.replace(/\\/g, '/');
  const local = path.replace(/^[a-z][a-z0-9+.-]*:/i, '').replace(/^\/\/[^/]*/, '');
  return local === path ? resolveTarget(sourcePart, path) : resolveTarget('/', `/${local}`);
}

/** relativeTarget, and never a Target that reads as a URI (`./` before a first segment holding ':'). */
export function confinedRelativeTarget(sourcePart: string, targetPart: string): string {
  const written = relativeTarget(sourcePart, targetPart);
  return targetEscape(sourcePart, written) === null ? written : `./${written}`;
}

/** The Target PowerPoint writes from `sourcePart` to `targetPart`: relative, '../' where needed, URI-escaped. */
export function relativeTarget(sourcePart: string, targetPart: string): string {
  const from = folderSegments(sourcePart);
  const to = targetPart.split('/').filter((segment) => segment !== '');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const up = from.slice(common).map(() => '..');
  return [...up, ...to.slice(common).map(encodeSegment)].join('/');
}

/** The folders of a part name: '/ppt/slides/slide1.xml' → ['ppt', 'slides']. Empty segments are skipped. */
function folderSegments(partName: string): string[] {
  const segments: string[] = [];
  const end = partName.lastIndexOf('/');
  let start = 0;
  while (start < end) {
    const slash = partName.indexOf('/', start);
    if (slash > start) segments.push(partName.slice(start, slash));
    start = slash + 1;
  }
  return segments;
}

/**
 * Escapes what may not appear in a URI path segment (RFC 3986 pchar). An existing '%XX' is kept: part names
 * read from a zip may already be in URI form.
 */
function encodeSegment(segment: string): string {
  return segment.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@%]+/g, (chars) =>
    chars === '%' ? '%25' : encodeURIComponent(chars),
  );
}
