/**
 * The parts an output slide owns besides its own XML (its charts, their embedded workbooks and style parts), as a
 * filler sees them. The first use of a template slide owns the template's parts; a further copy owns fresh copies
 * (docs/powerpoint-rules.md "What a cloned slide copies and what it shares"), made as raw bytes by the part
 * copier. Reading returns the template source's content (or what a filler wrote earlier in this request); writing
 * replaces the output part. Fillers receive this door in their narrow context and never reach into the deck
 * builder.
 */
import type { PackageLimits } from '../package/limits.js';
import type { PackageBuilder } from '../package/package-builder.js';
import { partKey } from '../package/part-names.js';
import { resolveTarget, type Relationship } from '../package/relationships.js';
import { cloneDocument, parseXml, type XmlDocument } from '../xml/index.js';
import type { Template } from './template.js';

export type RelationshipTarget =
  { external: false; partName: string; type: string } | { external: true; target: string; type: string };

export interface OwnedParts {
  /** Where the slide's relationship `relId` points, or null when the slide has no such relationship. */
  slideTarget(relId: string): RelationshipTarget | null;
  /** The output relationships of an owned part. */
  relationships(partName: string): readonly Relationship[];
  /** Whether the output has the part (a relationship may name a part the template lacks). */
  has(partName: string): boolean;
  /** The part's current bytes. Do not modify. */
  bytes(partName: string): Uint8Array;
  /** A fresh tree of the part, for editing (the template's parse is memoised and cloned). */
  xml(partName: string): XmlDocument;
  /** The id of an owned part's relationship to an external URI, added unless the part has one of that type. */
  addExternalRelationship(partName: string, type: string, target: string): string;
  /** Replaces the output part's content; its content type and relationships stay. */
  write(partName: string, data: string | Uint8Array): void;
  /** The template's package limits: a package inside a part (a workbook) is read within the same bounds. */
  readonly limits: PackageLimits;
  /** A value made once per request for `key` (what the fillers derive from one template part). */
  memo<T>(key: object, make: () => T): T;
}

export class SlideOwnedParts implements OwnedParts {
  constructor(
    private readonly slidePart: string,
    private readonly slideRelationships: readonly Relationship[],
    private readonly template: Template,
    private readonly builder: PackageBuilder,
    /** Parts written by fillers in this request, shared by every slide of the deck. */
    private readonly written: Map<string, string | Uint8Array>,
    /** The template part an output part was copied from; undefined when the output part is the template's own. */
    private readonly sourceOf: (partName: string) => string | undefined,
    /** Values derived from template parts in this request, shared by every slide of the deck. */
    private readonly memos: WeakMap<object, unknown>,
  ) {}

  memo<T>(key: object, make: () => T): T {
    if (!this.memos.has(key)) this.memos.set(key, make());
    return this.memos.get(key) as T;
  }

  get limits(): PackageLimits {
    return this.template.pkg.archive.limits;
  }

  slideTarget(relId: string): RelationshipTarget | null {
    const rel = this.slideRelationships.find((r) => r.id === relId);
    if (!rel) return null;
    return rel.external
      ? { external: true, target: rel.target, type: rel.type }
      : { external: false, partName: resolveTarget(this.slidePart, rel.target), type: rel.type };
  }

  relationships(partName: string): readonly Relationship[] {
    return this.builder.relationships(partName);
  }

  addExternalRelationship(partName: string, type: string, target: string): string {
    const rels = this.builder.relationships(partName);
    const same = rels.find((r) => r.type === type && r.external && r.target === target);
    if (same) return same.id;
    let n = rels.length + 1;
    while (rels.some((r) => r.id === `rId${n}`)) n++;
    const id = `rId${n}`;
    this.builder.setRelationships(partName, [...rels, { id, type, target, external: true }]);
    return id;
  }

  has(partName: string): boolean {
    return this.builder.has(partName) && this.template.pkg.has(this.source(partName));
  }

  bytes(partName: string): Uint8Array {
    const written = this.written.get(partKey(partName));
    if (written !== undefined) return typeof written === 'string' ? Buffer.from(written, 'utf8') : written;
    return this.template.pkg.bytes(this.source(partName));
  }

  xml(partName: string): XmlDocument {
    const written = this.written.get(partKey(partName));
    if (written !== undefined) return parseXml(written, partName);
    return cloneDocument(this.template.xml(this.source(partName)));
  }

  write(partName: string, data: string | Uint8Array): void {
    this.written.set(partKey(partName), data);
    this.builder.setPart(partName, data);
  }

  private source(partName: string): string {
    return this.sourceOf(partName) ?? partName;
  }
}
