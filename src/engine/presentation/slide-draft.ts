/**
 * One output slide while it is filled (fill-slide.ts hands each filler what it needs of it): its relationships,
 * and its tree and notes page, made on first use. What a draft needs of the whole deck (the media store,
 * inherited geometry, owned parts) it asks the deck for (`DraftDeck`); deck-builder.ts makes and commits drafts.
 */
import { relativeTarget, resolveTarget, type Relationship } from '../package/relationships.js';
import type { PreparedImage } from '../pictures/prepared-image.js';
import { cloneElement, type XmlDocument, type XmlElement } from '../xml/index.js';
import type { MediaStore } from './media-store.js';
import { newNotesSlide, notesBody } from './notes-slide.js';
import type { OwnedParts } from './owned-parts.js';
import type { Box } from './placeholders.js';
import type { Hyperlink } from '../payload/model.js';
import { HYPERLINK_REL, IMAGE_REL, SLIDE_REL } from './relationship-policy.js';
import type { Template, TemplateLayout, TemplateMaster, TemplateSlide } from './template.js';

/** What a relationship points at, as relationTo looks it up. */
function relationshipKey(type: string, external: boolean, target: string): string {
  return `${external ? 'external' : 'internal'} ${type} ${target}`;
}

export type SlideSource =
  | { kind: 'slide'; template: Template; slide: TemplateSlide }
  | { kind: 'layout'; template: Template; layout: TemplateLayout };

/**
 * What a draft is a copy of: an output slide's source, or a slide master (or layout) whose shapes a payload
 * fills like a slide's (docs/payload.md "Brand").
 */
export type DraftSource = SlideSource | { kind: 'master'; template: Template; master: TemplateMaster };

/** What a draft asks of the deck it belongs to. */
export interface DraftDeck {
  readonly media: MediaStore;
  inheritedXfrm(draft: SlideDraft, shape: XmlElement): Box | null;
  inheritedBodyPr(draft: SlideDraft, shape: XmlElement): XmlElement | null;
  ownedParts(draft: SlideDraft): OwnedParts;
  /** The part output slide `position` has or will have. */
  slidePartAt(position: number): string;
}

/**
 * One output slide while it is being filled. Its tree (a copy of the template slide's) is made on first use:
 * a slide nobody changes is not copied or written again, and its template part's bytes go to the output as
 * they are.
 */
export class SlideDraft {
  private doc: XmlDocument | null = null;
  private notesDoc: XmlDocument | null = null;
  private nextRelNumber: number;
  /** relationTo's map and freeRelId's ids: made on first use, kept with each relationship the draft adds. */
  private byTarget: Map<string, string> | undefined;
  private takenIds: Set<string> | undefined;

  constructor(
    readonly position: number,
    readonly partName: string,
    private readonly load: () => XmlDocument,
    readonly relationships: Relationship[],
    readonly source: DraftSource,
    private readonly deck: DraftDeck,
    /** The template notes slide this output slide owns or clones, if any. */
    readonly notesSource: string | null,
    /** The first use of a deck template slide: it keeps the template's part, id and owned parts. */
    readonly first: boolean,
  ) {
    this.nextRelNumber = relationships.length + 1;
  }

  /** The slide's tree, for changing it. */
  get document(): XmlDocument {
    this.doc ??= this.load();
    return this.doc;
  }

  get root(): XmlElement {
    return this.document.root;
  }

  /** Whether the tree was made: until then the slide is its template part, unchanged. */
  get touched(): boolean {
    return this.doc !== null;
  }

  /** Whether the slide may hold a `{{tag}}`: a changed tree may, else only a template part with a `{`. */
  mayHoldTags(): boolean {
    return (
      this.touched ||
      this.source.kind !== 'slide' ||
      this.source.template.containsTagMarker(this.source.slide.partName)
    );
  }

  /**
   * A web link from one of the slide's owned parts (a SmartArt's data or drawing, whose text has relationships
   * of its own): the id of that part's relationship to the URL.
   */
  addOwnedPartHyperlink(partName: string, url: string): string {
    return this.ownedParts().addExternalRelationship(partName, HYPERLINK_REL, url);
  }

  addHyperlink(link: Hyperlink): string {
    if (typeof link !== 'string') return this.relationTo(SLIDE_REL, this.deck.slidePartAt(link.slide));
    return this.relationTo(HYPERLINK_REL, link, true);
  }

  /**
   * Stores `image` in the deck (once, however many slides use it) and relates it to this slide: the ids for
   * `a:blip/@r:embed` and, for an SVG, `asvg:svgBlip/@r:embed`.
   */
  addImage(image: PreparedImage): { embed: string; svg: string | null } {
    const stored = this.deck.media.store(image);
    return { embed: this.imageRel(stored.raster), svg: stored.svg ? this.imageRel(stored.svg) : null };
  }

  private imageRel(partName: string): string {
    return this.relationTo(IMAGE_REL, partName);
  }

  /**
   * The id of the slide's relationship of `type` to `target` (a part name, or a URL when `external`), made when
   * there is none. Looked up in a map of the slide's relationships by what they point at, made on first use and
   * kept with each one added: a slide of thousands of links, pictures or jumps finds each in one step, not by
   * reading all the relationships made before it.
   */
  private relationTo(type: string, target: string, external = false): string {
    const byTarget = (this.byTarget ??= this.relationshipsByTarget());
    const key = relationshipKey(type, external, target);
    const existing = byTarget.get(key);
    if (existing !== undefined) return existing;
    const id = this.freeRelId();
    const written = external ? target : relativeTarget(this.partName, target);
    this.relationships.push({ id, type, target: written, external });
    byTarget.set(key, id);
    return id;
  }

  private relationshipsByTarget(): Map<string, string> {
    const byTarget = new Map<string, string>();
    for (const r of this.relationships) {
      const target = r.external ? r.target : resolveTarget(this.partName, r.target);
      const key = relationshipKey(r.type, r.external, target);
      if (!byTarget.has(key)) byTarget.set(key, r.id); // the first, as a search from the start would find
    }
    return byTarget;
  }

  private freeRelId(): string {
    const taken = (this.takenIds ??= new Set(this.relationships.map((r) => r.id)));
    let id: string;
    do id = `rId${this.nextRelNumber++}`;
    while (taken.has(id));
    taken.add(id);
    return id;
  }

  /** Geometry a placeholder shape inherits from the layout and master. */
  inheritedXfrm(shape: XmlElement): Box | null {
    return this.deck.inheritedXfrm(this, shape);
  }

  /** The layout's or master's a:bodyPr a placeholder shape inherits (autofit, insets). */
  inheritedBodyPr(shape: XmlElement): XmlElement | null {
    return this.deck.inheritedBodyPr(this, shape);
  }

  /** The parts this slide owns (charts and their workbooks), for the fillers to read and write. */
  ownedParts(): OwnedParts {
    return this.deck.ownedParts(this);
  }

  /** The notes page for editing, creating one when the template slide had none. */
  notesRoot(): XmlElement {
    if (!this.notesDoc) {
      const source = this.notesSource ? this.source.template.xml(this.notesSource) : null;
      this.notesDoc = source ? { prolog: source.prolog, root: cloneElement(source.root) } : newNotesSlide();
    }
    return this.notesDoc.root;
  }

  /** The notes text body (the body placeholder), created when missing. */
  notesTextBody(): XmlElement {
    return notesBody(this.notesRoot());
  }

  /** Whether the template's notes page may hold a tag (a `{` in its raw text; no parsing needed). */
  hasTemplateNotesWithTags(): boolean {
    return this.notesSource !== null && this.source.template.containsTagMarker(this.notesSource);
  }

  /** The edited notes page, when notes were written. */
  get notes(): XmlDocument | null {
    return this.notesDoc;
  }

  /** The layout the slide follows: its template slide's, or the layout it was made from. */
  get layoutPartName(): string | null {
    const { source } = this;
    if (source.kind === 'slide') return source.slide.layoutPartName;
    // A master's placeholders inherit from nothing but themselves; a layout's from itself, then its master.
    return source.kind === 'layout' ? source.layout.partName : source.master.partName;
  }
}
