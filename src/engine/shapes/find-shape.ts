/**
 * Finding shapes on a slide's shape tree (`p:spTree`) by name or id, also inside groups and inside
 * `mc:AlternateContent`, and telling what kind of shape each one is so the right filler gets it.
 */
import type { ShapeTarget } from '../payload/model.js';
import { child, childElements, localName, type XmlElement } from '../xml/index.js';
import type { ShapeKind } from './shape-kinds.js';

export interface FoundShape {
  /**
   * p:sp | p:pic | p:graphicFrame | p:grpSp | p:cxnSp | p:contentPart | mc:AlternateContent. When the shape
   * lives in `mc:Choice`, this is the AlternateContent, so removing or hiding it covers both branches.
   */
  element: XmlElement;
  /** The spTree or p:grpSp it sits in. */
  parent: XmlElement;
  kind: ShapeKind;
  id: number;
  name: string;
  placeholder: { type: string; idx: number | null } | null;
}

/** Elements of CT_GroupShape's shape choice (PresentationML §19.3.1.22) plus the markup-compatibility wrapper. */
const SHAPE_ELEMENTS = new Set(['p:sp', 'p:pic', 'p:graphicFrame', 'p:grpSp', 'p:cxnSp', 'p:contentPart']);
const ALTERNATE_CONTENT = 'mc:AlternateContent';

/**
 * a:graphicData/@uri values, ECMA-376 Part 1 §20/§21 plus Office 2014 chartEx (docs/powerpoint-rules.md
 * "chartEx charts").
 */
const GRAPHIC_KINDS: Record<string, ShapeKind> = {
  'http://schemas.openxmlformats.org/drawingml/2006/table': 'table',
  'http://schemas.openxmlformats.org/drawingml/2006/chart': 'chart',
  'http://schemas.microsoft.com/office/drawing/2014/chartex': 'chart',
  'http://schemas.openxmlformats.org/drawingml/2006/diagram': 'smartart',
  'http://schemas.openxmlformats.org/presentationml/2006/ole': 'ole',
};

const MEDIA_ELEMENTS = ['a:videoFile', 'a:audioFile', 'a:quickTimeFile', 'a:wavAudioFile', 'a:audioCd'];

/** Every shape in document order, recursing into groups (the group itself is listed before its members). */
export function listShapes(spTree: XmlElement): FoundShape[] {
  const result: FoundShape[] = [];
  collect(spTree, result);
  return result;
}

function collect(container: XmlElement, out: FoundShape[]): void {
  for (const el of childElements(container)) {
    if (SHAPE_ELEMENTS.has(el.name)) {
      out.push(describe(el, el, container));
      if (el.name === 'p:grpSp') collect(el, out);
    } else if (el.name === ALTERNATE_CONTENT) {
      const inner = alternateContentShape(el);
      if (!inner) continue;
      out.push(describe(el, inner, container));
      // A group inside mc:Choice: its members are edited in the Choice branch only (the Fallback is what
      // old readers show; docs/powerpoint-rules.md "Namespaces and mc:Ignorable").
      if (inner.name === 'p:grpSp') collect(inner, out);
    }
  }
}

/** The shape inside `mc:Choice` (first choice holding one), else inside `mc:Fallback`. */
export function alternateContentShape(ac: XmlElement): XmlElement | undefined {
  const branches = [...childElements(ac, 'mc:Choice'), ...childElements(ac, 'mc:Fallback')];
  for (const branch of branches) {
    const shape = childElements(branch).find((el) => SHAPE_ELEMENTS.has(el.name));
    if (shape) return shape;
  }
  return undefined;
}

/** The shape elements a FoundShape stands for: itself, or the shape in every branch of its AlternateContent. */
export function shapeVariants(shape: FoundShape): XmlElement[] {
  if (shape.element.name !== ALTERNATE_CONTENT) return [shape.element];
  const result: XmlElement[] = [];
  for (const branch of childElements(shape.element)) {
    for (const el of childElements(branch)) if (SHAPE_ELEMENTS.has(el.name)) result.push(el);
  }
  return result;
}

/** The non-visual properties element (p:nvSpPr, p:nvPicPr, …, p14:nvContentPartPr): the first child named nv…Pr. */
export function nonVisualProps(shapeEl: XmlElement): XmlElement | undefined {
  return childElements(shapeEl).find((el) => /^nv.*Pr$/.test(localName(el.name)));
}

/** p:cNvPr (or p14:cNvPr for content parts) of a shape element. */
export function cNvPr(shapeEl: XmlElement): XmlElement | undefined {
  const nv = nonVisualProps(shapeEl);
  return nv ? childElements(nv).find((el) => localName(el.name) === 'cNvPr') : undefined;
}

function describe(element: XmlElement, shapeEl: XmlElement, parent: XmlElement): FoundShape {
  const props = cNvPr(shapeEl);
  const placeholder = placeholderOf(shapeEl);
  return {
    element,
    parent,
    kind: kindOf(shapeEl, placeholder),
    id: Number.parseInt(props?.attrs['id'] ?? '', 10) || 0,
    name: props?.attrs['name'] ?? '',
    placeholder,
  };
}

function placeholderOf(shapeEl: XmlElement): FoundShape['placeholder'] {
  const nv = nonVisualProps(shapeEl);
  const nvPr = nv ? child(nv, 'p:nvPr') : undefined;
  const ph = nvPr ? child(nvPr, 'p:ph') : undefined;
  if (!ph) return null;
  const idx = ph.attrs['idx'];
  // ST_PlaceholderType defaults to "obj" when @type is absent (PresentationML §19.7.10).
  return { type: ph.attrs['type'] ?? 'obj', idx: idx === undefined ? null : Number.parseInt(idx, 10) };
}

function kindOf(shapeEl: XmlElement, placeholder: FoundShape['placeholder']): ShapeKind {
  switch (shapeEl.name) {
    case 'p:sp': {
      // An empty picture placeholder is a p:sp without text until a picture goes in (docs/powerpoint-rules.md
      // "Picture placeholders").
      const body = child(shapeEl, 'p:txBody');
      if (placeholder?.type === 'pic' && (!body || !hasText(body))) return 'picture';
      // Any other auto-shape can hold text; one without a txBody gets one when text is written.
      return 'text';
    }
    case 'p:pic':
      return isMedia(shapeEl) ? 'media' : 'picture';
    case 'p:graphicFrame': {
      const graphic = child(shapeEl, 'a:graphic');
      const data = graphic ? child(graphic, 'a:graphicData') : undefined;
      return GRAPHIC_KINDS[data?.attrs['uri'] ?? ''] ?? 'other';
    }
    case 'p:grpSp':
      return 'group';
    case 'p:cxnSp':
      return 'connector';
    default:
      return 'other';
  }
}

function hasText(txBody: XmlElement): boolean {
  for (const p of childElements(txBody, 'a:p')) {
    for (const run of childElements(p, 'a:r')) {
      const t = child(run, 'a:t');
      if (t && t.children.some((n) => n.kind === 'text' && n.text !== '')) return true;
    }
  }
  return false;
}

function isMedia(pic: XmlElement): boolean {
  const nv = child(pic, 'p:nvPicPr');
  const nvPr = nv ? child(nv, 'p:nvPr') : undefined;
  return nvPr !== undefined && MEDIA_ELEMENTS.some((name) => child(nvPr, name) !== undefined);
}

/**
 * The shape a payload entry targets. By name: exact match on `p:cNvPr/@name`; when several shapes share it,
 * the first in document order is returned and `sameNameCount` says how many there are (the caller warns).
 */
export function findShape(
  spTree: XmlElement,
  target: ShapeTarget,
): { shape: FoundShape | undefined; sameNameCount: number } {
  return findInList(listShapes(spTree), target);
}

/** findShape over an already computed listShapes result (a slide with many entries lists its shapes once). */
export function findInList(
  shapes: readonly FoundShape[],
  target: ShapeTarget,
): { shape: FoundShape | undefined; sameNameCount: number } {
  const matches = shapes.filter((s) => (target.by === 'name' ? s.name === target.name : s.id === target.id));
  return { shape: matches[0], sameNameCount: matches.length };
}
