/**
 * A solid fill (DrawingML's EG_FillProperties, ECMA-376 Part 1 §20.1.8): written the same way on shape
 * properties, run properties, table cells and charts.
 */
import { childElements, element, insertInOrder, removeNode, type XmlElement } from '../xml/index.js';

/** EG_FillProperties: one of these at most. */
export const FILL_CHOICE = [
  'a:noFill',
  'a:solidFill',
  'a:gradFill',
  'a:blipFill',
  'a:pattFill',
  'a:grpFill',
] as const;

/** Replaces whatever fill the element has with a solid sRGB fill, at its place in `order`. */
export function setSolidFill(parent: XmlElement, rrggbb: string, order: readonly string[]): void {
  for (const el of childElements(parent)) {
    if ((FILL_CHOICE as readonly string[]).includes(el.name)) removeNode(parent, el);
  }
  insertInOrder(parent, element('a:solidFill', {}, [srgb(rrggbb)]), order);
}

export function srgb(rrggbb: string): XmlElement {
  return element('a:srgbClr', { val: rrggbb.replace(/^#/, '').toUpperCase() });
}
