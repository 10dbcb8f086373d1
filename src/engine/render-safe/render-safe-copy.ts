/**
 * The copy of a deck that a renderer (LibreOffice) may open (docs/security.md, "What LibreOffice gets"). The
 * deck itself is never changed: what a template links to is its owner's business, but a renderer that follows
 * a link fetches URLs and reads files on the server's behalf.
 *
 * The copy is always a fresh package written from the parts that were read and checked (one central directory,
 * nothing outside it), from a file that is one archive and nothing else (archive-layout.ts): whatever another
 * reader would make of the upload, LibreOffice gets exactly what was judged. Each part is judged by its bytes
 * (part-kinds.ts), each relationship by the elements that use it (relationship-uses.ts,
 * relationship-judgement.ts), each XML part in its own encoding, whatever its name, and written back as UTF-8:
 * - audio, video and playlists are left out, and so are SVG pictures (their markup may link outside: the raster
 *   fallback PowerPoint stores beside each is drawn instead);
 * - a PostScript picture becomes its TIFF or WMF preview, or the deck is refused: LibreOffice would hand it to
 *   Ghostscript;
 * - every raster picture is held to the pixel budget, read from its header (stored-pixels.ts);
 * - relationships that reach outside, or lead a renderer to run, play, embed or open something, are dropped;
 * - hyperlinks, fields and local URLs are disarmed in every XML part (disarm-part.ts);
 * - presentation.xml lists exactly the slides Deckforge counted (slide-list.ts), and the copy says how many
 *   pages a renderer must make of it;
 * - the fonts the deck embeds are left out, and handed beside the copy as font files checked as uploads are
 *   (embedded-font-files.ts).
 * Every step is linear in the deck: each part is read and parsed once.
 */
import { requestedFonts } from './requested-fonts.js';
import { EngineError, type Warning } from '../errors.js';
import { refuseAmbiguousArchive } from '../package/archive-layout.js';
import { resolveLimits } from '../package/limits.js';
import { decodePercent, partKey } from '../package/part-names.js';
import {
  REL,
  parseRelationships,
  resolveTarget,
  serializeRelationships,
  sourcePartOfRels,
  type Relationship,
} from '../package/relationships.js';
import { CONTENT_TYPES_ITEM } from '../package/zip-format.js';
import { readZip, type ZipArchive } from '../package/zip-reader.js';
import { writeZip, type ZipOutputEntry } from '../package/zip-writer.js';
import { serializeXml, XML_DECLARATION } from '../xml/index.js';
import { disarmPart } from './disarm-part.js';
import { embeddedFontFiles, type RendererFont } from './embedded-font-files.js';
import { partKind, type PartKind } from './part-kinds.js';
import { postscriptPreview } from './postscript-preview.js';
import { followable } from './relationship-judgement.js';
import { surveyPart, type PartSurvey, type RelationshipUse } from './part-survey.js';
import { keepOneSlideList, visibleSlideCount } from './slide-list.js';

export interface RenderSafeCopy {
  bytes: Uint8Array;
  /** Parts left out, relationships dropped, hyperlinks, fields and URLs disarmed (0: nothing needed it). */
  neutralised: number;
  /** The pages a renderer must make of the copy: its visible slides. */
  visibleSlides: number;
  /** The font families the copy's text asks for (requestedFonts): read here, off the server's main thread. */
  requestedFonts: string[];
  /** The fonts the deck embeds, checked, for the renderer's font folder (none: the warm renderers draw it). */
  fonts: RendererFont[];
  /** Embedded fonts that are not drawn, each with its part and why. */
  warnings: Warning[];
}

interface Part {
  /** The ZIP item name, as stored. */
  item: string;
  partName: string;
  kind: PartKind;
  /** What the copy acts on in an XML part (part-survey.ts). */
  survey?: PartSurvey;
  /** Bytes that replace the stored ones (a PostScript picture's preview). */
  replaced?: Uint8Array;
}

/** The render-safe copy of `bytes`; refused (EngineError) when it is not one archive or a picture passes `maxPixels`. */
export function renderSafeCopy(bytes: Uint8Array, limits: { maxPixels: number }): RenderSafeCopy {
  const archive = readZip(bytes, resolveLimits());
  refuseAmbiguousArchive(bytes);
  const parts = readParts(archive);
  const byKey = new Map(parts.map((part) => [partKey(part.partName), part]));
  const partOf = (partName: string): PartKind | undefined => byKey.get(partKey(partName))?.kind;
  let neutralised = 0;

  // Relationships, each judged by its target and the elements of its source that use it.
  const kept = new Map<string, Map<string, Relationship>>();
  const relsParts = new Set<Part>();
  for (const part of parts) {
    const source = sourcePartOfRels(part.partName);
    if (source === null) continue;
    relsParts.add(part);
    if (part.kind.kind === 'unreadable') throw part.kind.error;
    if (part.kind.kind !== 'xml')
      throw new EngineError('INVALID_TEMPLATE', 'not a relationships part', part.partName);
    const text = serializeXml(part.kind.doc);
    const uses = byKey.get(partKey(source))?.survey?.uses ?? new Map<string, Set<RelationshipUse>>();
    const rels = parseRelationships(text, part.partName);
    refusePostScriptPictures(rels, source, uses, partOf);
    const followed = rels.filter(
      (rel) => followable(rel, source, uses.get(rel.id), partOf) && !extraMainPart(rel, source, rels),
    );
    neutralised += rels.length - followed.length;
    for (const rel of followed) {
      const target = rel.external ? undefined : partOf(resolveTarget(source, rel.target));
      if (target?.kind === 'unreadable') throw target.error;
    }
    kept.set(partKey(source), new Map(followed.map((rel) => [rel.id, rel])));
  }

  const main = kept.get(partKey('/')) ?? new Map<string, Relationship>();
  const mainRel = [...main.values()].find((rel) => rel.type === REL.officeDocument && !rel.external);
  const presentation = mainRel ? resolveTarget('/', mainRel.target) : null;
  // The fonts the deck embeds reach a renderer as checked files beside the copy, never inside it: every font
  // part is left out of the copy, and every font relationship with it (embedded-font-files.ts).
  const presentationPart = presentation === null ? undefined : byKey.get(partKey(presentation));
  const embedded =
    presentation !== null && presentationPart?.kind.kind === 'xml'
      ? embeddedFontFiles(
          presentationPart.kind.doc.root,
          presentation,
          kept.get(partKey(presentation)) ?? new Map<string, Relationship>(),
          (partName) => {
            const part = byKey.get(partKey(partName));
            const binary = part?.kind.kind === 'font' || part?.kind.kind === 'other';
            return part && binary ? archive.inflate(part.item) : undefined;
          },
        )
      : { fonts: [], warnings: [], parts: new Set<string>() };
  for (const rels of kept.values()) for (const [id, rel] of rels) if (rel.type === REL.font) rels.delete(id);
  let visibleSlides = 0;
  const entries: ZipOutputEntry[] = [];
  for (const part of parts) {
    const { kind } = part;
    if (kind.kind === 'font' || embedded.parts.has(partKey(part.partName))) continue;
    // The content types are read whatever names them: a renderer cannot open a package without them.
    if (kind.kind === 'unreadable' && part.item.toLowerCase() === CONTENT_TYPES_ITEM.toLowerCase())
      throw kind.error;
    if (
      kind.kind === 'media' ||
      kind.kind === 'svg' ||
      kind.kind === 'postscript' ||
      kind.kind === 'unreadable'
    ) {
      neutralised++;
      continue;
    }
    if (relsParts.has(part)) {
      const rels = [...(kept.get(partKey(sourcePartOfRels(part.partName) as string))?.values() ?? [])];
      entries.push({ name: part.item, data: utf8(serializeRelationships(rels)), compress: true });
      continue;
    }
    if (kind.kind === 'xml') {
      const rels = kept.get(partKey(part.partName)) ?? new Map<string, Relationship>();
      if (part.survey) neutralised += disarmPart(part.survey, rels);
      if (presentation !== null && partKey(presentation) === partKey(part.partName)) {
        neutralised += keepOneSlideList(kind.doc.root);
        visibleSlides = visibleSlideCount(kind.doc.root, part.partName, rels, partOf);
      }
      const text = serializeXml({ prolog: XML_DECLARATION, root: kind.doc.root });
      entries.push({ name: part.item, data: utf8(text), compress: true });
      continue;
    }
    if (part.replaced) {
      entries.push({ name: part.item, data: part.replaced, compress: true });
      continue;
    }
    entries.push({ name: part.item, from: archive, source: part.item });
  }
  const copy = writeZip(entries);
  const { fonts, warnings } = embedded;
  return { bytes: copy, neutralised, visibleSlides, requestedFonts: requestedFonts(copy), fonts, warnings };

  function readParts(zip: ZipArchive): Part[] {
    const seen = new Set<string>();
    return [...zip.entries.keys()].map((item) => {
      const partName = decodePercent(`/${item}`);
      const key = partKey(partName);
      if (seen.has(key)) throw new EngineError('INVALID_TEMPLATE', 'two items name this part', partName);
      seen.add(key);
      const data = zip.inflate(item);
      const part: Part = { item, partName, kind: partKind(data, partName) };
      if (part.kind.kind === 'postscript') {
        const preview = postscriptPreview(data);
        if (preview) part.replaced = preview;
        if (preview) part.kind = partKind(preview, partName);
      }
      if (part.kind.kind === 'raster') checkPixels(part.kind, partName, limits.maxPixels);
      if (part.kind.kind === 'xml' && sourcePartOfRels(partName) === null)
        part.survey = surveyPart(part.kind.doc.root);
      return part;
    });
  }
}

/** A picture that is PostScript without a preview: LibreOffice would hand it to Ghostscript, so the deck is refused. */
function refusePostScriptPictures(
  rels: readonly Relationship[],
  source: string,
  uses: ReadonlyMap<string, ReadonlySet<RelationshipUse>>,
  partOf: (partName: string) => PartKind | undefined,
): void {
  for (const rel of rels) {
    if (rel.external || !uses.get(rel.id)?.has('picture')) continue;
    const target = resolveTarget(source, rel.target);
    if (partOf(target)?.kind !== 'postscript') continue;
    throw new EngineError(
      'INVALID_IMAGE',
      'the picture is PostScript (EPS) without a preview, which previews do not draw: replace it with a PNG, JPEG or EMF picture',
      target,
    );
  }
}

/**
 * A second officeDocument relationship of the package: Deckforge reads the first in document order,
 * LibreOffice the first by Id; the copy keeps only the one Deckforge read.
 */
function extraMainPart(rel: Relationship, source: string, rels: readonly Relationship[]): boolean {
  if (source !== '/' || (rel.type !== REL.officeDocument && rel.type !== REL.strictOfficeDocument))
    return false;
  return rels.find((r) => r.type === REL.officeDocument && !r.external) !== rel;
}

/** The pixel budget of pictures in generation, read from the header before anything decodes the picture. */
function checkPixels(kind: Extract<PartKind, { kind: 'raster' }>, partName: string, maxPixels: number): void {
  const { width, height } = kind.pixels;
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
