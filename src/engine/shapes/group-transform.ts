/**
 * Coordinates of shapes inside groups. A member's a:xfrm is in its group's child space: the group maps
 * `chOff`/`chExt` onto its own `off`/`ext` (DrawingML CT_GroupTransform2D), so a position given on the slide
 * has to go through every enclosing group to land where the user sees it. Rotation and flips are ignored.
 */
import { child, type XmlElement } from '../xml/index.js';
import { listShapes, shapeVariants, type FoundShape } from './find-shape.js';

export interface Box {
  x: number;
  y: number;
  cx: number;
  cy: number;
}

interface GroupTransform {
  off: { x: number; y: number };
  ext: { cx: number; cy: number };
  chOff: { x: number; y: number };
  chExt: { cx: number; cy: number };
}

/** Transforms of the groups enclosing `shape`, innermost first (empty for a shape directly on the slide). */
export function enclosingGroups(spTree: XmlElement, shape: FoundShape): GroupTransform[] {
  const shapes = listShapes(spTree);
  const chain: GroupTransform[] = [];
  let parent = shape.parent;
  while (parent !== spTree) {
    const group = shapes.find((s) => shapeVariants(s).includes(parent));
    if (!group) break;
    const transform = transformOf(parent);
    if (transform) chain.push(transform);
    parent = group.parent;
  }
  return chain;
}

function transformOf(grpSp: XmlElement): GroupTransform | undefined {
  const props = child(grpSp, 'p:grpSpPr');
  const xfrm = props ? child(props, 'a:xfrm') : undefined;
  if (!xfrm) return undefined;
  const read = (name: string, a: string, b: string) => {
    const el = child(xfrm, name);
    return [Number.parseInt(el?.attrs[a] ?? '', 10), Number.parseInt(el?.attrs[b] ?? '', 10)] as const;
  };
  const [x, y] = read('a:off', 'x', 'y');
  const [cx, cy] = read('a:ext', 'cx', 'cy');
  const [chx, chy] = read('a:chOff', 'x', 'y');
  const [chcx, chcy] = read('a:chExt', 'cx', 'cy');
  const values = [x, y, cx, cy, chx, chy, chcx, chcy];
  // A degenerate group (zero extents) cannot be inverted; treat it as the identity.
  if (values.some((v) => !Number.isFinite(v)) || !cx || !cy || !chcx || !chcy) return undefined;
  return { off: { x, y }, ext: { cx, cy }, chOff: { x: chx, y: chy }, chExt: { cx: chcx, cy: chcy } };
}

/** A member's own box as it appears on the slide. */
export function toSlideSpace(box: Box, chain: readonly GroupTransform[]): Box {
  let result = box;
  for (const g of chain) {
    const sx = g.ext.cx / g.chExt.cx;
    const sy = g.ext.cy / g.chExt.cy;
    result = {
      x: g.off.x + (result.x - g.chOff.x) * sx,
      y: g.off.y + (result.y - g.chOff.y) * sy,
      cx: result.cx * sx,
      cy: result.cy * sy,
    };
  }
  return result;
}

/** A box on the slide expressed in the innermost group's child space. */
export function toChildSpace(box: Box, chain: readonly GroupTransform[]): Box {
  let result = box;
  for (let i = chain.length - 1; i >= 0; i--) {
    const g = chain[i]!;
    const sx = g.chExt.cx / g.ext.cx;
    const sy = g.chExt.cy / g.ext.cy;
    result = {
      x: g.chOff.x + (result.x - g.off.x) * sx,
      y: g.chOff.y + (result.y - g.off.y) * sy,
      cx: result.cx * sx,
      cy: result.cy * sy,
    };
  }
  return result;
}
