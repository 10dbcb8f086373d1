/** Small typed queries over the tree, by qualified name. */
import type { XmlElement, XmlNode } from './node.js';

export function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

/*
 * The loops here index their arrays instead of using for...of: these run for every element of every slide,
 * and in a short process (`deckforge generate`) most of that runs before V8 optimises it, when each for...of
 * step allocates an iterator result (~5 MB of garbage for 1 000 slides).
 */

export function child(el: XmlElement, name: string): XmlElement | undefined {
  const children = el.children;
  for (let i = 0; i < children.length; i++) {
    const node = children[i]!;
    if (node.kind === 'element' && node.name === name) return node;
  }
  return undefined;
}

export function childElements(el: XmlElement, name?: string): XmlElement[] {
  const result: XmlElement[] = [];
  const children = el.children;
  for (let i = 0; i < children.length; i++) {
    const node = children[i]!;
    if (node.kind === 'element' && (name === undefined || node.name === name)) result.push(node);
  }
  return result;
}

/** Elements below `el` in document order. Walks with an explicit stack: nested generators cost O(depth) per step. */
export function* descendants(el: XmlElement, name?: string): Generator<XmlElement> {
  const stack: { children: XmlNode[]; index: number }[] = [{ children: el.children, index: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.index >= top.children.length) {
      stack.pop();
      continue;
    }
    const node = top.children[top.index++]!;
    if (node.kind !== 'element') continue;
    if (name === undefined || node.name === name) yield node;
    if (node.children.length > 0) stack.push({ children: node.children, index: 0 });
  }
}

export function firstDescendant(el: XmlElement, name: string): XmlElement | undefined {
  const children = el.children;
  for (let i = 0; i < children.length; i++) {
    const node = children[i]!;
    if (node.kind !== 'element') continue;
    if (node.name === name) return node;
    const found = firstDescendant(node, name);
    if (found) return found;
  }
  return undefined;
}

export function textContent(el: XmlElement): string {
  let result = '';
  const children = el.children;
  for (let i = 0; i < children.length; i++) {
    const node = children[i]!;
    if (node.kind === 'text') result += node.text;
    else if (node.kind === 'element') result += textContent(node);
  }
  return result;
}

/**
 * Inserts `node` into `parent` at the place an XSD sequence demands (`order` lists the qualified names in
 * schema order, docs/powerpoint-rules.md "Schema order of property children"). An existing child of the same name
 * is replaced: the sequences we edit hold each of these children at most once. Children not named in `order` keep
 * their place.
 */
export function insertInOrder(parent: XmlElement, node: XmlElement, order: readonly string[]): void {
  const rank = order.indexOf(node.name);
  const children = parent.children;
  for (let i = 0; i < children.length; i++) {
    const existing = children[i]!;
    if (existing.kind === 'element' && existing.name === node.name) {
      children[i] = node;
      return;
    }
  }
  if (rank < 0) {
    children.push(node);
    return;
  }
  for (let i = 0; i < children.length; i++) {
    const existing = children[i]!;
    if (existing.kind !== 'element') continue;
    const otherRank = order.indexOf(existing.name);
    if (otherRank > rank) {
      children.splice(i, 0, node);
      return;
    }
  }
  children.push(node);
}

export function removeNode(parent: XmlElement, node: XmlNode): boolean {
  const index = parent.children.indexOf(node);
  if (index < 0) return false;
  parent.children.splice(index, 1);
  return true;
}
