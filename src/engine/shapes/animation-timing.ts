/**
 * Keeping a slide's animation timeline (`p:timing`) consistent when shapes or paragraphs disappear. A time node
 * or build entry that targets a shape id no longer on the slide makes PowerPoint repair the file and drop every
 * animation of the slide (docs/powerpoint-rules.md "Removing a shape").
 */
import { child, childElements, removeNode, type XmlElement } from '../xml/index.js';

/** Build-list entries that name a shape by @spid (PresentationML CT_BuildList). */
const BUILD_ENTRIES = new Set(['p:bldP', 'p:bldDgm', 'p:bldOleChart', 'p:bldGraphic']);
/** Elements inside the timeline that point at a shape by @spid. */
const TARGETS = new Set(['p:spTgt', 'p:inkTgt']);
/** Time-node containers whose p:cTn carries a p:childTnLst (CT_TLTimeNodeParallel/Sequence/Exclusive). */
const CONTAINERS = new Set(['p:par', 'p:seq', 'p:excl']);
/** CT_TLTimeNodeList: at least one time node, so an emptied list must go with its owner. */
const NODE_LISTS = new Set(['p:childTnLst', 'p:subTnLst']);
const EFFECT_NODE_TYPES = new Set(['clickEffect', 'withEffect', 'afterEffect']);

/**
 * Removes every effect that targets one of `shapeIds` and every build entry for them, then prunes the
 * containers this leaves empty; drops `p:timing` altogether when nothing meaningful is left.
 */
export function removeAnimationsOf(slideRoot: XmlElement, shapeIds: ReadonlySet<number>): void {
  if (shapeIds.size === 0) return;
  removeEffects(slideRoot, (target) => shapeIds.has(spidOf(target)), shapeIds);
}

/**
 * After a shape's text was rewritten to `paragraphCount` paragraphs: effects on paragraphs it no longer has
 * (`p:spTgt/p:txEl/p:pRg`) go, ranges that reach past the end are clamped, and the shape's build
 * entry goes when none of its effects is left.
 */
export function trimParagraphAnimations(
  slideRoot: XmlElement,
  shapeId: number,
  paragraphCount: number,
): void {
  const timing = child(slideRoot, 'p:timing');
  if (!timing) return;
  const last = Math.max(0, paragraphCount - 1);
  const beyondEnd = (target: XmlElement): boolean => {
    if (spidOf(target) !== shapeId) return false;
    const txEl = child(target, 'p:txEl');
    const range = txEl ? child(txEl, 'p:pRg') : undefined;
    if (!range) return false;
    const st = Number.parseInt(range.attrs['st'] ?? '0', 10);
    const end = Number.parseInt(range.attrs['end'] ?? '0', 10);
    if (st > last) return true;
    if (end > last) range.attrs['end'] = String(last);
    return false;
  };
  removeEffects(slideRoot, beyondEnd, new Set());
  const tnLst = child(timing, 'p:tnLst');
  const stillAnimated = tnLst !== undefined && hasTarget(tnLst, shapeId);
  if (!stillAnimated) removeEffects(slideRoot, () => false, new Set([shapeId]));
}

function spidOf(el: XmlElement): number {
  return Number.parseInt(el.attrs['spid'] ?? '', 10);
}

function hasTarget(el: XmlElement, shapeId: number): boolean {
  for (const c of childElements(el)) {
    if (TARGETS.has(c.name) && spidOf(c) === shapeId) return true;
    if (hasTarget(c, shapeId)) return true;
  }
  return false;
}

/** The shared core: effects whose target matches go, build entries of `buildIds` go, then the pruning. */
function removeEffects(
  slideRoot: XmlElement,
  matches: (target: XmlElement) => boolean,
  buildIds: ReadonlySet<number>,
): void {
  const timing = child(slideRoot, 'p:timing');
  if (!timing) return;

  const tnLst = child(timing, 'p:tnLst');
  if (tnLst) {
    // Collect first, remove afterwards: each hit is recorded with its ancestor chain.
    const doomed: { parent: XmlElement; node: XmlElement }[] = [];
    walk(tnLst, [], (el, ancestors) => {
      if (TARGETS.has(el.name) && matches(el)) {
        const victim = effectNodeOf(ancestors);
        if (victim) doomed.push(victim);
      }
    });
    for (const { parent, node } of doomed) removeNode(parent, node);
    prune(tnLst);
    if (childElements(tnLst).length === 0) removeNode(timing, tnLst);
  }

  const bldLst = child(timing, 'p:bldLst');
  if (bldLst) {
    for (const entry of childElements(bldLst)) {
      if (BUILD_ENTRIES.has(entry.name) && buildIds.has(spidOf(entry))) removeNode(bldLst, entry);
    }
    if (childElements(bldLst).length === 0) removeNode(timing, bldLst);
  }

  // A build list without a timeline describes animations that no longer exist.
  if (!child(timing, 'p:tnLst')) removeNode(slideRoot, timing);
}

function walk(
  el: XmlElement,
  ancestors: XmlElement[],
  visit: (el: XmlElement, ancestors: XmlElement[]) => void,
): void {
  ancestors.push(el);
  for (const c of childElements(el)) {
    visit(c, ancestors);
    walk(c, ancestors, visit);
  }
  ancestors.pop();
}

/**
 * The node to delete for a target found under `ancestors` (root first, direct parent last): the effect's
 * `p:par` (its p:cTn has a presetClass or an effect nodeType) when there is one, else the innermost time node
 * that sits directly in a time-node list (a media `p:video`/`p:audio`/`p:cmd` node, an interactive `p:seq`
 * whose trigger is the shape).
 */
function effectNodeOf(
  ancestors: readonly XmlElement[],
): { parent: XmlElement; node: XmlElement } | undefined {
  for (let i = ancestors.length - 1; i > 0; i--) {
    const node = ancestors[i]!;
    if (node.name !== 'p:par') continue;
    const cTn = child(node, 'p:cTn');
    if (
      cTn &&
      (cTn.attrs['presetClass'] !== undefined || EFFECT_NODE_TYPES.has(cTn.attrs['nodeType'] ?? ''))
    ) {
      return { parent: ancestors[i - 1]!, node };
    }
  }
  for (let i = ancestors.length - 1; i > 0; i--) {
    const parent = ancestors[i - 1]!;
    if (NODE_LISTS.has(parent.name)) return { parent, node: ancestors[i]! };
  }
  return undefined;
}

/** Removes containers whose child list became empty, bottom-up (an empty p:childTnLst is schema-invalid). */
function prune(el: XmlElement): void {
  for (const c of childElements(el)) prune(c);
  for (const c of childElements(el)) {
    if (CONTAINERS.has(c.name)) {
      const cTn = child(c, 'p:cTn');
      const list = cTn ? child(cTn, 'p:childTnLst') : undefined;
      if (list && childElements(list).length === 0) removeNode(el, c);
    } else if (c.name === 'p:subTnLst' && childElements(c).length === 0) {
      removeNode(el, c); // optional in CT_TLCommonTimeNodeData, so the list alone goes
    }
  }
}
