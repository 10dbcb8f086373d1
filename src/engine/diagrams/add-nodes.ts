/**
 * Adding top-level nodes to a SmartArt graphic (docs/payload.md, SmartArt; docs/powerpoint-rules.md "Adding nodes
 * to a SmartArt graphic"), in the data model PowerPoint reads (dgm:dataModel, ECMA-376 Part 1 §21.4.2) and in the
 * drawing LibreOffice and the PDF draw (dsp:drawing).
 *
 * Data model: each new node is a copy of the last top-level node, without its sub-points: its point, its
 * transition points (parTrans, sibTrans) and its parent-of connection (srcOrd following on), and its presentation
 * points (type="pres", named by presAssocID) with their presOf and presParOf connections, each with a fresh
 * modelId. Presentation points counted by presStyleIdx/presStyleCnt (§21.4.3.7, CT_ElemPropSet) count on. A
 * layout that draws a transition between nodes (an arrow) and none after the last node gets one more for the
 * node that was last, copied from the one before it.
 *
 * Drawing: only where the top-level nodes' boxes form a regular row, column or grid (node-arrangement.ts); the
 * boxes are laid out again in the same extent, the new ones copies of the last, and anything else is refused
 * with the reason. Boxes laid out smaller get their text shrunk with them, every node's alike (node-text-size.ts);
 * transitions (arrows) carry no text.
 */
import { randomUUID } from 'node:crypto';
import { child, childElements, cloneElement, type XmlElement } from '../xml/index.js';
import type { DataModel, DiagramNode } from './diagram-nodes.js';
import { arrangementOf, relaidOut, type Placement, type Point, type Size } from './node-arrangement.js';
import { shrinkText } from './node-text-size.js';
import { append } from '../arrays.js';

/** What was added: the drawn shapes that are copies (to be emptied of the text they were copied with). */
export interface AddedNodes {
  shapes: XmlElement[];
}

/** PowerPoint's rounding, and the small hand edits of real decks, stay within 1 % of the graphic's extent. */
const TOLERANCE = 0.01;
/** Boxes this close to the frame's width (a column) or height (a row) are bars that keep that size. */
const FILLS_FRAME = 0.9;

interface Box extends Point, Size {}

interface Index {
  ptLst: XmlElement;
  cxnLst: XmlElement;
  points: Map<string, XmlElement>;
  /** Presentation points by the point they present (presAssocID), in ptLst order. */
  presByAssoc: Map<string, XmlElement[]>;
  /** Parent-of connections by the node they lead to. */
  parOf: Map<string, XmlElement>;
  cxns: XmlElement[];
}

/** One top-level node's drawn shapes: its own, and the transition drawn after it. */
interface DrawnUnit {
  node: DiagramNode;
  shapes: XmlElement[];
  transition: XmlElement[];
  box: Box;
}

/** A plan that passed every check; adding follows it. */
interface Plan {
  index: Index;
  units: DrawnUnit[];
  spTree: XmlElement;
  placements: Placement[];
}

/**
 * Adds `count` top-level nodes after the last one, or returns why it cannot (a sentence fragment) and changes
 * nothing. `frame` is the graphic frame's size, the space the drawing's coordinates live in; `defaultFontSize`
 * (1/100 pt) the size a drawn run without one shows.
 */
export function addNodes(
  model: DataModel,
  drawing: XmlElement | null,
  frame: Size | null,
  count: number,
  defaultFontSize: number,
): AddedNodes | string {
  const plan = planAddition(model, drawing, frame, count);
  if (typeof plan === 'string') return plan;
  return addPlanned(plan, count, defaultFontSize);
}

function planAddition(
  model: DataModel,
  drawing: XmlElement | null,
  frame: Size | null,
  count: number,
): Plan | string {
  if (!model.cxnLst) return 'the graphic has no connections between its points';
  const spTree = drawing ? child(drawing, 'dsp:spTree') : undefined;
  if (!spTree)
    return 'the template has no drawing of the graphic (its dsp: part), which LibreOffice and the PDF draw';
  const index = indexOf(model.ptLst, model.cxnLst);
  const top = model.nodes.filter((node) => node.level === 0);
  if (top.length < 2) return 'a graphic with one top-level node shows no spacing to follow';
  const drawn = new Map(
    childElements(spTree, 'dsp:sp').map((sp) => [sp.attrs['modelId'] ?? '', sp] as const),
  );
  if (drawn.size === 0) return "the template's drawing of the graphic (its dsp: part) is empty";
  const presented = (ids: readonly string[]): XmlElement[] =>
    ids
      .flatMap((id) => index.presByAssoc.get(id) ?? [])
      .map((pt) => drawn.get(pt.attrs['modelId'] ?? ''))
      .filter((sp): sp is XmlElement => sp !== undefined);
  if (model.nodes.some((node) => node.level > 0 && presented([node.modelId]).length > 0))
    return 'this layout draws sub-points in boxes of their own';
  const last = top[top.length - 1] as DiagramNode;
  const own = new Set(presentationIds(index, nodeIds(index, last)));
  if (last.presentations.some((id) => !own.has(id)))
    return `node ${top.length} is drawn in the box of another node`;
  const units: DrawnUnit[] = [];
  for (const [i, node] of top.entries()) {
    const shapes = presented(nodeIds(index, node));
    const box = boundsOf(shapes);
    if (!box) return `node ${i + 1} has no box of its own in the drawing`;
    units.push({ node, shapes, transition: presented(transitionIds(index, node)), box });
  }
  const extent = boundsOf(units.flatMap((unit) => unit.shapes)) as Box;
  const tolerance = Math.max(2, TOLERANCE * Math.max(extent.cx, extent.cy));
  if (!alike(units, tolerance)) return "this layout's boxes differ in size or in what they are made of";
  if ((units[units.length - 1] as DrawnUnit).transition.length > 0)
    return 'this layout draws a transition after the last node, as a cycle does';
  const arrangement = arrangementOf(
    units.map((unit) => unit.box),
    tolerance,
  );
  const withTransitions = units.some((unit) => unit.transition.length > 0);
  if (!arrangement || (arrangement.kind === 'grid' && withTransitions))
    return "this layout's boxes are not in a row, column or grid";
  const size = (units[0] as DrawnUnit).box;
  const fills =
    arrangement.kind === 'line' &&
    frame !== null &&
    (arrangement.axis === 'x' ? size.cy >= FILLS_FRAME * frame.cy : size.cx >= FILLS_FRAME * frame.cx);
  return { index, units, spTree, placements: relaidOut(arrangement, size, units.length + count, fills) };
}

function addPlanned(plan: Plan, count: number, defaultFontSize: number): AddedNodes {
  const { index, units, spTree, placements } = plan;
  const last = units[units.length - 1] as DrawnUnit;
  const before = units[units.length - 2] as DrawnUnit;
  const styles = new StyleCounter(index);
  const nesting = new NestingOrder(index, [
    ...presentationIds(index, nodeIds(index, last.node)),
    ...presentationIds(index, transitionIds(index, last.node)),
  ]);
  // The node that was last now has a successor: it gets the transition the node before it has, unless it has one.
  const lastTransition = index.presByAssoc.get(sibTransId(index, last.node) ?? '') ?? [];
  const transitionSource = lastTransition.length > 0 ? last : before;
  const copies: XmlElement[] = [];
  const nodeCopies: XmlElement[] = [];
  const addTransition = (node: string, placement: Placement): void => {
    const from = sibTransId(index, transitionSource.node);
    const to = sibTransIdOf(index, node);
    if (!from || !to || from === to) return;
    const map = copyPresentation(index, new Map([[from, to]]), styles, nesting);
    for (const sp of transitionSource.transition)
      copies.push(copyShape(sp, map, transitionSource.box, placement));
  };
  if (lastTransition.length === 0)
    addTransition(last.node.modelId, placements[units.length - 1] as Placement);
  const parent = index.parOf.get(last.node.modelId)?.attrs['srcId'];
  const siblings = [...index.parOf.values()].filter((cxn) => cxn.attrs['srcId'] === parent);
  const largestOrder = Math.max(...siblings.map((cxn) => Number(cxn.attrs['srcOrd'] ?? 0)));
  for (let k = 0; k < count; k++) {
    const placement = placements[units.length + k] as Placement;
    const dataMap = copyNode(index, last.node, largestOrder + 1 + k);
    const map = copyPresentation(index, dataMap, styles, nesting);
    const shapes = last.shapes.map((sp) => copyShape(sp, map, last.box, placement));
    append(copies, shapes);
    append(nodeCopies, shapes);
    if (k < count - 1 || lastTransition.length > 0)
      addTransition(dataMap.get(last.node.modelId) ?? '', placement);
  }
  units.forEach((unit, i) => {
    const placement = placements[i] as Placement;
    for (const sp of [...unit.shapes, ...unit.transition]) place(sp, unit.box, placement);
  });
  // The boxes shrink alike; the text shrinks with the dimension that bounds it (a row's width, a column of
  // bars' height), which is the smaller scale.
  const first = placements[0] as Placement;
  const textScale = Math.min(first.sx, first.sy);
  for (const sp of [...units.flatMap((unit) => unit.shapes), ...nodeCopies])
    shrinkText(sp, textScale, defaultFontSize);
  insertAfter(spTree, [...last.shapes, ...last.transition], copies);
  nesting.write();
  styles.write();
  return { shapes: copies };
}

function newId(): string {
  return `{${randomUUID().toUpperCase()}}`;
}

function indexOf(ptLst: XmlElement, cxnLst: XmlElement): Index {
  const points = new Map<string, XmlElement>();
  const presByAssoc = new Map<string, XmlElement[]>();
  for (const pt of childElements(ptLst, 'dgm:pt')) {
    points.set(pt.attrs['modelId'] ?? '', pt);
    const assoc = pt.attrs['type'] === 'pres' ? child(pt, 'dgm:prSet')?.attrs['presAssocID'] : undefined;
    if (assoc) presByAssoc.set(assoc, [...(presByAssoc.get(assoc) ?? []), pt]);
  }
  const cxns = childElements(cxnLst, 'dgm:cxn');
  const parOf = new Map<string, XmlElement>();
  for (const cxn of cxns)
    if ((cxn.attrs['type'] ?? 'parOf') === 'parOf') parOf.set(cxn.attrs['destId'] ?? '', cxn);
  return { ptLst, cxnLst, points, presByAssoc, parOf, cxns };
}

function sibTransId(index: Index, node: DiagramNode): string | undefined {
  return sibTransIdOf(index, node.modelId);
}

function sibTransIdOf(index: Index, node: string): string | undefined {
  return index.parOf.get(node)?.attrs['sibTransId'];
}

/** The node and its parent transition: what a node's own boxes present. */
function nodeIds(index: Index, node: DiagramNode): string[] {
  const parTrans = index.parOf.get(node.modelId)?.attrs['parTransId'];
  return parTrans ? [node.modelId, parTrans] : [node.modelId];
}

function transitionIds(index: Index, node: DiagramNode): string[] {
  const id = sibTransId(index, node);
  return id ? [id] : [];
}

function presentationIds(index: Index, ids: readonly string[]): string[] {
  return ids.flatMap((id) => index.presByAssoc.get(id) ?? []).map((pt) => pt.attrs['modelId'] ?? '');
}

/**
 * Copies the node point, its transition points and its parent-of connection (at `order` among its siblings);
 * returns the new ids by the old.
 */
function copyNode(index: Index, node: DiagramNode, order: number): Map<string, string> {
  const map = new Map([[node.modelId, newId()]]);
  const cxn = index.parOf.get(node.modelId) as XmlElement;
  const cxnId = newId();
  const copy = cloneElement(cxn);
  Object.assign(copy.attrs, { modelId: cxnId, destId: map.get(node.modelId), srcOrd: String(order) });
  const points = [cloneElement(node.point)];
  for (const key of ['parTransId', 'sibTransId']) {
    const id = cxn.attrs[key];
    const point = id ? index.points.get(id) : undefined;
    if (!id || !point) {
      delete copy.attrs[key];
      continue;
    }
    const pointCopy = cloneElement(point);
    map.set(id, newId());
    Object.assign(pointCopy.attrs, { modelId: map.get(id), cxnId });
    points.push(pointCopy);
    copy.attrs[key] = map.get(id) as string;
  }
  (points[0] as XmlElement).attrs['modelId'] = map.get(node.modelId) as string;
  for (const point of points) register(index, point);
  index.cxnLst.children.push(copy);
  index.parOf.set(copy.attrs['destId'] as string, copy);
  return map;
}

function register(index: Index, point: XmlElement): void {
  index.ptLst.children.push(point);
  index.points.set(point.attrs['modelId'] ?? '', point);
}

/**
 * Copies the presentation points of the data points in `dataMap` (old id to new), with their presOf and
 * presParOf connections; returns the new presentation ids by the old (with `dataMap`'s entries).
 */
function copyPresentation(
  index: Index,
  dataMap: Map<string, string>,
  styles: StyleCounter,
  nesting: NestingOrder,
): Map<string, string> {
  const map = new Map(dataMap);
  const sources = [...dataMap.keys()].flatMap((id) => index.presByAssoc.get(id) ?? []);
  for (const pt of sources) map.set(pt.attrs['modelId'] ?? '', newId());
  for (const pt of sources) {
    const copy = cloneElement(pt);
    copy.attrs['modelId'] = map.get(pt.attrs['modelId'] ?? '') as string;
    const prSet = child(copy, 'dgm:prSet');
    if (prSet) {
      prSet.attrs['presAssocID'] = map.get(prSet.attrs['presAssocID'] ?? '') as string;
      styles.count(prSet);
    }
    register(index, copy);
  }
  for (const cxn of index.cxns) {
    const type = cxn.attrs['type'];
    const src = cxn.attrs['srcId'] ?? '';
    const dest = cxn.attrs['destId'] ?? '';
    const copied =
      (type === 'presOf' && dataMap.has(src) && map.has(dest)) || (type === 'presParOf' && map.has(dest));
    if (!copied) continue;
    const copy = cloneElement(cxn);
    Object.assign(copy.attrs, { modelId: newId(), srcId: map.get(src) ?? src, destId: map.get(dest) });
    index.cxnLst.children.push(copy);
    if (type === 'presParOf' && !map.has(src)) nesting.add(copy);
  }
  return map;
}

/**
 * presStyleIdx counts the presentation points of one name and style label, presStyleCnt says how many there
 * are: copies take the next indices, and every point of a name that grew gets the new count.
 */
class StyleCounter {
  private readonly largest = new Map<string, number>();
  private readonly added = new Map<string, number>();

  constructor(private readonly index: Index) {
    for (const prSet of this.prSets()) {
      const idx = prSet.attrs['presStyleIdx'];
      if (idx !== undefined)
        this.largest.set(key(prSet), Math.max(this.largest.get(key(prSet)) ?? -1, Number(idx)));
    }
  }

  count(prSet: XmlElement): void {
    if (prSet.attrs['presStyleIdx'] === undefined) return;
    const next = (this.largest.get(key(prSet)) ?? -1) + 1;
    this.largest.set(key(prSet), next);
    prSet.attrs['presStyleIdx'] = String(next);
    this.added.set(key(prSet), (this.added.get(key(prSet)) ?? 0) + 1);
  }

  write(): void {
    for (const prSet of this.prSets()) {
      const added = this.added.get(key(prSet));
      const cnt = prSet.attrs['presStyleCnt'];
      if (added && cnt !== undefined) prSet.attrs['presStyleCnt'] = String(Number(cnt) + added);
    }
  }

  private prSets(): XmlElement[] {
    return [...this.index.points.values()]
      .filter((pt) => pt.attrs['type'] === 'pres')
      .map((pt) => child(pt, 'dgm:prSet'))
      .filter((prSet): prSet is XmlElement => prSet !== undefined);
  }
}

function key(prSet: XmlElement): string {
  return `${prSet.attrs['presName'] ?? ''}|${prSet.attrs['presStyleLbl'] ?? ''}`;
}

/**
 * The presentation tree's order (presParOf srcOrd): copies go, in the order they are made, right after the last
 * node's presentation points under the same parent, and the parent's children are numbered again.
 */
class NestingOrder {
  private readonly added = new Map<string, XmlElement[]>();
  private readonly anchors: Set<string>;

  constructor(
    private readonly index: Index,
    anchors: readonly string[],
  ) {
    this.anchors = new Set(anchors);
  }

  add(cxn: XmlElement): void {
    const parent = cxn.attrs['srcId'] ?? '';
    this.added.set(parent, [...(this.added.get(parent) ?? []), cxn]);
  }

  write(): void {
    for (const [parent, added] of this.added) {
      const existing = this.index.cxns
        .filter((cxn) => cxn.attrs['type'] === 'presParOf' && cxn.attrs['srcId'] === parent)
        .sort((a, b) => Number(a.attrs['srcOrd'] ?? 0) - Number(b.attrs['srcOrd'] ?? 0));
      let anchor = existing.length - 1;
      while (anchor >= 0 && !this.anchors.has(existing[anchor]?.attrs['destId'] ?? '')) anchor--;
      const at = anchor < 0 ? existing.length : anchor + 1;
      [...existing.slice(0, at), ...added, ...existing.slice(at)].forEach(
        (cxn, i) => (cxn.attrs['srcOrd'] = String(i)),
      );
    }
  }
}

/** The box of a drawn shape (dsp:spPr/a:xfrm), or null without one. */
function boxOf(sp: XmlElement): Box | null {
  const spPr = child(sp, 'dsp:spPr');
  const xfrm = spPr && child(spPr, 'a:xfrm');
  return xfrm ? xfrmBox(xfrm) : null;
}

function xfrmBox(xfrm: XmlElement): Box | null {
  const off = child(xfrm, 'a:off');
  const ext = child(xfrm, 'a:ext');
  const box = {
    x: Number(off?.attrs['x']),
    y: Number(off?.attrs['y']),
    cx: Number(ext?.attrs['cx']),
    cy: Number(ext?.attrs['cy']),
  };
  return Object.values(box).every(Number.isFinite) ? box : null;
}

function boundsOf(shapes: readonly XmlElement[]): Box | null {
  const boxes = shapes.map(boxOf);
  if (boxes.length === 0 || boxes.some((box) => box === null)) return null;
  const all = boxes as Box[];
  const x = Math.min(...all.map((b) => b.x));
  const y = Math.min(...all.map((b) => b.y));
  return {
    x,
    y,
    cx: Math.max(...all.map((b) => b.x + b.cx)) - x,
    cy: Math.max(...all.map((b) => b.y + b.cy)) - y,
  };
}

/**
 * Every node drawn alike: the same number of shapes (in the data model's order) of the same sizes at the same
 * places within its box, and the same transition after it (but after the last).
 */
function alike(units: readonly DrawnUnit[], tolerance: number): boolean {
  const first = units[0] as DrawnUnit;
  const near = (a: number, b: number): boolean => Math.abs(a - b) <= tolerance;
  const sameShapes = (a: XmlElement[], aBox: Box, b: XmlElement[], bBox: Box): boolean =>
    a.length === b.length &&
    a.every((sp, i) => {
      const one = boxOf(sp);
      const other = boxOf(b[i] as XmlElement);
      return (
        one !== null &&
        other !== null &&
        near(one.cx, other.cx) &&
        near(one.cy, other.cy) &&
        near(one.x - aBox.x, other.x - bBox.x) &&
        near(one.y - aBox.y, other.y - bBox.y)
      );
    });
  const between = units.slice(0, -1);
  return (
    units.every((unit) => sameShapes(first.shapes, first.box, unit.shapes, unit.box)) &&
    between.every((unit) => sameShapes(first.transition, first.box, unit.transition, unit.box))
  );
}

/** Moves and scales a shape's box and its text box from the unit box `from` to `placement`. */
function place(sp: XmlElement, from: Point, placement: Placement): void {
  const spPr = child(sp, 'dsp:spPr');
  const xfrm = spPr && child(spPr, 'a:xfrm');
  const txXfrm = child(sp, 'dsp:txXfrm');
  for (const el of [xfrm, txXfrm]) {
    const box = el && xfrmBox(el);
    if (!el || !box) continue;
    const off = child(el, 'a:off') as XmlElement;
    const ext = child(el, 'a:ext') as XmlElement;
    off.attrs['x'] = String(Math.round(placement.x + (box.x - from.x) * placement.sx));
    off.attrs['y'] = String(Math.round(placement.y + (box.y - from.y) * placement.sy));
    ext.attrs['cx'] = String(Math.round(box.cx * placement.sx));
    ext.attrs['cy'] = String(Math.round(box.cy * placement.sy));
  }
}

/** A copy of a drawn shape for the presentation point its modelId maps to, placed at `placement`. */
function copyShape(sp: XmlElement, map: Map<string, string>, from: Point, placement: Placement): XmlElement {
  const copy = cloneElement(sp);
  copy.attrs['modelId'] = map.get(sp.attrs['modelId'] ?? '') ?? newId();
  place(copy, from, placement);
  return copy;
}

/** Puts `shapes` in the tree right after the last of `after`, so they are drawn above the boxes before them. */
function insertAfter(spTree: XmlElement, after: readonly XmlElement[], shapes: readonly XmlElement[]): void {
  const at = Math.max(...after.map((sp) => spTree.children.indexOf(sp))) + 1;
  spTree.children.splice(at, 0, ...shapes);
}
