/**
 * The slides a renderer makes pages of, made exactly those the deck was checked and charged for. Deckforge reads
 * the slide list from the first `p:sldIdLst` of presentation.xml (ECMA-376 Part 1 §19.2.1.34); LibreOffice takes
 * every `p:sldId` it meets anywhere in the part (a second list at the root, one inside `p:notesMasterIdLst`, an
 * `p:extLst` or an `mc:AlternateContent`), so a deck could be charged for 3 slides and drawn as 203 pages. In
 * the copy, every `p:sldId` outside the first list goes, and every other `p:sldIdLst` with it.
 */
import { EngineError } from '../errors.js';
import { resolveTarget, type Relationship } from '../package/relationships.js';
import { isHiddenSlide } from '../presentation/slide-visibility.js';
import type { XmlElement, XmlNode } from '../xml/index.js';
import type { PartKind } from './part-kinds.js';

/** Removes every slide entry but the first list's from `root` (presentation.xml's tree); returns how many went. */
export function keepOneSlideList(root: XmlElement): number {
  const first = root.children.find(
    (node): node is XmlElement => node.kind === 'element' && node.name === 'p:sldIdLst',
  );
  let removed = 0;
  const stack: XmlElement[] = [root];
  while (stack.length > 0) {
    const el = stack.pop() as XmlElement;
    if (el === first) continue;
    const kept: XmlNode[] = el.children.filter((node) => {
      if (node.kind !== 'element') return true;
      if (node !== first && (node.name === 'p:sldIdLst' || node.name === 'p:sldId')) {
        removed++;
        return false;
      }
      stack.push(node);
      return true;
    });
    if (kept.length !== el.children.length) el.children = kept;
  }
  return removed;
}

/**
 * The pages a renderer makes of the deck: the slides of the first list that are not hidden. A slide entry
 * whose relationship or part is missing is refused, as generation refuses it.
 */
export function visibleSlideCount(
  root: XmlElement,
  presentation: string,
  rels: ReadonlyMap<string, Relationship>,
  partOf: (partName: string) => PartKind | undefined,
): number {
  const list = root.children.find(
    (node): node is XmlElement => node.kind === 'element' && node.name === 'p:sldIdLst',
  );
  let visible = 0;
  let index = 0;
  for (const entry of list?.children ?? []) {
    if (entry.kind !== 'element' || entry.name !== 'p:sldId') continue;
    const rel = rels.get(entry.attrs['r:id'] ?? '');
    const part = rel && !rel.external ? partOf(resolveTarget(presentation, rel.target)) : undefined;
    if (part?.kind !== 'xml') {
      throw new EngineError('INVALID_TEMPLATE', `slide ${index} (p:sldId) names no slide part`, presentation);
    }
    if (!isHiddenSlide(part.doc.root)) visible++;
    index++;
  }
  return visible;
}
