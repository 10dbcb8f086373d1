/**
 * The picture filler (docs/payload-pictures.md): puts an image into a picture, into an empty picture or
 * content placeholder (which becomes a picture, as PowerPoint makes one), or into any other shape as its fill.
 * The slide (fill-slide.ts) hands it the shape and a narrow context of what it may touch.
 */
import { EngineError, type Warning } from '../errors.js';
import type { PictureContent, ShapeContent } from '../payload/model.js';
import { shapeVariants, type FoundShape } from '../shapes/find-shape.js';
import { enclosingGroups, toChildSpace, toSlideSpace, type Box } from '../shapes/group-transform.js';
import { ownBox, SHAPE_PROPERTIES_ORDER } from '../shapes/shape-properties.js';
import {
  child,
  childElements,
  element,
  insertInOrder,
  removeNode,
  textContent,
  type XmlElement,
} from '../xml/index.js';
import { newBlipFill, writeBlipFill, type ImageRelIds } from './blip-fill.js';
import { containInsets, fitPicture, type Fit } from './fit.js';
import { placeholderToPicture } from './placeholder-picture.js';
import type { PreparedImage } from './prepared-image.js';

export interface PictureFillContext {
  /** p:spTree of the slide (groups are walked to fit a member in slide space). */
  spTree: XmlElement;
  /** The image a payload source names; throws the EngineError for `path` when it cannot be one. */
  image(source: string, path: string): PreparedImage;
  /** Stores the image in the deck (deduplicated) and relates it to this slide. */
  addImage(image: PreparedImage): ImageRelIds;
  /** The layout's geometry for a placeholder without its own. */
  inheritedXfrm(shape: FoundShape): Box | null;
  warnings: Warning[];
}

/**
 * Placeholder types PowerPoint fills with a picture when one is inserted (docs/powerpoint-rules.md
 * "Picture placeholders").
 */
const PICTURE_PLACEHOLDERS = new Set(['pic', 'obj', 'clipArt']);

/** Fills that an image fill replaces in CT_ShapeProperties. */
const FILLS = ['a:noFill', 'a:solidFill', 'a:gradFill', 'a:blipFill', 'a:pattFill', 'a:grpFill'];

export function fillPicture(
  shape: FoundShape,
  content: ShapeContent,
  path: string,
  ctx: PictureFillContext,
): void {
  const picture = asPicture(content);
  const image = ctx.image(picture.source, path);
  for (const message of image.warnings ?? []) ctx.warnings.push({ path, message });
  let ids: ImageRelIds | null = null;
  const groups = enclosingGroups(ctx.spTree, shape);
  for (const shapeEl of shapeVariants(shape)) {
    if (shapeEl.name === 'p:sp' && isEmptyPicturePlaceholder(shapeEl, shape)) placeholderToPicture(shapeEl);
    if (shapeEl.name !== 'p:pic' && shapeEl.name !== 'p:sp') {
      throw new EngineError(
        'CONTENT_MISMATCH',
        `shape "${shape.name}" (${shapeEl.name}) cannot hold a picture`,
        path,
      );
    }
    ids ??= ctx.addImage(image);
    const own = ownBox(shapeEl);
    const frame = own ? toSlideSpace(own, groups) : ctx.inheritedXfrm(shape);
    const fit = usableFit(picture.fit, frame, shape, path, ctx.warnings);
    if (shapeEl.name === 'p:pic')
      fillPictureElement(shapeEl, ids, image, frame, fit, (box) => toChildSpace(box, groups));
    else fillShape(shapeEl, ids, image, frame, fit);
  }
}

/** A bare string on a picture shape is its source (docs/payload-pictures.md); fit defaults to contain. */
function asPicture(content: ShapeContent): PictureContent {
  if (content.kind === 'picture') return content;
  if (content.kind === 'string') return { kind: 'picture', source: content.value, fit: 'contain' };
  throw new RangeError(`fillPicture: ${content.kind} content`);
}

function isEmptyPicturePlaceholder(sp: XmlElement, shape: FoundShape): boolean {
  if (!shape.placeholder || !PICTURE_PLACEHOLDERS.has(shape.placeholder.type)) return false;
  const body = child(sp, 'p:txBody');
  return !body || textContent(body) === '';
}

/** Cover and contain need a frame with an area; without one the image fills whatever the shape is. */
function usableFit(fit: Fit, frame: Box | null, shape: FoundShape, path: string, warnings: Warning[]): Fit {
  if (fit === 'stretch' || (frame && frame.cx > 0 && frame.cy > 0)) return fit;
  warnings.push({
    path,
    message: `shape "${shape.name}" has no size of its own or from its layout, so the picture cannot be fitted (${fit}); it is stretched`,
  });
  return 'stretch';
}

function fillPictureElement(
  pic: XmlElement,
  ids: ImageRelIds,
  image: PreparedImage,
  frame: Box | null,
  fit: Fit,
  toLocal: (box: Box) => Box,
): void {
  const blipFill = pictureBlipFill(pic);
  const fitted = frame ? fitPicture(frame, image, fit) : null;
  writeBlipFill(blipFill, ids, fitted?.srcRect ?? null, null);
  const spPr =
    child(pic, 'p:spPr') ?? addSpPr(pic, ['p:nvPicPr', 'p:blipFill', 'p:spPr', 'p:style', 'p:extLst']);
  const xfrm = child(spPr, 'a:xfrm');
  // The new image reads as it is: a mirror the template applied to its old image is not carried over.
  if (xfrm) {
    delete xfrm.attrs.flipH;
    delete xfrm.attrs.flipV;
  }
  if (fitted && fitted.box !== frame) writeBox(spPr, toLocal(fitted.box));
}

/**
 * The picture's p:blipFill. PowerPoint for Mac may write it twice inside mc:AlternateContent (a Choice for its
 * own readers, a Fallback for others): the new image needs one, so the wrapper gives way to its fallback's.
 */
function pictureBlipFill(pic: XmlElement): XmlElement {
  const own = child(pic, 'p:blipFill');
  if (own) return own;
  const blipFill = newBlipFill('p:blipFill');
  for (const [i, node] of pic.children.entries()) {
    if (node.kind !== 'element' || node.name !== 'mc:AlternateContent') continue;
    const branches = [...childElements(node, 'mc:Fallback'), ...childElements(node, 'mc:Choice')];
    const wrapped = branches
      .map((branch) => child(branch, 'p:blipFill'))
      .find((found) => found !== undefined);
    if (!wrapped) continue;
    pic.children[i] = wrapped;
    return wrapped;
  }
  insertInOrder(pic, blipFill, ['p:nvPicPr', 'p:blipFill', 'p:spPr', 'p:style', 'p:extLst']);
  return blipFill;
}

/** An image as a shape's fill: the shape keeps its geometry, outline and text. */
function fillShape(
  sp: XmlElement,
  ids: ImageRelIds,
  image: PreparedImage,
  frame: Box | null,
  fit: Fit,
): void {
  const spPr = child(sp, 'p:spPr') ?? addSpPr(sp, ['p:nvSpPr', 'p:spPr', 'p:style', 'p:txBody', 'p:extLst']);
  for (const name of FILLS) {
    const old = child(spPr, name);
    if (old) removeNode(spPr, old);
  }
  const blipFill = newBlipFill('a:blipFill');
  const imageAspect = image.width / image.height;
  const frameAspect = frame && frame.cy > 0 ? frame.cx / frame.cy : imageAspect;
  const fitted = frame && fit === 'cover' ? fitPicture(frame, image, 'cover') : null;
  const insets = fit === 'contain' ? containInsets(imageAspect, frameAspect) : null;
  writeBlipFill(blipFill, ids, fitted?.srcRect ?? null, insets);
  insertInOrder(spPr, blipFill, SHAPE_PROPERTIES_ORDER);
}

function addSpPr(shapeEl: XmlElement, order: readonly string[]): XmlElement {
  const spPr = element('p:spPr');
  insertInOrder(shapeEl, spPr, order);
  return spPr;
}

/** EMU are integers, extents never negative (docs/powerpoint-rules.md "Integer attributes"). */
function writeBox(spPr: XmlElement, box: Box): void {
  const off = element('a:off', { x: String(Math.round(box.x)), y: String(Math.round(box.y)) });
  const ext = element('a:ext', {
    cx: String(Math.max(0, Math.round(box.cx))),
    cy: String(Math.max(0, Math.round(box.cy))),
  });
  const xfrm = child(spPr, 'a:xfrm');
  if (xfrm) {
    insertInOrder(xfrm, off, ['a:off', 'a:ext']);
    insertInOrder(xfrm, ext, ['a:off', 'a:ext']);
  } else insertInOrder(spPr, element('a:xfrm', {}, [off, ext]), SHAPE_PROPERTIES_ORDER);
}
