/**
 * Copies a part and every part that belongs exclusively to it into the output, under fresh names, as raw bytes
 * (never parsed). Rels of the copies keep their Ids (docs/powerpoint-rules.md
 * "Cloned slides keep their relationship ids": a fresh rels part may keep the source's Ids), so the XML inside
 * needs no rewriting; only Targets change.
 */
import type { PackageBuilder } from '../package/package-builder.js';
import { partKey } from '../package/part-names.js';
import { relativeTarget, resolveTarget, type Relationship } from '../package/relationships.js';
import { cloneDocument } from '../xml/index.js';
import type { PartNamer } from './part-namer.js';
import { clonePolicy, NOTES_SLIDE_REL, numberedPattern } from './relationship-policy.js';
import type { Template } from './template.js';
import type { PartEditor } from './template-brand.js';

export interface CopyContext {
  /** The output slide the copied parts belong to. */
  ownerSlide: string;
  /** Output part of the first clone of a template slide, or null when that slide is not in the output. */
  slideInOutput(templateSlidePart: string): string | null;
}

/**
 * Where a relationship to a part the template shares (layout, image, theme …) points in the output. For the
 * deck's own template that is the same part; a second template's shared parts are imported (template-import.ts).
 */
export type SharedTarget = (type: string, target: string, context: CopyContext) => string;

export class PartCopier {
  /** Output part → the template part it is a copy of (an owned part's filler reads the source). */
  private readonly sources = new Map<string, string>();

  constructor(
    private readonly template: Template,
    private readonly builder: PackageBuilder,
    private readonly names: PartNamer,
    private readonly sharedTarget: SharedTarget = (_type, target) => target,
  ) {}

  /** Copies `source` (and its exclusive parts) under a fresh name; returns that name. */
  copyTree(source: string, context: CopyContext, viaType: string | null = null): string {
    const name = this.names.free(numberedPattern(source));
    this.copyAs(source, name, context, viaType);
    return name;
  }

  /** Copies `source` (and its exclusive parts) as output part `name`. */
  copyAs(source: string, name: string, context: CopyContext, viaType: string | null): void {
    this.builder.copyPart(this.template.pkg, source, name);
    this.sources.set(partKey(name), source);
    const contentType = this.template.pkg.contentTypes.typeOf(source);
    if (contentType && this.builder.contentTypes.typeOf(name) !== contentType)
      this.builder.contentTypes.setOverride(name, contentType);
    const rels = this.relationshipsFor(source, name, context, viaType);
    if (rels.length > 0) this.builder.setRelationships(name, rels);
  }

  /**
   * Copies `source` as output part `name` the way `edit` changes it (a theme the payload recolours, a master it
   * fills): parsed, edited, written anew, with the relationships copyAs would give it.
   */
  copyEdited(
    source: string,
    name: string,
    context: CopyContext,
    viaType: string | null,
    edit: PartEditor,
  ): void {
    this.sources.set(partKey(name), source);
    const rels = this.relationshipsFor(source, name, context, viaType);
    const xml = edit(cloneDocument(this.template.xml(source)), name, rels);
    this.builder.setPart(name, xml, this.template.pkg.contentTypes.typeOf(source));
    this.builder.setRelationships(name, rels);
  }

  /** The template part `partName` was copied from, or undefined when it is not a copy made here. */
  sourceOf(partName: string): string | undefined {
    return this.sources.get(partKey(partName));
  }

  /**
   * The relationships a copy of `fromPart` living at `toPart` needs. A notes slide's link to its slide,
   * and any other part's link to a slide not in the output, point at the owner slide: a valid target of the
   * right type (docs/powerpoint-rules.md "Relationship ids and targets"), where a dropped relationship would
   * leave a dangling r:id in XML we do not parse.
   */
  relationshipsFor(
    fromPart: string,
    toPart: string,
    context: CopyContext,
    viaType: string | null,
  ): Relationship[] {
    const result: Relationship[] = [];
    for (const rel of this.template.relationships(fromPart)) {
      if (rel.external) {
        result.push({ ...rel });
        continue;
      }
      const target = resolveTarget(fromPart, rel.target);
      const policy = clonePolicy(rel.type);
      if (policy === 'drop') continue;
      let outputTarget = target;
      if (policy === 'slide-link') {
        outputTarget =
          viaType === NOTES_SLIDE_REL
            ? context.ownerSlide
            : (context.slideInOutput(target) ?? context.ownerSlide);
      } else if (this.template.pkg.has(target)) {
        outputTarget =
          policy === 'copy'
            ? this.copyTree(target, context, rel.type)
            : this.sharedTarget(rel.type, target, context);
      }
      result.push({ ...rel, target: relativeTarget(toPart, outputTarget) });
    }
    return result;
  }
}
