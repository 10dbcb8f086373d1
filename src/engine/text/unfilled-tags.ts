/**
 * The `{{tags}}` still in a slide once its tags are replaced (docs/payload.md "Tags"): a tag the payload gave no
 * value for stays as the template wrote it, braces and all, and the deck would show it. Read on the finished tree
 * (or, for a slide nothing changed, on the template's own, read only), paragraph by paragraph, with the text of
 * consecutive runs joined as tags.ts matches it, so a tag PowerPoint split over several runs is found whole.
 */
import { child, childElements, type XmlElement } from '../xml/index.js';

export interface UnfilledTag {
  key: string;
  /** The name of the shape (p:cNvPr/@name) whose text shows it; null outside any named shape. */
  shape: string | null;
}

const TAG = /\{\{([^{}]*)\}\}/g;
/** The shape elements of a shape tree, whose non-visual properties carry the name. */
const SHAPES = new Set(['p:sp', 'p:graphicFrame', 'p:cxnSp', 'p:pic']);

/** Every unfilled tag of `root`, once per key and shape, in document order. */
export function unfilledTags(root: XmlElement): UnfilledTag[] {
  const found = new Map<string, UnfilledTag>();
  walk(root, null, found);
  return [...found.values()];
}

function walk(el: XmlElement, shape: string | null, found: Map<string, UnfilledTag>): void {
  const here = SHAPES.has(el.name) ? (shapeName(el) ?? shape) : shape;
  for (const c of childElements(el)) {
    if (c.name !== 'a:p') {
      walk(c, here, found);
      continue;
    }
    for (const text of runGroupTexts(c)) {
      if (!text.includes('{{')) continue;
      for (const match of text.matchAll(TAG)) {
        const key = match[1]!.trim();
        if (key === '') continue;
        const id = `${here ?? ''}\u0000${key}`;
        if (!found.has(id)) found.set(id, { key, shape: here });
      }
    }
  }
}

function shapeName(shape: XmlElement): string | null {
  for (const nv of childElements(shape)) {
    if (!nv.name.startsWith('p:nv')) continue;
    const name = child(nv, 'p:cNvPr')?.attrs.name;
    if (name !== undefined) return name;
  }
  return null;
}

/** The text of each group of consecutive runs of a paragraph: what tags.ts matches tags in (a break or a field ends a group). */
function runGroupTexts(p: XmlElement): string[] {
  const texts: string[] = [];
  let text: string | null = null;
  for (const r of childElements(p)) {
    if (r.name !== 'a:r') {
      if (text !== null) texts.push(text);
      text = null;
      continue;
    }
    text ??= '';
    const t = child(r, 'a:t');
    if (t) for (const node of t.children) if (node.kind === 'text') text += node.text;
  }
  if (text !== null) texts.push(text);
  return texts;
}
