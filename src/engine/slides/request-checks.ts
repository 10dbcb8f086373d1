/**
 * Everything about a request that can be told from the opened templates, before any slide is built, gathered
 * into one error: slides that do not exist, shapes a strict slide does not have, content of the wrong kind for
 * its shape, pictures that were not uploaded. Otherwise a request wrong in three places would be refused three
 * times, one problem per answer (docs/payload.md, Validation modes).
 */
import { EngineError } from '../errors.js';
import { MAX_LISTED_ERRORS, oneError } from '../error-list.js';
import type { DeckRequest, PageRequest, ShapeRequest, SlideRequest } from '../payload/model.js';
import { isHttpUrl } from '../payload/picture-source-uses.js';
import { missingSourceMessage, sourceBytes } from '../pictures/picture-sources.js';
import type { ImageOutcome } from '../pictures/prepared-image.js';
import type { SlideSource } from '../presentation/slide-draft.js';
import type { Template } from '../presentation/template.js';
import { missingShapeMessage } from './apply-shape-requests.js';
import { findInList, listShapes, type FoundShape } from '../shapes/find-shape.js';
import { fillerFor, mismatchMessage } from '../shapes/shape-kinds.js';
import { child } from '../xml/index.js';
import { append } from '../arrays.js';

export interface RequestFiles {
  files: ReadonlyMap<string, Uint8Array>;
  images?: ReadonlyMap<string, ImageOutcome> | undefined;
}

/** Each slide's source (`sourceOf` throws for one that does not exist); throws every problem found at once. */
export function checkedSources(
  deck: DeckRequest,
  slides: readonly SlideRequest[],
  sourceOf: (slide: SlideRequest) => SlideSource,
  files: RequestFiles,
): SlideSource[] {
  const errors: EngineError[] = [];
  const shapesOf: ShapeLists = new Map();
  const sources: SlideSource[] = [];
  for (const slide of slides) {
    if (errors.length >= MAX_LISTED_ERRORS) break;
    let source: SlideSource;
    try {
      source = sourceOf(slide);
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      errors.push(error);
      continue;
    }
    sources.push(source);
    if (slide.shapes.length === 0) continue;
    const shapes = templateShapes(source, shapesOf);
    const strict = (slide.shapeValidation ?? deck.shapeValidation) === 'strict';
    for (const request of slide.shapes) append(errors, shapeProblems(request, shapes, strict, files));
  }
  const error = oneError(errors.slice(0, MAX_LISTED_ERRORS));
  if (error) throw error;
  return sources;
}

/** A master or layout a payload entry fills, found in its template. */
export interface PageSource {
  page: PageRequest;
  template: Template;
  partName: string;
}

/**
 * The master or layout of each `masters` / `layouts` entry (docs/payload.md "Brand"), checked as slides are: an
 * index out of range, shapes a strict page does not have, content of the wrong kind, pictures not uploaded; every
 * problem at once. `templateOf` gives null for a template no slide uses (the entry is then told of elsewhere).
 */
export function checkedPages(
  deck: DeckRequest,
  templateOf: (page: PageRequest) => Template | null,
  files: RequestFiles,
): PageSource[] {
  const errors: EngineError[] = [];
  const shapesOf: ShapeLists = new Map();
  const pages: PageSource[] = [];
  for (const page of deck.brand.pages) {
    if (errors.length >= MAX_LISTED_ERRORS) break;
    const template = templateOf(page);
    if (!template) continue;
    const list = page.kind === 'master' ? template.masters : template.layouts;
    const found = list[page.index];
    if (!found) {
      const noun = page.kind === 'master' ? 'slide master' : 'slide layout';
      const range = list.length === 0 ? 'none' : `${list.length} (0–${list.length - 1})`;
      errors.push(
        new EngineError(
          'SLIDE_NOT_FOUND',
          `${page.kind} index ${page.index} is out of range: the template's ${noun}s are ${range}`,
          `${page.path}.index`,
        ),
      );
      continue;
    }
    pages.push({ page, template, partName: found.partName });
    if (page.shapes.length === 0) continue;
    const shapes = partShapes(template, found.partName, shapesOf);
    const strict = (page.shapeValidation ?? deck.shapeValidation) === 'strict';
    for (const request of page.shapes) append(errors, shapeProblems(request, shapes, strict, files));
  }
  const error = oneError(errors.slice(0, MAX_LISTED_ERRORS));
  if (error) throw error;
  return pages;
}

/** The shapes of the template slide or layout, listed once however many output slides copy it. */
function templateShapes(source: SlideSource, known: ShapeLists): FoundShape[] {
  const partName = source.kind === 'slide' ? source.slide.partName : source.layout.partName;
  return partShapes(source.template, partName, known);
}

/** Per template (two templates may both have a /ppt/slides/slide1.xml), per part. */
type ShapeLists = Map<Template, Map<string, FoundShape[]>>;

function partShapes(template: Template, partName: string, lists: ShapeLists): FoundShape[] {
  let known = lists.get(template);
  if (!known) lists.set(template, (known = new Map()));
  const listed = known.get(partName);
  if (listed) return listed;
  const cSld = child(template.xml(partName).root, 'p:cSld');
  const spTree = cSld && child(cSld, 'p:spTree');
  const shapes = spTree ? listShapes(spTree) : [];
  known.set(partName, shapes);
  return shapes;
}

function shapeProblems(
  request: ShapeRequest,
  shapes: readonly FoundShape[],
  strict: boolean,
  files: RequestFiles,
): EngineError[] {
  const { shape } = findInList(shapes, request.target);
  if (!shape) {
    // Without strict validation a missing shape is a warning, given while the slide is filled.
    return strict
      ? [new EngineError('SHAPE_NOT_FOUND', missingShapeMessage(shapes, request), request.path)]
      : [];
  }
  const content = request.content;
  if (request.remove || content === null) return [];
  const contentPath = `${request.path}.${request.contentField}`;
  const filler = fillerFor(shape.kind, content);
  if (filler === null)
    return [
      new EngineError('CONTENT_MISMATCH', mismatchMessage(shape.kind, shape.name, content), contentPath),
    ];
  // What the picture filler takes: picture content, or a bare string as its source.
  const source =
    filler !== 'picture'
      ? null
      : content.kind === 'picture'
        ? content.source
        : content.kind === 'string'
          ? content.value
          : null;
  if (source === null || isHttpUrl(source) || files.images?.has(source)) return [];
  if (sourceBytes(source, files.files) !== undefined) return [];
  return [new EngineError('MISSING_FILE', missingSourceMessage(source, files.files), contentPath)];
}
