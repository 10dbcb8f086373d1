/**
 * Fitting an image of w × h pixels into a frame (docs/payload-pictures.md; docs/powerpoint-rules.md
 * "Picture XML and cropping"). All maths is in slide space, where the frame's aspect is the one a person sees;
 * the caller maps the result back into a group's child space.
 *
 * - contain: the whole image, aspect kept, centred: the frame shrinks to the image's aspect around its centre
 *   (a centre-kept box stays put under any rotation, which turns about the centre).
 * - cover: the frame stays; `a:srcRect` crops the overflow equally on both sides.
 * - stretch: the frame stays, the image is distorted to fill it.
 */
import type { Box } from '../shapes/group-transform.js';

export type Fit = 'contain' | 'cover' | 'stretch';

/** `a:srcRect` / `a:fillRect` edges in 1/1000 % (ST_Percentage: 100000 = 100 %). */
export interface RectInsets {
  l: number;
  t: number;
  r: number;
  b: number;
}

export interface FittedPicture {
  /** Where the picture's frame goes (slide space). */
  box: Box;
  /** Crop of the image (cover), or null for none. */
  srcRect: RectInsets | null;
}

const WHOLE = 100_000;

export function fitPicture(frame: Box, image: { width: number; height: number }, fit: Fit): FittedPicture {
  if (fit === 'stretch' || !isProper(frame) || image.width <= 0 || image.height <= 0)
    return { box: frame, srcRect: null };
  const imageAspect = image.width / image.height;
  const frameAspect = frame.cx / frame.cy;
  if (fit === 'cover') return { box: frame, srcRect: coverCrop(imageAspect, frameAspect) };
  const wider = imageAspect > frameAspect;
  const cx = wider ? frame.cx : frame.cy * imageAspect;
  const cy = wider ? frame.cx / imageAspect : frame.cy;
  return {
    box: { x: frame.x + (frame.cx - cx) / 2, y: frame.y + (frame.cy - cy) / 2, cx, cy },
    srcRect: null,
  };
}

/** The crop that leaves the frame's aspect: l = r = (1 − fa/ia)/2 when the image is wider, else t = b. */
export function coverCrop(imageAspect: number, frameAspect: number): RectInsets | null {
  if (Math.abs(imageAspect / frameAspect - 1) < 1e-6) return null;
  if (imageAspect > frameAspect) {
    const side = Math.round(((1 - frameAspect / imageAspect) / 2) * WHOLE);
    return { l: side, t: 0, r: side, b: 0 };
  }
  const side = Math.round(((1 - imageAspect / frameAspect) / 2) * WHOLE);
  return { l: 0, t: side, r: 0, b: side };
}

/**
 * `contain` for an image used as a shape's fill: the shape keeps its size and geometry, and `a:fillRect`
 * insets place the letterboxed image inside its box (the bands stay unfilled).
 */
export function containInsets(imageAspect: number, frameAspect: number): RectInsets | null {
  if (!(imageAspect > 0 && frameAspect > 0) || Math.abs(imageAspect / frameAspect - 1) < 1e-6) return null;
  if (imageAspect > frameAspect) {
    const side = Math.round(((1 - frameAspect / imageAspect) / 2) * WHOLE);
    return { l: 0, t: side, r: 0, b: side };
  }
  const side = Math.round(((1 - imageAspect / frameAspect) / 2) * WHOLE);
  return { l: side, t: 0, r: side, b: 0 };
}

function isProper(box: Box): boolean {
  return box.cx > 0 && box.cy > 0 && Number.isFinite(box.cx) && Number.isFinite(box.cy);
}
