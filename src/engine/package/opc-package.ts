/**
 * A read-only template package. Opening reads the central directory, [Content_Types].xml and /_rels/.rels,
 * and nothing else: every other part is inflated only when asked for (and then memoised), so opening a large
 * template costs little and its media are never decompressed unless a caller reads them.
 */
import { EngineError } from '../errors.js';
import { CT, ContentTypes } from './content-types.js';
import { resolveLimits, type PackageLimits } from './limits.js';
import { partKey } from './part-names.js';
import {
  REL,
  confinedRelativeTarget,
  confinedTarget,
  parseRelationships,
  relsPartName,
  resolveTarget,
  targetEscape,
  type Relationship,
} from './relationships.js';
import { CONTENT_TYPES_ITEM } from './zip-format.js';
import { readZip, type ZipArchive } from './zip-reader.js';

const PRESENTATION_MAIN_TYPES = new Set<string>([
  CT.presentationMain,
  CT.presentationTemplate,
  CT.slideshowMain,
  CT.presentationMacroEnabled,
  CT.slideshowMacroEnabled,
  CT.templateMacroEnabled,
]);

/**
 * Relationships a part cannot do without (a slide its layout, a layout its master, a master its theme, notes
 * their notes master). One whose target is missing or outside the package makes the template unusable: the
 * deck would be broken whatever we did with it, so it is refused naming the part, rather than warned about.
 */
const STRUCTURAL = new Set<string>([
  REL.slideLayout,
  REL.slideMaster,
  REL.theme,
  REL.notesMaster,
  REL.handoutMaster,
]);

function unusableStructural(
  rel: Relationship,
  relsName: string,
  outside: boolean,
  resolved: string,
): EngineError {
  const type = rel.type.slice(rel.type.lastIndexOf('/') + 1);
  const where = outside ? 'outside the package' : `at ${resolved}, which the package does not have`;
  return new EngineError(
    'INVALID_TEMPLATE',
    `relationship ${rel.id} (${type}) points ${where} (Target "${rel.target}"); the part cannot do without it`,
    relsName,
  );
}

export interface OutsideRelationships {
  relsName: string;
  relationships: readonly Relationship[];
}

export class OpcPackage {
  /** Part key -> ZIP item name, in archive order. */
  private readonly items: Map<string, string>;
  private readonly inflated = new Map<string, Uint8Array>();
  private inflatedTotal = 0;
  private readonly rels = new Map<string, readonly Relationship[]>();
  /** Internal relationships whose Target left the package and names no part once confined, by rels part key. */
  private readonly outside = new Map<string, OutsideRelationships>();
  /** Rels parts (keys) whose relationships differ from the part as written: dropped or rewritten targets. */
  private readonly amended = new Set<string>();
  readonly contentTypes: ContentTypes;
  readonly mainPartName: string;

  private constructor(
    readonly archive: ZipArchive,
    items: Map<string, string>,
    contentTypesItem: string,
  ) {
    this.items = items;
    this.contentTypes = ContentTypes.parse(archive.inflate(contentTypesItem));
    this.mainPartName = this.findMainPart();
  }

  static open(bytes: Uint8Array, limits?: Partial<PackageLimits>): OpcPackage {
    const archive = readZip(bytes, resolveLimits(limits));
    const items = new Map<string, string>();
    let contentTypesItem: string | undefined;
    for (const name of archive.entries.keys()) {
      if (name.toLowerCase() === CONTENT_TYPES_ITEM.toLowerCase()) contentTypesItem = name;
      else items.set(partKey(`/${name}`), name);
    }
    if (contentTypesItem === undefined) {
      throw new EngineError(
        'INVALID_TEMPLATE',
        'not a PowerPoint file: the zip has no [Content_Types].xml (not an Office Open XML package)',
      );
    }
    return new OpcPackage(archive, items, contentTypesItem);
  }

  private findMainPart(): string {
    const packageRels = this.relationships('/');
    if (packageRels.some((rel) => rel.type === REL.strictOfficeDocument)) {
      throw new EngineError(
        'UNSUPPORTED_TEMPLATE',
        "ISO/IEC 29500 Strict Open XML is not supported: save the template as 'PowerPoint Presentation (.pptx)'",
      );
    }
    const main = packageRels.find((rel) => rel.type === REL.officeDocument && !rel.external);
    if (!main) {
      throw new EngineError(
        'INVALID_TEMPLATE',
        'not a PowerPoint file: the package has no officeDocument relationship',
        '/_rels/.rels',
      );
    }
    const partName = resolveTarget('/', main.target);
    if (!this.has(partName))
      throw new EngineError('INVALID_TEMPLATE', 'the main presentation part is missing', partName);
    const contentType = this.contentTypes.typeOf(partName);
    if (!contentType || !PRESENTATION_MAIN_TYPES.has(contentType)) {
      // About the whole file, not a part of it: without a part path, generate.ts names the field and the file
      // it came from (a .docx sent as the template says which upload it was).
      throw new EngineError(
        'INVALID_TEMPLATE',
        `not a PowerPoint presentation: ${describeMainPart(contentType)}`,
      );
    }
    return this.partNameOf(partName);
  }

  /** Absolute part names in archive order, without [Content_Types].xml (which is not a part). */
  partNames(): string[] {
    return [...this.items.values()].map((name) => `/${name}`);
  }

  /** Case-insensitive and percent-encoding-insensitive (OPC part name equivalence). */
  has(partName: string): boolean {
    return this.items.has(partKey(partName));
  }

  /** The ZIP item name holding `partName`, or undefined. */
  itemOf(partName: string): string | undefined {
    return this.items.get(partKey(partName));
  }

  /** The part's name as spelt in this package ('/ppt/media/image1.PNG' for '/ppt/media/image1.png'). */
  partNameOf(partName: string): string {
    const item = this.itemOf(partName);
    return item === undefined ? partName : `/${item}`;
  }

  /** The part's bytes, inflated once and memoised; limits enforced. Do not modify the result. */
  bytes(partName: string): Uint8Array {
    const key = partKey(partName);
    const cached = this.inflated.get(key);
    if (cached) return cached;
    const item = this.items.get(key);
    if (item === undefined)
      throw new EngineError('INVALID_TEMPLATE', 'a referenced part is missing from the package', partName);
    const data = this.archive.inflate(item);
    this.inflated.set(key, data);
    this.inflatedTotal += data.byteLength;
    return data;
  }

  /** Bytes of the parts inflated so far (memoised by bytes()): memory this package holds beyond the file. */
  get inflatedBytes(): number {
    return this.inflatedTotal;
  }

  /** The part as text: UTF-8, or UTF-16 when a BOM says so (ECMA-376 Part 2 §8.1.4); the BOM is dropped. */
  text(partName: string): string {
    return decodeText(this.bytes(partName));
  }

  /**
   * The part's relationships ('/' for the package's), parsed once; [] when it has no rels part. An internal
   * Target that leaves the package (`../../../etc/passwd`, `file:///etc/passwd`) is never kept as written
   * (docs/security.md): it is confined to the package (`/etc/passwd` inside it). When that names a part (a producer's
   * slip such as `../customXml/item1.xml` from the root) the relationship works as meant; otherwise it names
   * nothing, as it did before, and is listed by outsideRelationships for a warning. It is not dropped: the
   * part's XML may still name it by r:id, and a dangling r:id would make the output worse than the template.
   */
  relationships(partName: string): readonly Relationship[] {
    const key = partName === '/' ? '/' : partKey(partName);
    let rels = this.rels.get(key);
    if (!rels) {
      const relsName = relsPartName(partName);
      const all = this.has(relsName) ? parseRelationships(this.bytes(relsName), relsName) : [];
      const kept: Relationship[] = [];
      const outside: Relationship[] = [];
      for (const rel of all) {
        const escape = rel.external ? null : targetEscape(partName, rel.target);
        if (escape === null && !(STRUCTURAL.has(rel.type) && !rel.external)) {
          kept.push(rel);
          continue;
        }
        const resolved =
          escape === null ? resolveTarget(partName, rel.target) : confinedTarget(partName, rel.target);
        if (STRUCTURAL.has(rel.type) && !this.has(resolved)) {
          throw unusableStructural(rel, relsName, escape !== null, resolved);
        }
        if (escape === null) {
          kept.push(rel);
          continue;
        }
        kept.push({ ...rel, target: confinedRelativeTarget(partName, resolved) });
        if (!this.has(resolved)) outside.push(rel);
      }
      const asWritten = kept.length === all.length && kept.every((rel, i) => rel === all[i]);
      rels = Object.freeze(asWritten ? all : kept);
      this.rels.set(key, rels);
      if (rels !== all) this.amended.add(partKey(relsName));
      if (outside.length > 0) this.outside.set(partKey(relsName), { relsName, relationships: outside });
    }
    return rels;
  }

  /** The relationships found so far (rels parts are parsed on first use) that pointed outside the package. */
  outsideRelationships(): OutsideRelationships[] {
    return [...this.outside.values()];
  }

  /** Whether `partName`'s relationships (parsed by now) differ from its rels part as written. */
  amendedRelationships(partName: string): boolean {
    return this.amended.has(partKey(relsPartName(partName)));
  }
}

export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  return new TextDecoder('utf-8').decode(bytes); // strips a UTF-8 BOM (ignoreBOM defaults to false)
}

function describeMainPart(contentType: string | undefined): string {
  if (!contentType) return 'the main part has no content type';
  if (contentType.includes('wordprocessingml') || contentType.includes('ms-word'))
    return 'this is a Word document (.docx)';
  if (contentType.includes('spreadsheetml') || contentType.includes('ms-excel'))
    return 'this is an Excel workbook (.xlsx)';
  return `the main part's content type is ${contentType}`;
}
