/**
 * Deleting a shape and everything on the slide that points at it (docs/powerpoint-rules.md "Removing a shape"):
 * animation effects and build entries, connector attachments. Relationships the removed XML used are left to the
 * package layer's reachability pruning (never by scanning for r:id here: docs/powerpoint-rules.md
 * "Relationships no attribute names").
 */
import { child, childElements, descendants, localName, removeNode, type XmlElement } from '../xml/index.js';
import { removeAnimationsOf } from './animation-timing.js';
import { listShapes, shapeVariants, type FoundShape } from './find-shape.js';

export function removeShape(slideRoot: XmlElement, shape: FoundShape): void {
  const ids = shapeIdsWithin(shape.element);
  removeNode(shape.parent, shape.element);
  removeAnimationsOf(slideRoot, ids);
  detachConnectors(slideRoot, ids);
  // A group left without members would be an invisible, unselectable frame: remove it too.
  const spTree = spTreeOf(slideRoot);
  if (spTree && shape.parent.name === 'p:grpSp' && !hasShapes(shape.parent)) {
    const group = listShapes(spTree).find((s) => shapeVariants(s).includes(shape.parent));
    if (group) removeShape(slideRoot, group);
  }
}

function spTreeOf(slideRoot: XmlElement): XmlElement | undefined {
  const cSld = child(slideRoot, 'p:cSld');
  return cSld ? child(cSld, 'p:spTree') : undefined;
}

function hasShapes(group: XmlElement): boolean {
  return childElements(group).some((el) => !['p:nvGrpSpPr', 'p:grpSpPr', 'p:extLst'].includes(el.name));
}

/** Ids of the shape, of every member if it is a group, and of both AlternateContent branches. */
function shapeIdsWithin(element: XmlElement): Set<number> {
  const ids = new Set<number>();
  for (const el of [element, ...descendants(element)]) {
    if (localName(el.name) !== 'cNvPr') continue;
    const id = Number.parseInt(el.attrs['id'] ?? '', 10);
    if (Number.isInteger(id)) ids.add(id);
  }
  return ids;
}

/** A connector glued to a removed shape becomes a free line: drop its a:stCxn / a:endCxn. */
function detachConnectors(slideRoot: XmlElement, ids: ReadonlySet<number>): void {
  for (const props of descendants(slideRoot, 'p:cNvCxnSpPr')) {
    for (const end of childElements(props)) {
      if (
        (end.name === 'a:stCxn' || end.name === 'a:endCxn') &&
        ids.has(Number.parseInt(end.attrs['id'] ?? '', 10))
      ) {
        removeNode(props, end);
      }
    }
  }
}
