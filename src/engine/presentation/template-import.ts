/**
 * Slides from a second template (payload `template_list`, docs/powerpoint-rules.md
 * "Slides from several templates"). The output is built on the deck's first template; what a slide of another
 * template shares with its siblings comes over once, under fresh names: its slide master with all of that
 * master's layouts and its theme ("port fresh", never matched by name), images, media and other shared parts, and
 * the fonts its presentation embeds (for the deck's p:embeddedFontLst). Notes slides point at the output's one
 * notes master. Master and layout ids are handed out above every id the output already uses (rule: one id space).
 */
import type { PackageBuilder } from '../package/package-builder.js';
import { CT } from '../package/content-types.js';
import { confinedRelativeTarget, REL, resolveTarget } from '../package/relationships.js';
import {
  child,
  childElements,
  cloneDocument,
  cloneElement,
  element,
  serializeXml,
  type XmlDocument,
  type XmlElement,
} from '../xml/index.js';
import { PartCopier, type CopyContext } from './part-copier.js';
import type { PartNamer } from './part-namer.js';
import {
  numberedPattern,
  NOTES_MASTER_REL,
  SLIDE_LAYOUT_REL,
  SLIDE_MASTER_REL,
} from './relationship-policy.js';
import type { Template } from './template.js';
import type { PartEditor } from './template-brand.js';

/** A slide master brought into the output, for the presentation part's master list. */
export interface ImportedMaster {
  partName: string;
  id: number;
}

export interface ImportHost {
  /** The output's notes master (created on first need). */
  notesMaster(): string;
  /** A master or layout id not used anywhere in the output yet. */
  nextMasterOrLayoutId(): number;
  addMaster(master: ImportedMaster): void;
  /** How the payload's brand changes a part of this template (its theme, a master or layout it fills), if it does. */
  editorOf(part: string): PartEditor | null;
}

export class TemplateImport {
  readonly copier: PartCopier;
  /** Template part (lower case) → its output part. */
  private readonly imported = new Map<string, string>();

  constructor(
    readonly template: Template,
    private readonly builder: PackageBuilder,
    private readonly names: PartNamer,
    private readonly host: ImportHost,
  ) {
    this.copier = new PartCopier(template, builder, names, (type, target, context) =>
      this.shared(type, target, context),
    );
  }

  /** The output part standing for `target`, a part of this template that slides share. */
  shared(type: string, target: string, context: CopyContext): string {
    if (type === NOTES_MASTER_REL) return this.host.notesMaster();
    const key = target.toLowerCase();
    const done = this.imported.get(key);
    if (done) return done;
    if (type === SLIDE_LAYOUT_REL || type === SLIDE_MASTER_REL) {
      const master = type === SLIDE_MASTER_REL ? target : this.template.related(target, SLIDE_MASTER_REL);
      if (master) {
        this.importMaster(master, context);
        const name = this.imported.get(key);
        if (name) return name;
      }
    }
    // Registered before its relationships are followed: parts may point back (a layout at its master).
    const name = this.names.free(numberedPattern(target));
    this.imported.set(key, name);
    this.copy(target, name, context, type);
    return name;
  }

  /**
   * This template's embedded fonts (p:embeddedFont) whose typeface is not in `known`, ready for the output's
   * presentation part: each font part is copied and its r:id replaced by `relationshipTo(copied part)`.
   * `known` gains the typefaces returned.
   */
  embeddedFonts(known: Set<string>, relationshipTo: (partName: string) => string): XmlElement[] {
    const main = this.template.pkg.mainPartName;
    const list = child(this.template.presentation.root, 'p:embeddedFontLst');
    const rels = this.template.relationships(main);
    const context: CopyContext = { ownerSlide: main, slideInOutput: () => null };
    const fonts: XmlElement[] = [];
    for (const font of list ? childElements(list, 'p:embeddedFont') : []) {
      const typeface = child(font, 'p:font')?.attrs.typeface;
      if (!typeface || known.has(typeface)) continue;
      const copy = cloneElement(font);
      // p:regular, p:bold, p:italic, p:boldItalic: each names a font part; one we cannot find is left out.
      copy.children = copy.children.filter((face) => {
        if (face.kind !== 'element' || face.name === 'p:font') return true;
        const rel = rels.find((r) => r.id === face.attrs['r:id'] && r.type === REL.font && !r.external);
        const target = rel && resolveTarget(main, rel.target);
        if (!target || !this.template.pkg.has(target)) return false;
        face.attrs['r:id'] = relationshipTo(this.shared(REL.font, target, context));
        return true;
      });
      known.add(typeface);
      fonts.push(copy);
    }
    return fonts;
  }

  private importMaster(master: string, context: CopyContext): void {
    const masterName = this.names.free((n) => `/ppt/slideMasters/slideMaster${n}.xml`);
    this.imported.set(master.toLowerCase(), masterName);
    const layouts = this.template
      .relationships(master)
      .filter((rel) => rel.type === SLIDE_LAYOUT_REL && !rel.external)
      .map((rel) => resolveTarget(master, rel.target))
      .filter((layout) => this.template.pkg.has(layout))
      .map((layout) => ({ layout, name: this.names.free((n) => `/ppt/slideLayouts/slideLayout${n}.xml`) }));
    for (const { layout, name } of layouts) this.imported.set(layout.toLowerCase(), name);

    const document = cloneDocument(this.template.xml(master));
    const layoutIds = child(document.root, 'p:sldLayoutIdLst');
    for (const layoutId of layoutIds ? childElements(layoutIds, 'p:sldLayoutId') : [])
      layoutId.attrs.id = String(this.host.nextMasterOrLayoutId());
    const rels = this.copier.relationshipsFor(master, masterName, context, null);
    const edit = this.host.editorOf(master);
    const xml = edit ? edit(document, masterName, rels) : serializeXml(document);
    this.builder.setPart(masterName, xml, this.template.pkg.contentTypes.typeOf(master));
    this.builder.setRelationships(masterName, rels);
    for (const { layout, name } of layouts) this.copy(layout, name, context, SLIDE_LAYOUT_REL);
    this.host.addMaster({ partName: masterName, id: this.host.nextMasterOrLayoutId() });
  }

  /** A part copied as it is, or as the payload's brand changes it. */
  private copy(source: string, name: string, context: CopyContext, type: string | null): void {
    const edit = this.host.editorOf(source);
    if (edit) this.copier.copyEdited(source, name, context, type, edit);
    else this.copier.copyAs(source, name, context, type);
  }
}

/**
 * Table styles are named by GUID. PowerPoint knows its built-in ones anyway, but a custom style lives in its
 * template's tableStyles part: styles the other templates have and the deck's template lacks are added to it.
 */
export function mergeTableStyles(
  builder: PackageBuilder,
  deckTemplate: Template,
  others: Iterable<Template>,
): void {
  const tableStyles = (template: Template): string | null => {
    const part = template.related(template.pkg.mainPartName, REL.tableStyles);
    return part && template.pkg.has(part) ? part : null;
  };
  const target = tableStyles(deckTemplate);
  const document = target ? cloneDocument(deckTemplate.xml(target)) : newTableStyleList();
  const known = new Set(childElements(document.root, 'a:tblStyle').map((style) => style.attrs.styleId));
  let added = false;
  for (const other of others) {
    const part = tableStyles(other);
    for (const style of part ? childElements(other.xml(part).root, 'a:tblStyle') : []) {
      if (!style.attrs.styleId || known.has(style.attrs.styleId)) continue;
      known.add(style.attrs.styleId);
      document.root.children.push(cloneElement(style));
      added = true;
    }
  }
  if (!added) return;
  if (target) {
    builder.setPart(target, serializeXml(document));
    return;
  }
  // The deck's template has no table style list, so another template's own styles would be lost and its tables
  // drawn plain: the deck gets a list of its own, reached from the presentation part as PowerPoint writes it.
  const main = deckTemplate.pkg.mainPartName;
  const partName = builder.freeName((n) => (n === 1 ? '/ppt/tableStyles.xml' : `/ppt/tableStyles${n}.xml`));
  builder.setPart(partName, serializeXml(document), CT.tableStyles);
  const rels = builder.relationships(main);
  const taken = new Set(rels.map((rel) => rel.id));
  let n = rels.length + 1;
  while (taken.has(`rId${n}`)) n++;
  rels.push({
    id: `rId${n}`,
    type: REL.tableStyles,
    target: confinedRelativeTarget(main, partName),
    external: false,
  });
}

/**
 * An empty `a:tblStyleLst`. Its `def` (required, CT_TableStyleList) names the style new tables get; PowerPoint's
 * own default, "Medium Style 2 - Accent 1", is what a deck without the part already used.
 */
function newTableStyleList(): XmlDocument {
  return {
    prolog: '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n',
    root: element('a:tblStyleLst', {
      'xmlns:a': 'http://schemas.openxmlformats.org/drawingml/2006/main',
      def: '{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}',
    }),
  };
}
