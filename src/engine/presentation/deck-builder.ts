/**
 * Builds the output deck on one template: output slides in payload order, each a clone of a template
 * slide (or a fresh slide on a layout), with everything it references. Template slides nobody asked for
 * are dropped, and so is every part only they used: the package builder prunes whatever is no longer
 * reachable from the package root.
 *
 * The first output slide made from a template slide keeps that slide's part name, id and owned parts (charts,
 * notes, SmartArt): nothing to copy. Every further clone gets fresh copies (docs/powerpoint-rules.md
 * "What a cloned slide copies and what it shares"). Slides of other templates (`template_list`) are always fresh
 * copies, and what they share with their siblings (master, layouts, theme, images) is imported once
 * (template-import.ts).
 *
 * The deck streams into the caller's sink: each committed slide (and its notes) is written at once and only
 * its relationships stay; the parts slides share are written at `finish`, after pruning (docs/large-decks.md).
 */
import { EngineError, type Warning } from '../errors.js';
import { PackageBuilder } from '../package/package-builder.js';
import type { ByteSink } from '../package/zip-writer.js';
import { relativeTarget, resolveTarget, type Relationship } from '../package/relationships.js';
import {
  child,
  childElements,
  cloneElement,
  descendants,
  removeNode,
  serializeXml,
  type XmlDocument,
  type XmlElement,
} from '../xml/index.js';
import { MediaStore } from './media-store.js';
import type { OutputSlide } from './output-slide.js';
import { dropTemplateSignature, finishPresentation } from './presentation-part.js';
import { PartCopier, type CopyContext } from './part-copier.js';
import { PartNamer } from './part-namer.js';
import { newLayoutSlide } from './layout-slide.js';
import { SlideOwnedParts, type OwnedParts } from './owned-parts.js';
import { effectiveBodyPr, firstXfrm, ownXfrm, placeholderKey, type Box } from './placeholders.js';
import {
  clonePolicy,
  NOTES_MASTER_REL,
  NOTES_SLIDE_REL,
  relationshipsStillNamed,
  SLIDE_LAYOUT_REL,
  SLIDE_MASTER_REL,
  SLIDE_REL,
} from './relationship-policy.js';
import { SlideCopies, freshCreationId } from './slide-copies.js';
import { SlideIdAllocator } from './slide-ids.js';
import { isHiddenSlide } from './slide-visibility.js';
import type { Template } from './template.js';
import { mergeTableStyles, TemplateImport, type ImportedMaster } from './template-import.js';
import type { ExportVersion } from '../payload/model.js';
import { SlideDraft, type DraftDeck, type SlideSource } from './slide-draft.js';
import { BrandedParts } from './branded-parts.js';
import { NO_BRAND, type DeckBrand } from './template-brand.js';

const CT_SLIDE = 'application/vnd.openxmlformats-officedocument.presentationml.slide+xml';
const CT_NOTES_SLIDE = 'application/vnd.openxmlformats-officedocument.presentationml.notesSlide+xml';

export class DeckBuilder implements DraftDeck {
  readonly builder: PackageBuilder;
  private readonly copier: PartCopier;
  private readonly names: PartNamer;
  private readonly ids = new SlideIdAllocator();
  /**
   * Per template, template slide part → the output part of its first clone: where links to that slide
   * point. Known before any slide is drafted, so that a link may point forward.
   */
  private readonly firstClones = new Map<Template, Map<string, string>>();
  /** Positions whose slide is the first use of a deck template slide: it keeps the template's part. */
  private readonly firstUse = new Set<number>();
  /**
   * Output part names handed out ahead, by position: the first clones of other templates' slides, and slides a
   * link points at before they are drafted; a drafted slide's name is kept here too, for links back to it.
   */
  private readonly plannedPart = new Map<number, string>();
  private readonly output: OutputSlide[] = [];
  /** Other templates' parts in the output, by template. */
  private readonly imports = new Map<Template, TemplateImport>();
  private readonly importedMasters: ImportedMaster[] = [];
  private nextMasterOrLayoutId: number | null = null;
  private mediaStore: MediaStore | null = null;
  /** Owned parts the fillers rewrote in this request (a chart filled twice reads its first filling). */
  private readonly writtenParts = new Map<string, string | Uint8Array>();
  private readonly fillerMemos = new WeakMap<object, unknown>();
  private readonly copies = new SlideCopies();
  private readonly branded: BrandedParts;
  readonly warnings: Warning[] = [];

  constructor(
    readonly template: Template,
    private readonly sources: readonly SlideSource[],
    private readonly exportVersion: ExportVersion | null,
    /** Where the package goes as it is built. */
    sink: ByteSink,
    /** The payload's theme changes, filled masters and layouts, embedded fonts (docs/payload.md "Brand"). */
    brand: DeckBrand = NO_BRAND,
  ) {
    this.builder = new PackageBuilder(template.pkg);
    dropTemplateSignature(this.builder);
    this.builder.open(sink);
    this.names = new PartNamer(this.builder);
    this.copier = new PartCopier(template, this.builder, this.names);
    sources.forEach((source, position) => {
      if (source.kind !== 'slide') return;
      let clones = this.firstClones.get(source.template);
      if (!clones) this.firstClones.set(source.template, (clones = new Map()));
      if (clones.has(source.slide.partName)) return;
      if (source.template === template) {
        clones.set(source.slide.partName, source.slide.partName);
        this.firstUse.add(position);
      } else {
        // Another template's slides are always copies; the first copy's name is fixed now.
        const partName = this.freeSlidePart();
        clones.set(source.slide.partName, partName);
        this.plannedPart.set(position, partName);
      }
    });
    this.ids.reserve(
      sources.flatMap((s, i) => (this.firstUse.has(i) && s.kind === 'slide' ? [s.slide.id] : [])),
    );
    // The deck template's themes, masters and layouts the brand changes; other templates' as they are imported.
    this.branded = new BrandedParts(brand, this);
    this.branded.applyInPlace(template, this.builder);
  }

  /**
   * Opens output slide `position` for filling. Call in order, and commit each draft before the next.
   * `copy`: a further copy of that slide, committed right after it (a table continued on a new slide).
   */
  draft(position: number, copy = false): SlideDraft {
    const source = this.sources[position];
    if (!source) throw new RangeError(`no output slide ${position}`);
    if (source.kind === 'layout') {
      const partName = this.plannedPart.get(position) ?? this.freeSlidePart();
      this.plannedPart.set(position, partName);
      const layoutRoot = source.template.xml(source.layout.partName).root;
      const layout =
        this.importOf(source.template)?.shared(
          SLIDE_LAYOUT_REL,
          source.layout.partName,
          this.copyContext(source.template, partName),
        ) ?? source.layout.partName;
      const rels: Relationship[] = [
        { id: 'rId1', type: SLIDE_LAYOUT_REL, target: relativeTarget(partName, layout), external: false },
      ];
      return new SlideDraft(
        position,
        partName,
        () => newLayoutSlide(layoutRoot),
        rels,
        source,
        this,
        null,
        false,
      );
    }
    const { slide, template } = source;
    // A slide must follow a layout (PowerPoint will not open it otherwise), and which one cannot be guessed.
    if (slide.layoutPartName === null)
      throw new EngineError(
        'INVALID_TEMPLATE',
        `template slide ${slide.index} has no slide layout relationship`,
        slide.partName,
      );
    const imported = this.importOf(template);
    const first = !copy && this.firstUse.has(position);
    const planned = copy ? undefined : this.plannedPart.get(position);
    const partName = first ? slide.partName : (planned ?? this.freeSlidePart());
    if (!copy) this.plannedPart.set(position, partName);
    const context = this.copyContext(template, partName);
    const rels: Relationship[] = [];
    const removedSlideLinks: string[] = [];
    for (const rel of template.relationships(slide.partName)) {
      const policy = clonePolicy(rel.type);
      if (policy === 'drop') continue;
      // The deck's own template shares its parts as they are; another template's are imported once.
      if (rel.external || (policy === 'share' && !imported)) {
        rels.push({ ...rel });
        continue;
      }
      const target = resolveTarget(slide.partName, rel.target);
      if (policy === 'share' && imported) {
        const shared = template.pkg.has(target) ? imported.shared(rel.type, target, context) : null;
        rels.push(shared ? { ...rel, target: relativeTarget(partName, shared) } : { ...rel });
        continue;
      }
      if (policy === 'slide-link') {
        const inOutput = context.slideInOutput(target);
        if (inOutput) rels.push({ ...rel, target: relativeTarget(partName, inOutput) });
        else removedSlideLinks.push(rel.id);
        continue;
      }
      // Owned parts: the first clone keeps the template's; the notes slide is written at commit.
      if (first || rel.type === NOTES_SLIDE_REL || !template.pkg.has(target)) rels.push({ ...rel });
      else
        rels.push({
          ...rel,
          target: relativeTarget(partName, this.copierOf(template).copyTree(target, context, rel.type)),
        });
    }
    const load = (): XmlDocument => {
      const templateDoc = template.xml(slide.partName);
      const document = { prolog: templateDoc.prolog, root: cloneElement(templateDoc.root) };
      if (removedSlideLinks.length > 0) this.removeSlideLinks(document.root, removedSlideLinks, position);
      if (!first) refreshCreationId(document.root);
      return document;
    };
    const draft = new SlideDraft(position, partName, load, rels, source, this, slide.notesPartName, first);
    // A link to a dropped slide must go: that changes the tree. (A copy's creation id does not need the tree.)
    if (removedSlideLinks.length > 0) void draft.document;
    return draft;
  }

  /**
   * Writes the draft's slide (and notes) into the output and releases its tree. Returns how to read the slide's
   * tree as written, for checks of the output (not to be changed): an unchanged template slide is parsed in
   * full only when asked.
   */
  commit(draft: SlideDraft): () => XmlElement {
    const { source, first } = draft;
    const notesRel = draft.relationships.find((r) => r.type === NOTES_SLIDE_REL);
    const context = this.copyContext(source.template, draft.partName);
    const copier = this.copierOf(source.template);
    const ownNotes = notesRel && first ? resolveTarget(draft.partName, notesRel.target) : null;
    let notesPart: string | null = null;
    if (draft.notes) {
      // A notes part two template slides share (malformed) is written once; the second slide gets its own.
      notesPart =
        ownNotes && !this.builder.isWritten(ownNotes)
          ? ownNotes
          : this.names.free((n) => `/ppt/notesSlides/notesSlide${n}.xml`);
      const notesRels = draft.notesSource
        ? copier.relationshipsFor(draft.notesSource, notesPart, context, NOTES_SLIDE_REL)
        : [
            {
              id: 'rId1',
              type: NOTES_MASTER_REL,
              target: relativeTarget(notesPart, this.notesMaster()),
              external: false,
            },
            {
              id: 'rId2',
              type: SLIDE_REL,
              target: relativeTarget(notesPart, draft.partName),
              external: false,
            },
          ];
      this.builder.setPart(notesPart, serializeXml(draft.notes), CT_NOTES_SLIDE);
      this.builder.setRelationships(notesPart, notesRels);
      if (notesRel) notesRel.target = relativeTarget(draft.partName, notesPart);
      else
        draft.relationships.push({
          id: freeRelId(draft.relationships),
          type: NOTES_SLIDE_REL,
          target: relativeTarget(draft.partName, notesPart),
          external: false,
        });
    } else if (notesRel && draft.notesSource) {
      notesPart = ownNotes ?? copier.copyTree(draft.notesSource, context, NOTES_SLIDE_REL);
      if (!ownNotes) notesRel.target = relativeTarget(draft.partName, notesPart);
    }
    // An unchanged copy of a template slide is written without its tree (slide-copies.ts), unless its text
    // cannot be (null): then the tree is made, with a fresh creation id, and serialised like a changed slide.
    const copy =
      !draft.touched && !first && source.kind === 'slide'
        ? this.copies.of(source.template, source.slide.partName)
        : undefined;
    if (copy === null) void draft.document;
    let root: XmlElement;
    // A slide made from a layout is always written; a template slide only once something changed it.
    if (draft.touched || source.kind !== 'slide') {
      root = draft.root;
      const xml = serializeXml(draft.document);
      this.builder.setPart(draft.partName, xml, CT_SLIDE);
      // A removed shape leaves its picture, chart or link relationship unnamed: drop it, and its part goes too.
      this.builder.setRelationships(draft.partName, relationshipsStillNamed(draft.relationships, root));
    } else {
      // A template slide nobody changed: its first use keeps the template's part, as its compressed bytes; a
      // copy is those bytes too, or their text with a fresh creation id. It is checked all the same, as parsing
      // it would (well-formed, no DTD, within the inflate limits).
      root = source.template.root(source.slide.partName);
      if (copy?.kind === 'patched')
        this.builder.setPartAfterHead(draft.partName, copy.head, copy.tail(), CT_SLIDE);
      else if (copy?.kind === 'identical') {
        this.builder.copyPart(source.template.pkg, source.slide.partName, draft.partName);
        this.builder.contentTypes.assign(draft.partName, CT_SLIDE);
      }
      this.builder.setRelationships(draft.partName, draft.relationships);
    }
    const templateId = source.kind === 'slide' && first ? source.slide.id : null;
    this.output.push({
      partName: draft.partName,
      id: templateId ?? this.ids.allocate(),
      // Sections and custom shows follow the deck's own template slides; another template's have no place there.
      source: source.kind === 'slide' && source.template === this.template ? source.slide : null,
      hidden: isHiddenSlide(root),
      hasNotes: notesPart !== null,
    });
    // Final now: to the output, so that memory holds one slide at a time, not the deck.
    this.builder.seal(draft.partName);
    if (notesPart && !this.builder.isWritten(notesPart)) this.builder.seal(notesPart);
    if (draft.touched || source.kind !== 'slide') return () => root;
    return () => source.template.xml(source.slide.partName).root;
  }

  /** Presentation part, sections, custom shows, app properties; then the rest of the package. Returns its size. */
  finish(): number {
    if (this.imports.size > 0) mergeTableStyles(this.builder, this.template, this.imports.keys());
    finishPresentation({
      template: this.template,
      builder: this.builder,
      slides: this.output,
      exportVersion: this.exportVersion,
      notesMaster: this.createdNotesMaster,
      importedMasters: this.importedMasters,
      imports: [...this.imports.values()],
      fonts: this.branded.brand.fonts,
      themeEditor: (theme) => this.branded.editorOf(this.template, theme),
      warnings: this.warnings,
    });
    const size = this.builder.finish();
    this.warnOutsideRelationships();
    return size;
  }

  /** The part of output slide `position` (a slide entry; continuation copies are not counted). */
  slidePartAt(position: number): string {
    const source = this.sources[position];
    if (!source) throw new RangeError(`no output slide ${position}`);
    if (this.firstUse.has(position) && source.kind === 'slide') return source.slide.partName;
    let partName = this.plannedPart.get(position);
    if (partName === undefined) this.plannedPart.set(position, (partName = this.freeSlidePart()));
    return partName;
  }

  /** The deck's image parts, made on the first picture a payload puts in. */
  get media(): MediaStore {
    this.mediaStore ??= new MediaStore(this.template, this.builder, this.names);
    return this.mediaStore;
  }

  ownedParts(draft: SlideDraft): OwnedParts {
    const { template } = draft.source;
    const copier = this.copierOf(template);
    return new SlideOwnedParts(
      draft.partName,
      draft.relationships,
      template,
      this.builder,
      this.writtenParts,
      (partName) => copier.sourceOf(partName),
      this.fillerMemos,
    );
  }

  /**
   * Relationships of the templates whose Target left the package (`../../etc/passwd`) were confined to it as the
   * parts were read (OpcPackage.relationships); the user hears of each once.
   */
  private warnOutsideRelationships(): void {
    for (const template of [this.template, ...this.imports.keys()]) {
      for (const { relsName, relationships } of template.pkg.outsideRelationships()) {
        for (const rel of relationships) {
          this.warnings.push({
            path: relsName,
            message: `relationship ${rel.id} points outside the package (Target "${rel.target}"): it was rewritten to stay inside, where it names no part`,
          });
        }
      }
    }
  }

  inheritedXfrm(draft: SlideDraft, shape: XmlElement): Box | null {
    return ownXfrm(shape) ?? firstXfrm(this.inheritedChain(draft, shape));
  }

  inheritedBodyPr(draft: SlideDraft, shape: XmlElement): XmlElement | null {
    return effectiveBodyPr(this.inheritedChain(draft, shape));
  }

  private inheritedChain(draft: SlideDraft, shape: XmlElement): readonly XmlElement[] {
    const key = placeholderKey(shape);
    return key ? draft.source.template.inheritedPlaceholders(draft.layoutPartName, key) : [];
  }

  private freeSlidePart(): string {
    return this.names.free((n) => `/ppt/slides/slide${n}.xml`);
  }

  /** Null for the deck's own template; the import of another template's parts otherwise. */
  private importOf(template: Template): TemplateImport | null {
    if (template === this.template) return null;
    let found = this.imports.get(template);
    if (!found) {
      found = new TemplateImport(template, this.builder, this.names, {
        notesMaster: () => this.notesMaster(),
        nextMasterOrLayoutId: () => this.allocateMasterOrLayoutId(),
        addMaster: (master) => this.importedMasters.push(master),
        editorOf: (part) => this.branded.editorOf(template, part),
      });
      this.imports.set(template, found);
    }
    return found;
  }

  private copierOf(template: Template): PartCopier {
    return this.importOf(template)?.copier ?? this.copier;
  }

  private copyContext(template: Template, ownerSlide: string): CopyContext {
    const firstClone = this.firstClones.get(template);
    return { ownerSlide, slideInOutput: (p) => firstClone?.get(p) ?? null };
  }

  /**
   * Slide master and layout ids share one space (2^31 and up) over the whole presentation: new ones start
   * above every id of the deck's template.
   */
  private allocateMasterOrLayoutId(): number {
    if (this.nextMasterOrLayoutId === null) {
      let highest = 2147483647;
      const masters = child(this.template.presentation.root, 'p:sldMasterIdLst');
      for (const master of masters ? childElements(masters, 'p:sldMasterId') : [])
        highest = Math.max(highest, Number(master.attrs.id) || 0);
      for (const rel of this.template.relationships(this.template.pkg.mainPartName)) {
        if (rel.type !== SLIDE_MASTER_REL || rel.external) continue;
        const master = resolveTarget(this.template.pkg.mainPartName, rel.target);
        if (!this.template.pkg.has(master)) continue;
        const layouts = child(this.template.xml(master).root, 'p:sldLayoutIdLst');
        for (const layout of layouts ? childElements(layouts, 'p:sldLayoutId') : [])
          highest = Math.max(highest, Number(layout.attrs.id) || 0);
      }
      this.nextMasterOrLayoutId = highest + 1;
    }
    return this.nextMasterOrLayoutId++;
  }

  private createdNotesMaster: string | null = null;

  /**
   * The template's notes master, or one created on first need (docs/powerpoint-rules.md
   * "Notes slides and the notes master").
   */
  private notesMaster(): string {
    const existing = this.template.related(this.template.pkg.mainPartName, NOTES_MASTER_REL);
    if (existing) return existing;
    this.createdNotesMaster ??= this.names.free((n) => `/ppt/notesMasters/notesMaster${n}.xml`);
    return this.createdNotesMaster;
  }

  /**
   * Links to slides that are not in the output are removed, with a warning (docs/powerpoint-rules.md
   * "Sections, custom shows and links to dropped slides").
   */
  private removeSlideLinks(root: XmlElement, relIds: readonly string[], position: number): void {
    const targets = new Set(relIds);
    const doomed: { parent: XmlElement; node: XmlElement }[] = [];
    const visit = (parent: XmlElement): void => {
      for (const node of parent.children) {
        if (node.kind !== 'element') continue;
        if (
          (node.name === 'a:hlinkClick' ||
            node.name === 'a:hlinkHover' ||
            node.name === 'a:hlinkMouseOver') &&
          targets.has(node.attrs['r:id'] ?? '')
        ) {
          doomed.push({ parent, node });
        } else visit(node);
      }
    };
    visit(root);
    for (const { parent, node } of doomed) removeNode(parent, node);
    for (const node of descendants(root)) {
      for (const [name, value] of Object.entries(node.attrs))
        if (name.startsWith('r:') && targets.has(value)) node.attrs[name] = '';
    }
    const warning = {
      path: `presentation.slides[${position}]`,
      message: `removed ${doomed.length} link(s) to template slides that are not in the output`,
    };
    // A long table's continuation copies of the slide lose the same links: one warning says it.
    if (!this.warnings.some((w) => w.path === warning.path && w.message === warning.message))
      this.warnings.push(warning);
  }
}

function freeRelId(rels: readonly Relationship[]): string {
  let n = rels.length + 1;
  while (rels.some((r) => r.id === `rId${n}`)) n++;
  return `rId${n}`;
}

/**
 * A clone is a new slide: give it its own p14:creationId (docs/powerpoint-rules.md "Ids inside a slide"). The
 * element sits in an extension list: PowerPoint-saved slides keep it in p:cSld/p:extLst, some other producers in
 * p:sld/p:extLst; both are looked at, nothing deeper.
 */
function refreshCreationId(root: XmlElement): void {
  for (const owner of [root, child(root, 'p:cSld')]) {
    const extLst = owner && child(owner, 'p:extLst');
    if (!extLst) continue;
    for (const ext of childElements(extLst, 'p:ext')) {
      const id = child(ext, 'p14:creationId');
      if (id) id.attrs.val = String(freshCreationId());
    }
  }
}
