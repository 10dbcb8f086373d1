/**
 * The per-slide driver: applies a slide's shape entries (docs/payload.md "Shapes") in order — find, remove,
 * hide, settings, content — to the slide XML of one output slide.
 */
import { EngineError, type Warning } from '../errors.js';
import type {
  ChartContent,
  Hyperlink,
  ShapeContent,
  ShapeRequest,
  ShapeSettings,
  TextContent,
  ValidationMode,
} from '../payload/model.js';
import { fillText, textContentFromString } from '../text/fill-text.js';
import { checkTextFit, estimatedTextHeight } from '../text/fit-text.js';
import { child, childElements, element, insertInOrder, type XmlElement } from '../xml/index.js';
import { cNvPr, findInList, listShapes, shapeVariants, type FoundShape } from '../shapes/find-shape.js';
import { fillerFor, mismatchMessage, SHAPE_KINDS, type Filler } from '../shapes/shape-kinds.js';
import { trimParagraphAnimations } from '../shapes/animation-timing.js';
import { enclosingGroups, toSlideSpace } from '../shapes/group-transform.js';
import { removeShape } from '../shapes/remove-shape.js';
import { applySettings, ownBox } from '../shapes/shape-properties.js';
import { fileNameAsTextWarning } from './uploaded-files.js';
import { didYouMean } from '../names/closest-name.js';

export interface SlideFillContext {
  /** p:sld */
  slideRoot: XmlElement;
  /** JSON path of the slide request, for errors and warnings. */
  slidePath: string;
  shapeValidation: ValidationMode;
  /** Returns the relationship id the caller added to the slide's rels. */
  addHyperlink(link: Hyperlink): string;
  /** Geometry from the layout/master placeholder when the slide shape has no a:xfrm. */
  inheritedXfrm(shape: FoundShape): { x: number; y: number; cx: number; cy: number } | null;
  /**
   * Optional: the layout/master placeholder's a:bodyPr for a placeholder shape, so that inherited
   * shrink-on-overflow and insets are honoured when fitting text (docs/powerpoint-rules.md
   * "Autofit is not recomputed on open").
   */
  inheritedBodyPr?(shape: FoundShape): XmlElement | null;
  /**
   * The fillers of pictures, tables and SmartArt (pictures/, tables/, diagrams/): the slide hands each the narrow
   * context it needs. Each is called only with content the table of shape kinds routes to it.
   */
  fillers: RichFillers;
  /**
   * Charts take their content and their settings together (settings alone restyle a chart); `contentPath`
   * names the field the content came in (`content` or `data`).
   */
  fillChart(
    shape: FoundShape,
    content: ChartContent | null,
    settings: ShapeSettings | null,
    paths: { settings: string; content: string },
  ): void;
  warnings: Warning[];
  /** Optional: whether `name` is an uploaded file's name (text equal to one is written with a warning). */
  isUploadedFile?(name: string): boolean;
}

/** The fillers the slide provides: all but text (filled here) and charts (fillChart, with their settings). */
export type RichFillers = Record<
  Exclude<Filler, 'text' | 'chart'>,
  (shape: FoundShape, content: ShapeContent, path: string) => void
>;

const MAX_LISTED_NAMES = 40;

/** The p:sp child order (PresentationML CT_Shape), for a txBody created on a shape that had none. */
const SP_CHILD_ORDER = ['p:nvSpPr', 'p:spPr', 'p:style', 'p:txBody', 'p:extLst'];

export function applyShapeRequests(ctx: SlideFillContext, requests: readonly ShapeRequest[]): void {
  const cSld = child(ctx.slideRoot, 'p:cSld');
  const spTree = cSld ? child(cSld, 'p:spTree') : undefined;
  if (!spTree)
    throw new EngineError('INVALID_TEMPLATE', 'slide has no shape tree (p:cSld/p:spTree)', ctx.slidePath);
  // One relationship per distinct URL (or slide) on this slide, however many runs link to it. A URL never
  // starts with `#`, so a slide's key cannot meet one.
  const links = new Map<string, string>();
  const addHyperlink = (link: Hyperlink): string => {
    const key = typeof link === 'string' ? link : `#${link.slide}`;
    let rId = links.get(key);
    if (rId === undefined) links.set(key, (rId = ctx.addHyperlink(link)));
    return rId;
  };

  // Listed once and again only after a removal: nothing else changes which shapes the slide has.
  let shapes = listShapes(spTree);
  for (const request of requests) {
    const { shape, sameNameCount } = findInList(shapes, request.target);
    if (!shape) {
      reportMissing(ctx, shapes, request);
      continue;
    }
    if (sameNameCount > 1) {
      ctx.warnings.push({
        path: request.path,
        message: `slide has ${sameNameCount} shapes ${describeTarget(request)}; the first in document order is used`,
      });
    }
    if (request.remove) {
      removeShape(ctx.slideRoot, shape);
      shapes = listShapes(spTree);
      continue;
    }
    if (request.hidden !== null) setHidden(shape, request.hidden);
    const kind = SHAPE_KINDS[shape.kind];
    if (request.settings) {
      const { chart } = request.settings;
      applySettings(
        spTree,
        shape,
        kind.styledInItsPart ? frameSettings(request.settings) : request.settings,
        () => ctx.inheritedXfrm(shape),
        ctx.warnings,
        `${request.path}.settings`,
      );
      if (chart && !kind.styledInItsPart)
        ctx.warnings.push({
          path: `${request.path}.settings`,
          message: `chart settings (${Object.keys(chart).join(', ')}) apply to charts only; shape "${shape.name}" is ${kind.label}`,
        });
    }
    const { content } = request;
    const contentPath = `${request.path}.${request.contentField}`;
    const filler = content ? fillerFor(shape.kind, content) : null;
    if (content && filler === null)
      throw new EngineError(
        'CONTENT_MISMATCH',
        mismatchMessage(shape.kind, shape.name, content),
        contentPath,
      );
    const restyle =
      kind.styledInItsPart &&
      (request.settings?.chart !== undefined || request.settings?.fillColor !== undefined);
    if (filler === 'chart' || (restyle && !content)) {
      ctx.fillChart(shape, content?.kind === 'chart' ? content : null, request.settings, {
        settings: `${request.path}.settings`,
        content: contentPath,
      });
    } else if (content && filler !== null) {
      if (filler === 'text') fillTextShape(ctx, spTree, shape, content, contentPath, addHyperlink);
      else ctx.fillers[filler](shape, content, contentPath);
    }
    if (request.altText !== undefined) setNonVisual(shape, 'descr', request.altText);
    if (request.altTitle !== undefined) setNonVisual(shape, 'title', request.altTitle);
  }
}

/** A chart's fill and chart settings belong to the chart part (charts/); the frame keeps its geometry. */
function frameSettings(settings: ShapeSettings): ShapeSettings {
  const frame: ShapeSettings = {};
  for (const key of ['left', 'top', 'width', 'height'] as const)
    if (settings[key] !== undefined) frame[key] = settings[key];
  return frame;
}

function describeTarget(request: ShapeRequest): string {
  return request.target.by === 'name' ? `named "${request.target.name}"` : `with id ${request.target.id}`;
}

/** What is said of a shape entry whose shape the slide does not have. */
export function missingShapeMessage(shapes: readonly FoundShape[], request: ShapeRequest): string {
  // Enough names to spot a typo without flooding a response: the first 40, then a count.
  const names = shapes.slice(0, MAX_LISTED_NAMES).map((s) => `"${s.name}"`);
  if (shapes.length > MAX_LISTED_NAMES) names.push(`… and ${shapes.length - MAX_LISTED_NAMES} more`);
  const near =
    request.target.by === 'name'
      ? didYouMean(
          request.target.name,
          shapes.map((s) => s.name),
        )
      : '';
  return `slide has no shape ${describeTarget(request)}${near}; its shapes are: ${names.length > 0 ? names.join(', ') : '(none)'}`;
}

function reportMissing(ctx: SlideFillContext, shapes: readonly FoundShape[], request: ShapeRequest): void {
  const message = missingShapeMessage(shapes, request);
  if (ctx.shapeValidation === 'strict') throw new EngineError('SHAPE_NOT_FOUND', message, request.path);
  ctx.warnings.push({ path: request.path, message, code: 'SHAPE_NOT_FOUND' });
}

/**
 * `alt_text` and `alt_title`: p:cNvPr/@descr and @title (PresentationML §19.3.1.12), what screen readers say
 * for the shape, in both AlternateContent branches.
 */
function setNonVisual(shape: FoundShape, attribute: 'descr' | 'title', value: string): void {
  for (const shapeEl of shapeVariants(shape)) {
    const props = cNvPr(shapeEl);
    if (props) props.attrs[attribute] = value;
  }
}

/** `hidden="1"` on p:cNvPr (of both AlternateContent branches); false removes the attribute. */
function setHidden(shape: FoundShape, hidden: boolean): void {
  for (const shapeEl of shapeVariants(shape)) {
    const props = cNvPr(shapeEl);
    if (!props) continue;
    if (hidden) props.attrs['hidden'] = '1';
    else delete props.attrs['hidden'];
  }
}

/** Text into a text shape: written, its paragraph animations trimmed, its fit checked (text/). */
function fillTextShape(
  ctx: SlideFillContext,
  spTree: XmlElement,
  shape: FoundShape,
  content: ShapeContent,
  contentPath: string,
  addHyperlink: (link: Hyperlink) => string,
): void {
  if (content.kind !== 'string' && content.kind !== 'text')
    throw new RangeError(`text filler: ${content.kind} content`);
  const text: TextContent = content.kind === 'string' ? textContentFromString(content.value) : content;
  if (content.kind === 'string' && ctx.isUploadedFile?.(content.value))
    ctx.warnings.push(fileNameAsTextWarning(content.value, shape.name, contentPath));
  // The size the text sees on the slide: a member of a scaled group is scaled with it.
  const own = ownBox(shapeVariants(shape)[0] ?? shape.element);
  const box = own ? toSlideSpace(own, enclosingGroups(spTree, shape)) : ctx.inheritedXfrm(shape);
  const inheritedBodyPr = shape.placeholder ? (ctx.inheritedBodyPr?.(shape) ?? null) : null;
  const templateHeight = estimatedTextHeight(shape, box, inheritedBodyPr);
  let paragraphs = 0;
  for (const shapeEl of shapeVariants(shape)) {
    if (shapeEl.name !== 'p:sp') continue;
    const txBody = txBodyOf(shapeEl);
    fillText(txBody, text, { path: contentPath, addHyperlink, warnings: ctx.warnings });
    paragraphs = childElements(txBody, 'a:p').length;
  }
  // "Appear by paragraph" effects must not name paragraphs the new text does not have.
  trimParagraphAnimations(ctx.slideRoot, shape.id, paragraphs);
  checkTextFit(shape, box, ctx.warnings, contentPath, inheritedBodyPr, templateHeight);
}

/**
 * p:txBody of a p:sp; an auto-shape written without one gets the minimal body (docs/powerpoint-rules.md
 * "Text bodies").
 */
function txBodyOf(sp: XmlElement): XmlElement {
  const existing = child(sp, 'p:txBody');
  if (existing) return existing;
  const body = element('p:txBody', {}, [element('a:bodyPr'), element('a:lstStyle'), element('a:p')]);
  insertInOrder(sp, body, SP_CHILD_ORDER);
  return body;
}
