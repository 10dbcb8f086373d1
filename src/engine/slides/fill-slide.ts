/**
 * Fills one output slide: shapes in payload order, then notes, then `{{tags}}` (slide tags win over deck
 * tags), honouring the validation modes (payload.md "Validation modes").
 */
import { EngineError, type Warning } from '../errors.js';
import { replaceChartTags } from '../charts/chart-tags.js';
import { fillChart } from '../charts/fill-chart.js';
import { fillDiagram, nodeTexts } from '../diagrams/fill-diagram.js';
import type { DeckRequest, ShapeRequest, SlideRequest, Tag } from '../payload/model.js';
import { fillPicture } from '../pictures/fill-picture.js';
import type { PictureImages } from '../pictures/picture-sources.js';
import type { SlideDraft } from '../presentation/slide-draft.js';
import type { Template } from '../presentation/template.js';
import { applyShapeRequests, type RichFillers } from './apply-shape-requests.js';
import type { FoundShape } from '../shapes/find-shape.js';
import { fillTable } from '../tables/fill-table.js';
import { fillText } from '../text/fill-text.js';
import { replaceTags } from '../text/tags.js';
import { unfilledTags } from '../text/unfilled-tags.js';
import { child, type XmlElement } from '../xml/index.js';

export interface FillSlideInput {
  draft: SlideDraft;
  slide: SlideRequest;
  deck: DeckRequest;
  warnings: Warning[];
  /** Deck-level tag keys used so far (strict mode checks them once the deck is done). */
  deckTagsUsed: Set<string>;
  /**
   * What this draft becomes, as warnings name it: an output slide (0-based), or the slide master or layout a
   * `masters` or `layouts` entry fills.
   */
  outputSlide: number | { kind: 'master' | 'layout'; index: number };
  /**
   * On the slides of an `all_slides` entry: the tag keys its slides used so far, and its first output slide.
   * Its tags are judged once its last slide is filled.
   */
  wholeTemplate?: WholeTemplateTags;
  /** The request's images, each looked up once however many shapes use it. */
  pictures: PictureImages;
  /**
   * On a copy of the slide that continues tables (`"overflow": "continue"`): where each continued table
   * resumes, by its content's JSON path. A continued table absent from it has shown all its rows: it is left
   * off this copy.
   */
  continuing?: ContinuedTables;
}

export interface WholeTemplateTags {
  used: Set<string>;
  firstSlide: number;
}

/** Tables that continue on a further copy of the slide, by their content's JSON path. */
export type ContinuedTables = ReadonlyMap<string, ContinuedTable>;
export interface ContinuedTable {
  name: string;
  /** The first body row the next copy shows. */
  row: number;
}

/** Fills the slide; returns the tables whose rows did not all fit (empty when none). */
export function fillSlide(input: FillSlideInput): ContinuedTables {
  const { draft, slide, deck, warnings, deckTagsUsed, continuing } = input;
  const continued = new Map<string, ContinuedTable>();
  // The slide's tree is only made when something is asked of it (an unchanged slide is copied as it is).
  if (slide.shapes.length > 0)
    applyShapeRequests(
      {
        slideRoot: draft.root,
        slidePath: slide.path,
        shapeValidation: slide.shapeValidation ?? deck.shapeValidation,
        addHyperlink: (url) => draft.addHyperlink(url),
        inheritedXfrm: (shape) => draft.inheritedXfrm(shape.element),
        inheritedBodyPr: (shape) => draft.inheritedBodyPr(shape.element),
        fillers: richFillers(input, (shape, path) => ({
          firstBodyRow: continuing?.get(path)?.row ?? null,
          continueFrom: (row) => continued.set(path, { name: shape.name, row }),
        })),
        fillChart: (shape, content, settings, paths) =>
          fillChart(shape, content, settings, paths, { parts: draft.ownedParts(), warnings }),
        warnings,
        isUploadedFile: (name) => input.pictures.isUploadedFile(name),
      },
      continuing ? withoutFinishedTables(slide.shapes, continuing) : slide.shapes,
    );

  if (slide.notes) {
    fillText(draft.notesTextBody(), slide.notes, {
      path: `${slide.path}.notes`,
      // Notes pages carry no hyperlinks of ours: the text stays, the link is dropped with a warning.
      addHyperlink: () => {
        warnings.push({
          path: `${slide.path}.notes`,
          message: 'hyperlinks are not supported in speaker notes; the text was kept without the link',
        });
        return '';
      },
      warnings,
    });
  }

  if (slide.tags.length === 0 && deck.tags.length === 0) {
    if (!continuing) warnUnfilledTags(input, () => false);
    return continued;
  }
  const slideTags = toMap(slide.tags);
  const deckTags = toMap(deck.tags);
  const lookup = (key: string): string | undefined => slideTags.get(key) ?? deckTags.get(key);
  const used = new Set<string>();
  if (draft.mayHoldTags()) for (const key of replaceTags(draft.root, lookup).used) used.add(key);
  const relIds = draft.relationships.map((r) => r.id);
  for (const key of replaceChartTags(draft.ownedParts(), relIds, lookup)) used.add(key);
  if (draft.notes || draft.hasTemplateNotesWithTags())
    for (const key of replaceTags(draft.notesRoot(), lookup).used) used.add(key);
  for (const key of used) if (!slideTags.has(key)) deckTagsUsed.add(key);
  if (continuing) return continued; // the slide's own fill has judged its tags already
  warnUnfilledTags(input, (key) => lookup(key) !== undefined);

  const mode = slide.tagValidation ?? deck.tagValidation;
  const whole = slide.wholeTemplate;
  let judged: Set<string> = used;
  let unused = (key: string): string => `tag "${key}" is not used on this slide`;
  if (whole && input.wholeTemplate) {
    // An all_slides entry's tags apply to each of its slides: one is unused when none of them uses it.
    const entry = input.wholeTemplate;
    for (const key of used) entry.used.add(key);
    if (whole.slide < whole.slides - 1) return continued;
    judged = entry.used;
    const slides =
      entry.firstSlide === input.outputSlide
        ? `output slide ${input.outputSlide}`
        : `output slides ${entry.firstSlide}–${input.outputSlide}`;
    unused = (key) => `tag "${key}" is not used on any slide of this all_slides entry (${slides})`;
  }
  for (const key of slideTags.keys()) {
    if (judged.has(key)) continue;
    const message = unused(key);
    if (mode === 'strict') throw new EngineError('TAG_NOT_USED', message, `${slide.path}.tags`);
    warnings.push({ path: `${slide.path}.tags`, message, code: 'TAG_NOT_USED' });
  }
  return continued;
}

/**
 * A `{{tag}}` of the template left in the output because the payload gave it no value: the deck would show the
 * braces. Named with the output slide and the shape (or the notes), as a warning in every mode: the interface
 * has no rule for it, and a stricter mode of our own would refuse decks that worked before.
 */
function warnUnfilledTags(input: FillSlideInput, given: (key: string) => boolean): void {
  const { draft, slide, warnings, outputSlide } = input;
  const page =
    typeof outputSlide === 'number'
      ? `output slide ${outputSlide}`
      : `${outputSlide.kind} ${outputSlide.index}`;
  const source = draft.source;
  const found: { where: string; key: string }[] = [];
  const slideTree = draft.touched
    ? draft.root
    : source.kind === 'slide' && draft.mayHoldTags()
      ? source.template.xml(source.slide.partName).root // read only: an unchanged slide stays byte for byte
      : null;
  if (slideTree)
    for (const tag of unfilledTags(slideTree))
      found.push({ key: tag.key, where: tag.shape === null ? 'the slide' : `shape "${tag.shape}"` });
  const notesTree = draft.notes
    ? draft.notesRoot()
    : draft.notesSource !== null && draft.hasTemplateNotesWithTags()
      ? source.template.xml(draft.notesSource).root
      : null;
  if (notesTree) for (const tag of unfilledTags(notesTree)) found.push({ key: tag.key, where: 'the notes' });
  for (const { key, where } of found) {
    // A value that writes the tag back (`"value": "{{name}}"`, as the console's playground pre-fills) was given.
    if (given(key)) continue;
    warnings.push({
      path: slide.path,
      message: `${page}: ${where} still ${where === 'the notes' ? 'show' : 'shows'} {{${key}}}: no tag "${key}" was given`,
      code: 'TAG_UNFILLED',
    });
  }
}

/** Where a table on this copy of the slide starts, and how it says its rows go on. */
interface TableProgress {
  firstBodyRow: number | null;
  continueFrom(row: number): void;
}

/**
 * Pictures, tables and SmartArt: each filler gets the shape and a narrow context of its own (charts take their
 * settings too, through fillChart). The table of shape kinds (shapes/shape-kinds.ts) says which gets what.
 */
function richFillers(
  input: FillSlideInput,
  tableProgress: (shape: FoundShape, path: string) => TableProgress,
): RichFillers {
  const { draft, warnings, pictures } = input;
  return {
    picture: (shape, content, path) =>
      fillPicture(shape, content, path, {
        spTree: spTreeOf(draft),
        image: (source, sourcePath) => pictures.get(source, sourcePath),
        addImage: (image) => draft.addImage(image),
        inheritedXfrm: (target) => draft.inheritedXfrm(target.element),
        warnings,
      }),
    table: (shape, content, path) =>
      fillTable(shape, content, path, {
        addHyperlink: (url) => draft.addHyperlink(url),
        warnings,
        slideRoot: draft.root,
        ...textMetrics(draft.source.template),
        ...tableProgress(shape, path),
      }),
    diagram: (shape, content, path) =>
      fillDiagram(shape, nodeTexts(content), path, {
        parts: draft.ownedParts(),
        addHyperlink: (partName, url) => draft.addOwnedPartHyperlink(partName, url),
        defaultFontSize: textMetrics(draft.source.template).defaultFontSize,
        warnings,
      }),
  };
}

function spTreeOf(draft: SlideDraft): XmlElement {
  const cSld = child(draft.root, 'p:cSld');
  const spTree = cSld && child(cSld, 'p:spTree');
  // applyShapeRequests found the shape in this tree, so it exists.
  if (!spTree) throw new EngineError('INVALID_TEMPLATE', 'slide has no shape tree (p:cSld/p:spTree)');
  return spTree;
}

/** A continued table that has shown all its rows is left off the further copies of its slide. */
function withoutFinishedTables(shapes: readonly ShapeRequest[], continuing: ContinuedTables): ShapeRequest[] {
  return shapes.map((request) => {
    const { content } = request;
    if (content?.kind !== 'table' || content.overflow !== 'continue') return request;
    const path = `${request.path}.${request.contentField}`;
    return continuing.has(path) ? request : { ...request, content: null, remove: true };
  });
}

/** The slide height (p:sldSz, one per deck) and the default text size (p:defaultTextStyle, else 18 pt). */
function textMetrics(template: Template): { slideHeight: number; defaultFontSize: number } {
  const root = template.presentation.root;
  const height = Number(child(root, 'p:sldSz')?.attrs.cy);
  const style = child(root, 'p:defaultTextStyle');
  const level1 = style && child(style, 'a:lvl1pPr');
  const defRPr = level1 && child(level1, 'a:defRPr');
  const size = Number(defRPr?.attrs.sz);
  return {
    slideHeight: height > 0 ? height : DEFAULT_SLIDE_HEIGHT,
    defaultFontSize: size >= 100 ? size : DEFAULT_FONT_SIZE,
  };
}

/** CT_SlideSize's default (7.5 in) and PowerPoint's default text size (18 pt). */
const DEFAULT_SLIDE_HEIGHT = 6_858_000;
const DEFAULT_FONT_SIZE = 1800;

export function unusedDeckTags(deck: DeckRequest, used: ReadonlySet<string>): string[] {
  return deck.tags.map((t) => t.key).filter((key) => !used.has(key));
}

function toMap(tags: readonly Tag[]): Map<string, string> {
  return new Map(tags.map((t) => [t.key.trim(), t.value]));
}
