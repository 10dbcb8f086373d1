/**
 * The output package, seeded from a template. Parts nobody replaces are copied as their compressed bytes
 * (never inflated); new parts are deflated when they are XML and stored when they are already compressed
 * (ooxml-notes §1.5). `build` prunes what nothing reaches, writes the rels parts and [Content_Types].xml,
 * and produces the zip.
 */
import { CT, type ContentTypes } from './content-types.js';
import type { OpcPackage } from './opc-package.js';
import { extensionOf, freePartName, itemName, partKey } from './part-names.js';
import { fallbackContentType, shouldDeflate } from './part-storage.js';
import { reachableParts } from './reachability.js';
import {
  type Relationship,
  parseRelationships,
  relsPartName,
  serializeRelationships,
  sourcePartOfRels,
} from './relationships.js';
import { CONTENT_TYPES_ITEM } from './zip-format.js';
import { writeZip, type ZipOutputEntry } from './zip-writer.js';

type PartSource =
  { kind: 'raw'; from: OpcPackage; item: string } | { kind: 'data'; data: Uint8Array | string };

interface OutputPart {
  name: string;
  source: PartSource;
  /** True while the part's relationships are still the template's rels part, untouched. */
  templateRels: boolean;
}

export interface BuildOptions {
  /** Drop every part that no internal relationship chain from /_rels/.rels reaches. Default true. */
  prune?: boolean;
  /** zlib level for new XML parts (default: DEFAULT_DEFLATE_LEVEL). */
  level?: number;
}

export class PackageBuilder {
  private readonly parts = new Map<string, OutputPart>();
  /** Working copies of relationships, by source part key ('/' for the package). */
  private readonly rels = new Map<string, Relationship[]>();
  private readonly freeNameHints = new Map<string, number>();
  readonly contentTypes: ContentTypes;
  private readonly relsCache = new Map<string, Uint8Array>();

  constructor(private readonly template: OpcPackage) {
    this.contentTypes = template.contentTypes.clone();
    for (const name of template.partNames()) {
      const source = sourcePartOfRels(name);
      // A rels part belongs to its source part; one whose source does not exist is an orphan and is dropped.
      if (source !== null) continue;
      this.parts.set(partKey(name), {
        name,
        source: { kind: 'raw', from: template, item: itemName(name) },
        templateRels: true,
      });
    }
  }

  /** Case-insensitive. Rels parts are not parts here: see relationships(). */
  has(partName: string): boolean {
    return this.parts.has(partKey(partName));
  }

  /** The names of the current parts, in output order. */
  partNames(): string[] {
    return [...this.parts.values()].map((part) => part.name);
  }

  /** Adds or replaces a part. A replaced part keeps its relationships. A rels part name sets relationships. */
  setPart(partName: string, data: Uint8Array | string, contentType?: string): void {
    const relsSource = sourcePartOfRels(partName);
    if (relsSource !== null) {
      this.setRelationships(relsSource, parseRelationships(data, partName));
      return;
    }
    const key = partKey(partName);
    const existing = this.parts.get(key);
    this.parts.set(key, {
      name: existing?.name ?? partName,
      source: { kind: 'data', data },
      templateRels: existing?.templateRels ?? false,
    });
    if (contentType !== undefined) {
      // Media get a Default per extension, as PowerPoint writes them (ooxml-notes §1.3); XML parts an Override.
      const extension = extensionOf(partName);
      if (extension !== 'xml' && extension !== '' && this.contentTypes.defaultFor(extension) === undefined) {
        this.contentTypes.ensureDefault(extension, contentType);
      }
      this.contentTypes.assign(partName, contentType);
    }
  }

  /** Copies `source` of `from` as its compressed bytes (no inflate). The copy starts with no relationships. */
  copyPart(from: OpcPackage, source: string, partName: string): void {
    const item = from.itemOf(source);
    if (item === undefined) throw new RangeError(`copyPart: no part ${source} in the source package`);
    const key = partKey(partName);
    const existing = this.parts.get(key);
    const identity = from === this.template && key === partKey(source);
    this.parts.set(key, {
      name: existing?.name ?? partName,
      source: { kind: 'raw', from, item },
      templateRels: identity && (existing?.templateRels ?? true),
    });
    if (!identity) this.rels.delete(key);
  }

  /** Removes the part, its relationships and its Override. Relationships pointing at it are the caller's. */
  removePart(partName: string): void {
    const key = partKey(partName);
    this.parts.delete(key);
    this.rels.delete(key);
    this.freeNameHints.clear();
    this.contentTypes.removeOverride(partName);
  }

  /** The part's relationships as a mutable working copy ('/' for the package); edits are kept. */
  relationships(partName: string): Relationship[] {
    const key = partName === '/' ? '/' : partKey(partName);
    let rels = this.rels.get(key);
    if (!rels) {
      const part = this.parts.get(key);
      const inherited = key === '/' || part?.templateRels === true;
      rels = inherited ? this.template.relationships(partName).map((rel) => ({ ...rel })) : [];
      this.rels.set(key, rels);
      if (part) part.templateRels = false;
    }
    return rels;
  }

  setRelationships(partName: string, rels: Relationship[]): void {
    const key = partName === '/' ? '/' : partKey(partName);
    const part = this.parts.get(key);
    if (part) part.templateRels = false;
    this.rels.set(key, rels);
  }

  /** The lowest free pattern(n), n >= start, among the current parts (case-insensitive). */
  freeName(pattern: (n: number) => string, start = 1): string {
    // Cloning N slides asks N times for the same pattern: remember where the scan ended, so the scans cost
    // O(N) in total instead of O(N²). Valid while parts are only added; removePart forgets the hints.
    const hintKey = `${start}\0${pattern(start)}\0${pattern(start + 1)}`;
    const from = Math.max(start, this.freeNameHints.get(hintKey) ?? start);
    let found = from;
    const name = freePartName(
      (lower) => this.parts.has(partKey(lower)),
      (n) => pattern((found = n)),
      from,
    );
    this.freeNameHints.set(hintKey, found);
    return name;
  }

  build(options: BuildOptions = {}): Uint8Array {
    const keep = options.prune === false ? new Set(this.parts.keys()) : this.reachable();
    const entries: ZipOutputEntry[] = [];
    const written: string[] = [];
    const rootRels = this.relsEntry('/', '/');
    if (rootRels) entries.push(rootRels);
    for (const [key, part] of this.parts) {
      if (!keep.has(key)) continue;
      entries.push(this.partEntry(part));
      written.push(part.name);
      const relsEntry = this.relsEntry(key, part.name, part);
      if (relsEntry) entries.push(relsEntry);
    }
    const types = this.contentTypes.clone();
    for (const name of written) {
      if (types.typeOf(name) === undefined)
        types.ensureDefault(extensionOf(name), fallbackContentType(extensionOf(name)));
    }
    if (entries.some((entry) => entry.name.endsWith('.rels'))) types.ensureDefault('rels', CT.relationships);
    const contentTypes = Buffer.from(types.serialize(written), 'utf8');
    entries.unshift({ name: CONTENT_TYPES_ITEM, data: contentTypes, compress: true });
    return writeZip(entries, options.level === undefined ? {} : { level: options.level });
  }

  private reachable(): Set<string> {
    return reachableParts(
      (name) => this.currentRelationships(name),
      (key) => this.parts.get(key)?.name,
    );
  }

  /** Relationships without forcing a working copy (an untouched template rels part stays a raw copy). */
  private currentRelationships(partName: string): readonly Relationship[] {
    const key = partName === '/' ? '/' : partKey(partName);
    const rels = this.rels.get(key);
    if (rels) return rels;
    if (key === '/' || this.parts.get(key)?.templateRels) return this.template.relationships(partName);
    return [];
  }

  private partEntry(part: OutputPart): ZipOutputEntry {
    const name = itemName(part.name);
    if (part.source.kind === 'raw') return { name, from: part.source.from.archive, source: part.source.item };
    const { data } = part.source;
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    return { name, data: bytes, compress: shouldDeflate(part.name) };
  }

  /**
   * Clones of one template slide have identical rels parts; sharing one buffer per distinct text lets the
   * zip writer deflate each distinct rels part once.
   */
  private relsBytes(xml: string): Uint8Array {
    let bytes = this.relsCache.get(xml);
    if (!bytes) {
      bytes = Buffer.from(xml, 'utf8');
      this.relsCache.set(xml, bytes);
    }
    return bytes;
  }

  private relsEntry(key: string, partName: string, part?: OutputPart): ZipOutputEntry | null {
    const relsName = relsPartName(partName);
    const working = this.rels.get(key);
    if (working) {
      if (working.length === 0) return null;
      return {
        name: itemName(relsName),
        data: this.relsBytes(serializeRelationships(working)),
        compress: true,
      };
    }
    const inherited = key === '/' || part?.templateRels === true;
    const item = inherited ? this.template.itemOf(relsName) : undefined;
    return item === undefined
      ? null
      : { name: itemName(relsName), from: this.template.archive, source: item };
  }
}
