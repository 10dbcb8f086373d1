/**
 * Shape-level settings: position and size (`a:xfrm`) and a solid fill, written into the shape's properties
 * element in schema order (CT_ShapeProperties: xfrm, custGeom|prstGeom, fill, ln, effect, scene3d, sp3d, extLst).
 */
import type { Warning } from '../errors.js';
import type { ShapeSettings } from '../payload/model.js';
import { setSolidFill } from './solid-fill.js';
import { child, element, insertInOrder, type XmlElement } from '../xml/index.js';
import { shapeVariants, type FoundShape } from './find-shape.js';
import { enclosingGroups, toChildSpace, toSlideSpace, type Box } from './group-transform.js';

export type { Box } from './group-transform.js';

/** CT_ShapeProperties child order (ECMA-376 Part 1, DrawingML). */
export const SHAPE_PROPERTIES_ORDER = [
  'a:xfrm',
  'a:custGeom',
  'a:prstGeom',
  'a:noFill',
  'a:solidFill',
  'a:gradFill',
  'a:blipFill',
  'a:pattFill',
  'a:grpFill',
  'a:ln',
  'a:effectLst',
  'a:effectDag',
  'a:scene3d',
  'a:sp3d',
  'a:extLst',
] as const;

/** CT_GroupShapeProperties: xfrm, fill, effect, scene3d, extLst. */
const GROUP_PROPERTIES_ORDER = [
  'a:xfrm',
  ...SHAPE_PROPERTIES_ORDER.slice(3, 9),
  'a:effectLst',
  'a:effectDag',
  'a:scene3d',
  'a:extLst',
];

/** Shapes with a transform we know how to write (an ink p:contentPart keeps its own in p14:xfrm). */
const MOVABLE = new Set(['p:sp', 'p:pic', 'p:cxnSp', 'p:graphicFrame', 'p:grpSp']);

/** Where p:spPr goes in each shape element (PresentationML CT_Shape, CT_Picture, CT_Connector). */
const SHAPE_CHILD_ORDER: Record<string, readonly string[]> = {
  'p:sp': ['p:nvSpPr', 'p:spPr', 'p:style', 'p:txBody', 'p:extLst'],
  'p:pic': ['p:nvPicPr', 'p:blipFill', 'p:spPr', 'p:style', 'p:extLst'],
  'p:cxnSp': ['p:nvCxnSpPr', 'p:spPr', 'p:style', 'p:extLst'],
};

/** The transform element of a shape: a:xfrm in p:spPr / p:grpSpPr, p:xfrm directly in a graphic frame. */
export function ownXfrm(shapeEl: XmlElement): XmlElement | undefined {
  if (shapeEl.name === 'p:graphicFrame') return child(shapeEl, 'p:xfrm');
  const props = child(shapeEl, shapeEl.name === 'p:grpSp' ? 'p:grpSpPr' : 'p:spPr');
  return props ? child(props, 'a:xfrm') : undefined;
}

/** The shape's own box, when it has one (a placeholder often inherits it from its layout). */
export function ownBox(shapeEl: XmlElement): Box | null {
  const xfrm = ownXfrm(shapeEl);
  const off = xfrm ? child(xfrm, 'a:off') : undefined;
  const ext = xfrm ? child(xfrm, 'a:ext') : undefined;
  if (!off || !ext) return null;
  const num = (el: XmlElement, name: string): number => Number.parseInt(el.attrs[name] ?? '0', 10) || 0;
  return { x: num(off, 'x'), y: num(off, 'y'), cx: num(ext, 'cx'), cy: num(ext, 'cy') };
}

/** left/top/width/height are slide coordinates, also for a shape inside a (scaled) group. */
export function applySettings(
  spTree: XmlElement,
  shape: FoundShape,
  settings: ShapeSettings,
  inherited: () => Box | null,
  warnings: Warning[],
  path: string,
): void {
  const geometry = [settings.left, settings.top, settings.width, settings.height];
  if (geometry.some((v) => v !== undefined)) {
    const groups = enclosingGroups(spTree, shape);
    for (const shapeEl of shapeVariants(shape)) {
      if (!MOVABLE.has(shapeEl.name)) {
        warnings.push({
          path,
          message: `shape "${shape.name}" (${shapeEl.name}) cannot be moved or resized here`,
        });
        continue;
      }
      setGeometry(shapeEl, settings, groups, inherited, warnings, path, shape.name);
    }
  }
  if (settings.fillColor !== undefined) {
    if (shape.kind === 'group' || shape.element.name === 'p:graphicFrame' || shape.kind === 'other') {
      warnings.push({
        path: `${path}.fill_color`,
        message: `fill_color is not applied to shape "${shape.name}": a ${shape.kind} has no fill of its own here`,
      });
    } else {
      for (const shapeEl of shapeVariants(shape))
        setSolidFill(shapePropertiesOf(shapeEl), settings.fillColor, SHAPE_PROPERTIES_ORDER);
    }
  }
}

function setGeometry(
  shapeEl: XmlElement,
  settings: ShapeSettings,
  groups: Parameters<typeof toSlideSpace>[1],
  inherited: () => Box | null,
  warnings: Warning[],
  path: string,
  name: string,
): void {
  const own = ownBox(shapeEl);
  const current = own ? toSlideSpace(own, groups) : inherited();
  const x = settings.left ?? current?.x;
  const y = settings.top ?? current?.y;
  const cx = settings.width ?? current?.cx;
  const cy = settings.height ?? current?.cy;
  if (x === undefined || y === undefined || cx === undefined || cy === undefined) {
    warnings.push({
      path,
      message: `shape "${name}" has no position of its own or from its layout; give left, top, width and height together`,
    });
    return;
  }
  const local = toChildSpace({ x, y, cx, cy }, groups);
  // EMU coordinates are integers; extents are never negative (docs/powerpoint-rules.md "Integer attributes").
  const off = element('a:off', { x: String(Math.round(local.x)), y: String(Math.round(local.y)) });
  const ext = element('a:ext', {
    cx: String(Math.max(0, Math.round(local.cx))),
    cy: String(Math.max(0, Math.round(local.cy))),
  });
  const existing = ownXfrm(shapeEl);
  if (existing) {
    insertInOrder(existing, off, ['a:off', 'a:ext', 'a:chOff', 'a:chExt']);
    insertInOrder(existing, ext, ['a:off', 'a:ext', 'a:chOff', 'a:chExt']);
    return;
  }
  if (shapeEl.name === 'p:graphicFrame') {
    // CT_GraphicalObjectFrame: nvGraphicFramePr, xfrm, graphic, extLst.
    insertInOrder(shapeEl, element('p:xfrm', {}, [off, ext]), [
      'p:nvGraphicFramePr',
      'p:xfrm',
      'a:graphic',
      'p:extLst',
    ]);
  } else if (shapeEl.name === 'p:grpSp') {
    // A new group transform maps the members' own coordinates one to one.
    const current = { ...off.attrs, ...ext.attrs };
    const chOff = element('a:chOff', { x: current.x!, y: current.y! });
    const chExt = element('a:chExt', { cx: current.cx!, cy: current.cy! });
    const props = child(shapeEl, 'p:grpSpPr') ?? element('p:grpSpPr');
    if (!child(shapeEl, 'p:grpSpPr')) insertInOrder(shapeEl, props, ['p:nvGrpSpPr', 'p:grpSpPr']);
    insertInOrder(props, element('a:xfrm', {}, [off, ext, chOff, chExt]), GROUP_PROPERTIES_ORDER);
  } else {
    insertInOrder(shapePropertiesOf(shapeEl), element('a:xfrm', {}, [off, ext]), SHAPE_PROPERTIES_ORDER);
  }
}

/** p:spPr of a p:sp / p:pic / p:cxnSp, created in its schema place when missing. */
function shapePropertiesOf(shapeEl: XmlElement): XmlElement {
  const existing = child(shapeEl, 'p:spPr');
  if (existing) return existing;
  const spPr = element('p:spPr');
  insertInOrder(shapeEl, spPr, SHAPE_CHILD_ORDER[shapeEl.name] ?? ['p:spPr']);
  return spPr;
}
