/**
 * The output package, seeded from a template. Parts nobody replaces are copied as their compressed bytes
 * (never inflated); new parts are deflated when they are XML and stored when they are already compressed
 * (docs/powerpoint-rules.md "The ZIP container").
 *
 * The package streams into a sink (`open`): the package relationships go first, a part that is final (a
 * committed slide) goes out when it is sealed and only its relationships stay in memory, and `finish` prunes
 * what nothing reaches, writes the remaining parts and rels parts, [Content_Types].xml (last: it names every
 * part, so it is known only now; order is free in OPC) and the central directory.
 */
import { CT, type ContentTypes } from './content-types.js';
import type { DeflatedHead } from './deflate.js';
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
import { ChunkCollector, ZipStreamWriter, type ByteSink, type ZipOutputEntry } from './zip-writer.js';

type PartSource =
  | { kind: 'raw'; from: OpcPackage; item: string }
  | { kind: 'data'; data: Uint8Array | string }
  | { kind: 'continued'; head: DeflatedHead; tail: Uint8Array }
  /** Sealed: already in the output; its relationships are kept for the reachability walk. */
  | { kind: 'written' };

/** One object for every sealed part: a deck may have 40 000 of them. */
const WRITTEN: PartSource = Object.freeze({ kind: 'written' });
const NO_RELATIONSHIPS: readonly Relationship[] = Object.freeze([]);

interface OutputPart {
  name: string;
  source: PartSource;
  /** True while the part's relationships are still the template's rels part, untouched. */
  templateRels: boolean;
  /** A sealed part's internal relationships, for the reachability walk (shared objects; see seal). */
  sealedRels?: readonly Relationship[];
}

export interface BuildOptions {
  /** Drop every part that no internal relationship chain from /_rels/.rels reaches. Default true. */
  prune?: boolean;
  /** zlib level for new XML parts (default: DEFAULT_DEFLATE_LEVEL). */
  level?: number;
}

/**
 * Distinct rels texts kept for sharing one buffer (relsBytes); bounded, since a deck may have 20 000 distinct
 * ones. Large ones (the presentation's) are never shared, so not kept.
 */
const RELS_CACHE_ENTRIES = 256;
const RELS_CACHE_MAX_LENGTH = 4096;

export class PackageBuilder {
  private readonly parts = new Map<string, OutputPart>();
  /** Working copies of relationships, by source part key ('/' for the package). */
  private readonly rels = new Map<string, Relationship[]>();
  private readonly freeNameHints = new Map<string, number>();
  readonly contentTypes: ContentTypes;
  private readonly relsCache = new Map<string, Uint8Array>();
  /** One relationship object per folder and target, shared by the sealed parts pointing there (seal). */
  private readonly sealedTargets = new Map<string, Relationship>();
  private output: ZipStreamWriter | null = null;
  /** Whether the package relationships are written (open() writes them first). */
  private rootWritten = false;
  /** Whether any rels part is in the output: [Content_Types].xml then needs the rels Default. */
  private relsWritten = false;

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

  /** Whether the part is already in the output (sealed). */
  isWritten(partName: string): boolean {
    return this.parts.get(partKey(partName))?.source === WRITTEN;
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
    this.replacePart(partName, { kind: 'data', data }, contentType);
  }

  /**
   * Adds or replaces a part made of a head many parts share, deflated once (deflateHead), and a tail of its
   * own: copies of one slide that differ only near their end.
   */
  setPartAfterHead(partName: string, head: DeflatedHead, tail: Uint8Array, contentType?: string): void {
    this.replacePart(partName, { kind: 'continued', head, tail }, contentType);
  }

  private replacePart(partName: string, source: PartSource, contentType: string | undefined): void {
    const key = this.unsealed(partName);
    const existing = this.parts.get(key);
    this.parts.set(key, {
      name: existing?.name ?? partName,
      source,
      templateRels: existing?.templateRels ?? false,
    });
    if (contentType !== undefined) {
      // Media get a Default per extension, as PowerPoint writes them (docs/powerpoint-rules.md
      // "Every part has exactly one content type"); XML parts an Override.
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
    const key = this.unsealed(partName);
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
    const key = this.unsealed(partName);
    this.parts.delete(key);
    this.rels.delete(key);
    this.freeNameHints.clear();
    this.contentTypes.removeOverride(partName);
  }

  /** The part's relationships as a mutable working copy ('/' for the package); edits are kept. */
  relationships(partName: string): Relationship[] {
    const key = this.unsealed(partName);
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
    const key = this.unsealed(partName);
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

  /**
   * Starts the output: the package relationships go to `sink` now and are final from here on; sealed parts
   * follow as they are sealed, the rest at `finish`.
   */
  open(sink: ByteSink, options: { level?: number } = {}): void {
    if (this.output) throw new RangeError('the package output is already open');
    this.output = new ZipStreamWriter(sink, options.level === undefined ? {} : { level: options.level });
    const rootRels = this.relsEntry('/', '/');
    if (rootRels) this.output.add(rootRels);
    this.relsWritten = rootRels !== null;
    this.rootWritten = true;
  }

  /**
   * Writes a part that will not change again, with its relationships, to the output now, and keeps only its
   * name and internal relationships (for the reachability walk). Changing it afterwards is an error.
   */
  seal(partName: string): void {
    const output = this.output;
    if (!output) throw new RangeError('seal: the package output is not open');
    const key = this.unsealed(partName);
    const part = this.parts.get(key);
    if (!part) throw new RangeError(`seal: no part ${partName}`);
    output.add(this.partEntry(part));
    const relsEntry = this.relsEntry(key, part.name, part);
    if (relsEntry) output.add(relsEntry);
    this.relsWritten ||= relsEntry !== null;
    part.sealedRels = this.internalTargets(part.name);
    this.rels.delete(key);
    part.templateRels = false;
    part.source = WRITTEN;
  }

  /**
   * The package in memory: open (into memory) and finish in one go. Callable again after more changes, as
   * nothing was sealed.
   */
  build(options: BuildOptions = {}): Uint8Array {
    const collector = new ChunkCollector();
    this.open(collector, options);
    this.finish(options);
    this.output = null;
    this.rootWritten = false;
    return collector.bytes();
  }

  /**
   * Prunes what nothing reaches, then writes the remaining parts, their rels parts, [Content_Types].xml and
   * the central directory. Returns the size of the package.
   */
  finish(options: Pick<BuildOptions, 'prune'> = {}): number {
    const output = this.output;
    if (!output) throw new RangeError('finish: the package output is not open');
    const keep = options.prune === false ? new Set(this.parts.keys()) : this.reachable();
    const written: string[] = [];
    for (const [key, part] of this.parts) {
      if (!keep.has(key)) {
        // A sealed part is in the output already: pruning it now would leave an orphan.
        if (part.source === WRITTEN) throw new Error(`${part.name} was written, but nothing reaches it`);
        continue;
      }
      written.push(part.name);
      if (part.source === WRITTEN) continue;
      output.add(this.partEntry(part));
      const relsEntry = this.relsEntry(key, part.name, part);
      if (relsEntry) output.add(relsEntry);
      this.relsWritten ||= relsEntry !== null;
    }
    // Not a copy: a deck may have 40 000 Overrides. What is added here are Defaults, harmless if unused.
    const types = this.contentTypes;
    for (const name of written) {
      if (types.typeOf(name) === undefined)
        types.ensureDefault(extensionOf(name), fallbackContentType(extensionOf(name)));
    }
    if (this.relsWritten) types.ensureDefault('rels', CT.relationships);
    output.add({
      name: CONTENT_TYPES_ITEM,
      data: Buffer.from(types.serialize(written), 'utf8'),
      compress: true,
    });
    return output.finish();
  }

  /**
   * What the reachability walk needs of a sealed part's relationships: their internal targets, shared between
   * parts of one folder (20 000 slides pointing at three layouts hold three objects, not 20 000). A target is
   * resolved against its part's folder, so sharing within a folder keeps its meaning.
   */
  private internalTargets(partName: string): readonly Relationship[] {
    const folder = partName.slice(0, partName.lastIndexOf('/') + 1);
    const targets: Relationship[] = [];
    for (const rel of this.currentRelationships(partName)) {
      if (rel.external) continue;
      const key = `${folder}\0${rel.target}`;
      let shared = this.sealedTargets.get(key);
      if (!shared) {
        shared = Object.freeze({ id: '', type: '', target: rel.target, external: false });
        this.sealedTargets.set(key, shared);
      }
      targets.push(shared);
    }
    return targets.length === 0 ? NO_RELATIONSHIPS : targets.slice();
  }

  /** The part's key, refusing a part already written (sealed): its bytes cannot change any more. */
  private unsealed(partName: string): string {
    const key = partName === '/' ? '/' : partKey(partName);
    const written = key === '/' ? this.rootWritten : this.parts.get(key)?.source === WRITTEN;
    if (written) throw new RangeError(`${partName} is already written to the output`);
    return key;
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
    const part = this.parts.get(key);
    if (part?.sealedRels) return part.sealedRels;
    if (key === '/' || part?.templateRels) return this.template.relationships(partName);
    return NO_RELATIONSHIPS;
  }

  private partEntry(part: OutputPart): ZipOutputEntry {
    const name = itemName(part.name);
    const source = part.source;
    if (source.kind === 'raw') return { name, from: source.from.archive, source: source.item };
    if (source.kind === 'continued') return { name, head: source.head, tail: source.tail };
    if (source.kind === 'written') throw new RangeError(`${part.name} is already written`);
    const { data } = source;
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    return { name, data: bytes, compress: shouldDeflate(part.name) };
  }

  /**
   * Clones of one template slide have identical rels parts; sharing one buffer per distinct text lets the
   * zip writer deflate each distinct rels part once.
   */
  private relsBytes(xml: string): Uint8Array {
    if (xml.length > RELS_CACHE_MAX_LENGTH) return Buffer.from(xml, 'utf8');
    let bytes = this.relsCache.get(xml);
    if (!bytes) {
      bytes = Buffer.from(xml, 'utf8');
      if (this.relsCache.size >= RELS_CACHE_ENTRIES) this.relsCache.clear();
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
    if (item === undefined) return null;
    // Parsed by now (reachability reads every kept part's rels). A copy of the raw bytes would carry Targets
    // that leave the package (OpcPackage.relationships), so such a part is written from what was kept.
    const kept = this.template.relationships(partName);
    if (this.template.amendedRelationships(partName)) {
      return kept.length === 0
        ? null
        : { name: itemName(relsName), data: this.relsBytes(serializeRelationships(kept)), compress: true };
    }
    return { name: itemName(relsName), from: this.template.archive, source: item };
  }
}
