/**
 * Placeholder inheritance: a slide placeholder without its own a:xfrm takes its geometry from the layout
 * placeholder with the same idx (or type), which in turn may inherit from the master's placeholder of that
 * type (docs/powerpoint-rules.md "Picture placeholders").
 */
import { child, childElements, descendants, firstDescendant, type XmlElement } from '../xml/index.js';

export interface Box {
  x: number;
  y: number;
  cx: number;
  cy: number;
}

export interface PlaceholderKey {
  type: string;
  idx: number | null;
}

export function ownXfrm(shape: XmlElement): Box | null {
  const spPr = child(shape, 'p:spPr') ?? child(shape, 'p:grpSpPr');
  const xfrm = spPr ? child(spPr, 'a:xfrm') : child(shape, 'p:xfrm');
  const off = xfrm && child(xfrm, 'a:off');
  const ext = xfrm && child(xfrm, 'a:ext');
  if (!off || !ext) return null;
  return {
    x: Number(off.attrs.x) || 0,
    y: Number(off.attrs.y) || 0,
    cx: Number(ext.attrs.cx) || 0,
    cy: Number(ext.attrs.cy) || 0,
  };
}

function placeholderOf(shape: XmlElement): PlaceholderKey | null {
  const nv = shape.children.find((c) => c.kind === 'element' && c.name.startsWith('p:nv')) as
    XmlElement | undefined;
  const ph = nv && firstDescendant(nv, 'p:ph');
  if (!ph) return null;
  return { type: ph.attrs.type ?? 'body', idx: ph.attrs.idx === undefined ? null : Number(ph.attrs.idx) };
}

/** The placeholder shape in `tree` (a layout or master root) that `key` inherits from. */
export function matchingPlaceholder(tree: XmlElement, key: PlaceholderKey): XmlElement | null {
  const spTree = firstDescendant(tree, 'p:spTree');
  if (!spTree) return null;
  let byType: XmlElement | null = null;
  for (const shape of descendants(spTree)) {
    if (!shape.name.startsWith('p:') || !['p:sp', 'p:pic', 'p:graphicFrame'].includes(shape.name)) continue;
    const other = placeholderOf(shape);
    if (!other) continue;
    if (key.idx !== null && other.idx === key.idx) return shape;
    if (!byType && normaliseType(other.type) === normaliseType(key.type)) byType = shape;
  }
  return byType;
}

/** Title and centred title share the master's title placeholder. */
function normaliseType(type: string): string {
  return type === 'ctrTitle' ? 'title' : type === 'subTitle' || type === 'obj' ? 'body' : type;
}

export function placeholderKey(shape: XmlElement): PlaceholderKey | null {
  return placeholderOf(shape);
}

/** The first geometry along an inheritance chain of placeholders (layout, then master). */
export function firstXfrm(chain: readonly XmlElement[]): Box | null {
  for (const placeholder of chain) {
    const box = ownXfrm(placeholder);
    if (box) return box;
  }
  return null;
}

const AUTOFIT = ['a:normAutofit', 'a:noAutofit', 'a:spAutoFit'];

/** The a:bodyPr that decides autofit along the chain: the first that says, else the nearest one. */
export function effectiveBodyPr(chain: readonly XmlElement[]): XmlElement | null {
  const bodies = chain
    .map((p) => firstDescendant(p, 'a:bodyPr'))
    .filter((b): b is XmlElement => b !== undefined);
  return (
    bodies.find((b) => b.children.some((c) => c.kind === 'element' && AUTOFIT.includes(c.name))) ??
    bodies[0] ??
    null
  );
}

export function layoutPlaceholders(layoutRoot: XmlElement): XmlElement[] {
  const spTree = firstDescendant(layoutRoot, 'p:spTree');
  return spTree ? childElements(spTree).filter((s) => placeholderOf(s) !== null) : [];
}
