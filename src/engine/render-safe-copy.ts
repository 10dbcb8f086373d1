/**
 * The copy of a deck that a renderer (LibreOffice) may open: nothing in it points outside the package, and no
 * picture in it is larger than the pixel budget. The deck itself is never changed: what a template links to is
 * its owner's business, but a renderer that follows a link fetches URLs and reads files on the server's behalf
 * (docs/security.md, "Rendering untrusted decks").
 *
 * Relationships (ECMA-376 Part 2 §9.3) are the only way a part names another resource, so they are where the
 * copy is made inert. A relationship is dropped, leaving its r:id pointing at nothing (a linked picture then
 * draws as an empty frame, or as its embedded fallback), when it is:
 * - TargetMode="External", unless it is a hyperlink to http(s) or mailto that only a:hlinkClick / a:hlinkHover
 *   refer to (a person clicks those; the renderer never opens them, and keeps them as links in the PDF);
 * - internal, but its Target is a URI, a UNC or drive path, or climbs above the package root;
 * - of a type a renderer would run or hand to another program: OLE objects and embedded packages, ActiveX,
 *   VBA projects, audio and video, legacy VML drawings;
 * - to an SVG part (whose markup may link outside): the raster fallback beside it is drawn instead.
 * Fields of type "file…" (the document's path on the renderer's disk, §21.1.2.2.4) lose their type and show
 * the text saved with them.
 */
import { EngineError } from './errors.js';
import { displaySize, readImageHeader } from './pictures/image-header.js';
import { ContentTypes } from './package/content-types.js';
import { resolveLimits } from './package/limits.js';
import { decodePercent } from './package/part-names.js';
import {
  REL,
  parseRelationships,
  resolveTarget,
  serializeRelationships,
  sourcePartOfRels,
  targetEscape,
  type Relationship,
} from './package/relationships.js';
import { CONTENT_TYPES_ITEM } from './package/zip-format.js';
import { readZip, type ZipArchive } from './package/zip-reader.js';
import { writeZip, type ZipOutputEntry } from './package/zip-writer.js';
import { decodeEntities, parseXml } from './xml/index.js';
import { descendants, localName } from './xml/query.js';

export interface RenderSafeCopy {
  bytes: Uint8Array;
  /** Relationships dropped and fields disarmed (0: the copy renders exactly as the deck would). */
  neutralised: number;
}

const MS2006 = 'http://schemas.microsoft.com/office/2006/relationships/';
const OFFICE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/';

/** Internal relationships whose targets a renderer would run, embed or hand to another program. */
const NEVER_FOLLOWED = new Set<string>([
  REL.oleObject,
  REL.package,
  REL.vbaProject,
  REL.control,
  REL.media,
  REL.video,
  REL.audio,
  REL.vmlDrawing,
  `${MS2006}activeXControlBinary`,
  `${MS2006}vbaProjectSignature`,
  `${OFFICE}attachedTemplate`,
  `${OFFICE}frame`,
  `${OFFICE}subDocument`,
  `${OFFICE}externalLinkPath`,
]);

/** Hyperlink targets kept (as clickable links in the PDF): web pages and mail addresses, nothing local. */
const CLICKABLE_TARGET = /^(?:https?:\/\/|mailto:)/i;
const HYPERLINK_ELEMENTS = new Set(['hlinkClick', 'hlinkHover', 'hlinkMouseOver']);
const SVG = 'image/svg+xml';
/** The start tag of a field (any prefix; quoted values may hold '>'), and one attribute in a start tag. */
const FIELD_TAG = /<(?:[\w.-]+:)?fld\b(?:[^>"']|"[^"]*"|'[^']*')*>/g;
const ATTRIBUTE = /\s+([\w.:-]+)\s*=\s*("[^"]*"|'[^']*')/g;

/** `bytes` with every way out of the package removed; refused when a picture passes `maxPixels`. */
export function renderSafeCopy(bytes: Uint8Array, limits: { maxPixels: number }): RenderSafeCopy {
  const archive = readZip(bytes, resolveLimits());
  const names = [...archive.entries.keys()];
  const typesItem = names.find((name) => name.toLowerCase() === CONTENT_TYPES_ITEM.toLowerCase());
  const types = typesItem ? ContentTypes.parse(archive.inflate(typesItem)) : ContentTypes.empty();
  let neutralised = 0;
  const entries: ZipOutputEntry[] = [];
  for (const name of names) {
    const partName = decodePercent(`/${name}`);
    const source = sourcePartOfRels(partName);
    if (source !== null) {
      const rels = parseRelationships(archive.inflate(name), partName);
      const kept = rels.filter((rel) => followable(rel, source, types, archive, names));
      if (kept.length < rels.length) {
        neutralised += rels.length - kept.length;
        entries.push({ name, data: utf8(serializeRelationships(kept)), compress: true });
        continue;
      }
    } else if (/\.xml$/i.test(name) && name !== typesItem) {
      const xml = new TextDecoder().decode(archive.inflate(name));
      const disarmed = xml.replace(FIELD_TAG, (tag) => {
        const without = withoutFileType(tag, partName);
        if (without !== tag) neutralised++;
        return without;
      });
      if (disarmed !== xml) {
        entries.push({ name, data: utf8(disarmed), compress: true });
        continue;
      }
    } else if (types.typeOf(partName)?.startsWith('image/')) {
      checkPixels(archive.inflate(name), partName, limits.maxPixels);
    }
    entries.push({ name, from: archive, source: name });
  }
  return { bytes: neutralised === 0 ? bytes : writeZip(entries), neutralised };
}

function followable(
  rel: Relationship,
  source: string,
  types: ContentTypes,
  archive: ZipArchive,
  names: readonly string[],
): boolean {
  if (rel.external) {
    return (
      rel.type === REL.hyperlink &&
      CLICKABLE_TARGET.test(rel.target.trim()) &&
      onlyClickedThrough(rel.id, source, archive, names)
    );
  }
  if (targetEscape(source, rel.target) !== null) return false;
  if (NEVER_FOLLOWED.has(rel.type)) return false;
  return types.typeOf(resolveTarget(source, rel.target)) !== SVG;
}

/** Whether every attribute of `source` naming relationship `id` is the r:id of a hyperlink element. */
function onlyClickedThrough(
  id: string,
  source: string,
  archive: ZipArchive,
  names: readonly string[],
): boolean {
  const item = names.find((name) => decodePercent(`/${name}`).toLowerCase() === source.toLowerCase());
  if (item === undefined) return true; // No part refers to it: a hyperlink nobody can use, and nothing to fetch.
  const { root } = parseXml(archive.inflate(item), source);
  for (const el of descendants(root)) {
    for (const [attribute, value] of Object.entries(el.attrs)) {
      if (value !== id || attribute.startsWith('xmlns')) continue;
      if (!HYPERLINK_ELEMENTS.has(localName(el.name)) || localName(attribute) !== 'id') return false;
    }
  }
  return true;
}

/** A field's start tag without a `type` that names the file (`file`, `file1` … `file3`, entities decoded). */
function withoutFileType(tag: string, partName: string): string {
  return tag.replace(ATTRIBUTE, (attribute, name: string, quoted: string) => {
    if (name !== 'type') return attribute;
    const value = decodeEntities(quoted.slice(1, -1), (message) => {
      throw new EngineError('INVALID_TEMPLATE', message, partName);
    });
    return /^\s*file/i.test(value) ? '' : attribute;
  });
}

/** The pixel budget of pictures in generation, read from the header before anything decodes the picture. */
function checkPixels(bytes: Uint8Array, partName: string, maxPixels: number): void {
  const header = readImageHeader(bytes);
  if (!header) return;
  const { width, height } = displaySize(header);
  if (width * height > maxPixels) {
    throw new EngineError(
      'LIMIT_EXCEEDED',
      `the picture is ${width} × ${height} pixels, over the limit of ${maxPixels.toLocaleString('en-US')} pixels for one image`,
      partName,
    );
  }
}

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
