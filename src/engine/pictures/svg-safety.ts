/**
 * An SVG made safe to store and bounded to render, before any renderer sees it.
 *
 * Stored: a deck carries the SVG to whoever extracts it (docs/powerpoint-rules.md "SVG pictures"), so scripts,
 * event handlers and references outside the document (file:, http:, stylesheets) are removed, and the user is
 * told. Only same-document fragments (`#id`) and PNG, JPEG or GIF `data:` images remain.
 *
 * Bounded: an image inside the SVG is held to the limits of an uploaded one (a 100 × 100 SVG must not carry a
 * 20 000 × 20 000 PNG past the pixel limit), and the work of its filters is estimated. Filter cost grows with
 * the rendition's pixels times each primitive's kernel, and the kernel grows with the rendition's scale: twelve
 * `feMorphology radius="3"` in a 100-unit SVG take ~0.2 s at 100 px and hours at 2 000 px. The rendition is made
 * smaller until its estimated work fits; an SVG whose filters do not fit even at the smallest rendition is
 * refused at once. Each element using a filter counts once, plus once per `<use>` copy of it or of a group
 * around it. The estimate misses what only rendering reveals (copies of copies, transforms); the conversion
 * process's time and memory limits stop that (image-preparation/conversion-process.ts).
 */
import { EngineError } from '../errors.js';
import { localName, parseXml, serializeXml, type XmlElement } from '../xml/index.js';
import { decodeDataUri } from './picture-sources.js';
import { assessImage, type ImageLimits } from './prepared-image.js';

export interface SafeSvg {
  /** The SVG to render and store: the original bytes when nothing had to go. */
  svg: Uint8Array;
  /** One sentence per kind of thing removed, naming the source. */
  warnings: string[];
  /** Long side in pixels of the PNG rendition, made smaller than the usual when its filters would cost more. */
  renditionLongSide: number;
}

/** Long side of an SVG's PNG rendition: sharp enough on a full-slide picture, small enough to store. */
export const SVG_RENDITION_LONG_SIDE = 2000;
/** Below this a rendition is too coarse to stand in for the SVG: the SVG is refused instead. */
const MIN_RENDITION_LONG_SIDE = 500;
/**
 * Estimated filter work (pixels × kernel units) allowed for one rendition: about 3 s of librsvg on this
 * project's reference machine (measured: one feMorphology radius 1 over 1000 × 500 px, 1.5 s).
 */
export const SVG_FILTER_WORK_LIMIT = 30_000_000;

const ALLOWED_DATA_IMAGE = /^data:image\/(png|jpeg|jpg|gif)[;,]/i;
/** `url(…)` whose target is not a fragment of this document (`#id`, quoted or not). */
const EXTERNAL_URL = /url\(\s*(?!['"]?#)[^)]*\)/gi;
const CSS_IMPORT = /@import[^;]*;?/gi;
/** Animations that could set a link or a handler after sanitising. */
const ANIMATORS = new Set(['set', 'animate']);

interface Cleaning {
  label: string;
  limits: ImageLimits;
  removed: Set<string>;
  embeddedPixels: number;
  refused: string | null;
}

/** Checks, cleans and sizes an SVG; a refusal is a sentence naming `label`. */
export function makeSvgSafe(
  bytes: Uint8Array,
  label: string,
  limits: ImageLimits,
): SafeSvg | { refused: string } {
  let text = new TextDecoder('utf-8').decode(bytes);
  // An external DTD reference (`<!DOCTYPE svg PUBLIC …>`, as Illustrator writes) declares nothing and can go;
  // an internal subset can declare entities (billion laughs, external files) and is refused.
  const doctype = /<!DOCTYPE[^>[]*(\[)?[^>]*>/i.exec(text);
  if (doctype?.[1])
    return { refused: `${label} is an SVG with a DTD (entity declarations), refused for safety` };
  if (doctype) text = text.slice(0, doctype.index) + text.slice(doctype.index + doctype[0].length);
  let doc;
  try {
    doc = parseXml(text, label);
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    return { refused: `${label} is not a well-formed SVG: ${error.reason}` };
  }
  if (localName(doc.root.name) !== 'svg') return { refused: `${label} has no <svg> root element` };
  const cleaning: Cleaning = { label, limits, removed: new Set(), embeddedPixels: 0, refused: null };
  const prolog = doc.prolog.replace(/<\?xml-stylesheet[\s\S]*?\?>/g, () => {
    cleaning.removed.add('an external stylesheet');
    return '';
  });
  cleanAttributes(doc.root, cleaning);
  clean(doc.root, cleaning);
  if (cleaning.refused) return { refused: cleaning.refused };
  if (cleaning.embeddedPixels > limits.maxPixels) {
    return {
      refused: `${label} embeds images of ${cleaning.embeddedPixels.toLocaleString('en-US')} pixels in all, over the limit of ${limits.maxPixels.toLocaleString('en-US')} pixels for one image`,
    };
  }
  const renditionLongSide = renditionFor(doc.root, limits);
  if (renditionLongSide === null) {
    return {
      refused: `${label} uses SVG filters that cost too much to render (over ${SVG_FILTER_WORK_LIMIT.toLocaleString('en-US')} pixel operations even at ${MIN_RENDITION_LONG_SIDE} px): simplify its filters (feMorphology, feConvolveMatrix, feTurbulence) or send a PNG`,
    };
  }
  const changed = cleaning.removed.size > 0 || doctype !== null;
  const warnings =
    cleaning.removed.size > 0
      ? [`${label}: removed from the SVG for safety: ${[...cleaning.removed].join(', ')}`]
      : [];
  return {
    svg: changed ? new TextEncoder().encode(serializeXml({ ...doc, prolog })) : bytes,
    warnings,
    renditionLongSide,
  };
}

function clean(el: XmlElement, cleaning: Cleaning): void {
  el.children = el.children.filter((node) => {
    if (node.kind === 'text') {
      if (localName(el.name) === 'style') node.text = cleanCss(node.text, cleaning);
      return true;
    }
    if (node.kind === 'verbatim') {
      if (node.markup.startsWith('<?')) {
        cleaning.removed.add('a processing instruction');
        return false;
      }
      if (localName(el.name) === 'style') node.markup = cleanCss(node.markup, cleaning);
      return true;
    }
    const name = localName(node.name);
    if (name === 'script') return drop(cleaning, 'a script');
    if (name === 'foreignObject') return drop(cleaning, 'foreign (HTML) content');
    if (ANIMATORS.has(name) && /^(on|href$|xlink:href$)/i.test(node.attrs.attributeName ?? ''))
      return drop(cleaning, 'an animation of a link or an event handler');
    cleanAttributes(node, cleaning);
    clean(node, cleaning);
    return true;
  });
}

function drop(cleaning: Cleaning, what: string): false {
  cleaning.removed.add(what);
  return false;
}

function cleanAttributes(el: XmlElement, cleaning: Cleaning): void {
  for (const [name, value] of Object.entries(el.attrs)) {
    const local = localName(name).toLowerCase();
    if (local.startsWith('on')) {
      delete el.attrs[name];
      cleaning.removed.add('event handlers');
    } else if (local === 'href') {
      if (!keepReference(value.trim(), cleaning)) delete el.attrs[name];
    } else if (/url\(/i.test(value)) {
      el.attrs[name] = cleanCss(value, cleaning);
    }
  }
}

/** Whether a link may stay: a fragment of this document, or an image within the limits. */
function keepReference(target: string, cleaning: Cleaning): boolean {
  if (target.startsWith('#')) return true;
  if (!ALLOWED_DATA_IMAGE.test(target)) {
    cleaning.removed.add('references outside the SVG (file:, http: and other links)');
    return false;
  }
  const bytes = decodeDataUri(target);
  const assessed = bytes ? assessImage(bytes, `the image inside ${cleaning.label}`, cleaning.limits) : null;
  if (assessed?.kind === 'refused') {
    cleaning.refused ??= assessed.message;
    return false;
  }
  // librsvg shows PNG, JPEG and GIF; a JPEG's EXIF turn it ignores, as it would in any SVG viewer.
  const image =
    assessed?.kind === 'stored'
      ? assessed.image
      : assessed?.kind === 'convert' && assessed.format === 'jpeg'
        ? assessed.header
        : null;
  if (!image) {
    cleaning.removed.add('embedded data that is not a PNG, JPEG or GIF image');
    return false;
  }
  cleaning.embeddedPixels += image.width * image.height;
  return true;
}

function cleanCss(css: string, cleaning: Cleaning): string {
  const cleaned = css.replace(CSS_IMPORT, '').replace(EXTERNAL_URL, (match) => {
    const inner = match.replace(/^url\(\s*['"]?|['"]?\s*\)$/g, '');
    return ALLOWED_DATA_IMAGE.test(inner) && keepReference(inner, cleaning) ? match : 'none';
  });
  if (cleaned !== css) cleaning.removed.add('references outside the SVG (file:, http: and other links)');
  return cleaned;
}

/** Filter work per rendition pixel at scale `s` (rendition pixels per user unit): fixed + perScale × s. */
interface FilterCost {
  fixed: number;
  perScale: number;
}

/**
 * The longest rendition side (from SVG_RENDITION_LONG_SIDE down to MIN_RENDITION_LONG_SIDE) whose estimated
 * filter work fits SVG_FILTER_WORK_LIMIT; null when none does.
 */
function renditionFor(root: XmlElement, limits: ImageLimits): number | null {
  const costs = new Map<string, FilterCost>();
  /** Each element using a filter: the filter, and the ids of the element and its ancestors. */
  const applied: { filter: string; ids: string[] }[] = [];
  /** `<use>` copies of each id: a copy of a filtered element (or of a group around it) runs the filter again. */
  const copies = new Map<string, number>();
  let elements = 0;
  let stylesMentionFilters = false;
  const walk = (el: XmlElement, ancestorIds: string[]): void => {
    elements += 1;
    const name = localName(el.name);
    const ids = el.attrs.id ? [...ancestorIds, el.attrs.id] : ancestorIds;
    if (name === 'filter' && el.attrs.id) costs.set(el.attrs.id, filterCost(el));
    if (name === 'style') stylesMentionFilters ||= /filter/i.test(JSON.stringify(el.children));
    if (name === 'use') {
      const target = /^#(.+)$/.exec((el.attrs.href ?? el.attrs['xlink:href'] ?? '').trim())?.[1];
      if (target) copies.set(target, (copies.get(target) ?? 0) + 1);
    }
    const references = `${el.attrs.filter ?? ''};${el.attrs.style ?? ''}`;
    for (const match of references.matchAll(/url\(\s*['"]?#([^'")\s]+)/g))
      applied.push({ filter: match[1] as string, ids });
    for (const node of el.children) if (node.kind === 'element') walk(node, ids);
  };
  walk(root, []);
  const uses = new Map<string, number>();
  for (const { filter, ids } of applied) {
    const times = 1 + ids.reduce((sum, id) => sum + (copies.get(id) ?? 0), 0);
    uses.set(filter, (uses.get(filter) ?? 0) + times);
  }
  if (costs.size === 0) return SVG_RENDITION_LONG_SIDE;
  // A style sheet can apply a filter to any element: counted as if it did.
  const timesUsed = (id: string): number => (stylesMentionFilters ? elements : (uses.get(id) ?? 0));
  const { longSide, aspect } = userSize(root);
  const work = (renditionLong: number): number => {
    const scale = renditionLong / longSide;
    const pixels = Math.min(limits.maxPixels, renditionLong * renditionLong * aspect);
    let perPixel = 0;
    for (const [id, cost] of costs) perPixel += timesUsed(id) * (cost.fixed + cost.perScale * scale);
    return pixels * perPixel;
  };
  for (let side = SVG_RENDITION_LONG_SIDE; side > MIN_RENDITION_LONG_SIDE; side = Math.floor(side * 0.8))
    if (work(side) <= SVG_FILTER_WORK_LIMIT) return side;
  return work(MIN_RENDITION_LONG_SIDE) <= SVG_FILTER_WORK_LIMIT ? MIN_RENDITION_LONG_SIDE : null;
}

/**
 * Per-pixel cost of a filter's primitives. librsvg's feMorphology visits its whole kernel width per pixel and
 * measured ~3× a blur's cost per visit; feConvolveMatrix visits orderX × orderY; feTurbulence one pass per
 * octave; a Gaussian blur three box passes; anything else about one.
 */
function filterCost(filter: XmlElement): FilterCost {
  const cost: FilterCost = { fixed: 0, perScale: 0 };
  for (const node of filter.children) {
    if (node.kind !== 'element') continue;
    const numbers = (attr: string): number[] =>
      (node.attrs[attr] ?? '')
        .split(/[\s,]+/)
        .map(Number)
        .filter((n) => Number.isFinite(n) && n > 0);
    switch (localName(node.name)) {
      case 'feMorphology':
        cost.fixed += 3;
        cost.perScale += 6 * Math.max(0, ...numbers('radius'));
        break;
      case 'feConvolveMatrix': {
        const [x = 3, y = x] = numbers('order');
        cost.fixed += x * y;
        break;
      }
      case 'feTurbulence':
        cost.fixed += Math.max(1, ...numbers('numOctaves'));
        break;
      case 'feGaussianBlur':
        cost.fixed += 3;
        break;
      default:
        cost.fixed += 1;
    }
  }
  return cost;
}

const UNIT_PX: Record<string, number> = {
  '': 1,
  px: 1,
  pt: 4 / 3,
  pc: 16,
  mm: 96 / 25.4,
  cm: 96 / 2.54,
  in: 96,
  em: 16,
  ex: 8,
};

/**
 * The SVG's long side in user units (the viewBox, else width/height) and its short/long ratio. Filter radii
 * are in user units; without a size the renderer refuses the SVG anyway, and 100 units is assumed.
 */
function userSize(root: XmlElement): { longSide: number; aspect: number } {
  const box = (root.attrs.viewBox ?? '').split(/[\s,]+/).map(Number);
  const [w, h] =
    box.length === 4 && (box[2] ?? 0) > 0 && (box[3] ?? 0) > 0
      ? [box[2] as number, box[3] as number]
      : [length(root.attrs.width), length(root.attrs.height)];
  if (!w || !h) return { longSide: 100, aspect: 1 };
  return { longSide: Math.max(w, h), aspect: Math.min(w, h) / Math.max(w, h) };
}

function length(value: string | undefined): number | null {
  const match = /^\s*([0-9.]+(?:e[+-]?\d+)?)\s*([a-z]*)\s*$/i.exec(value ?? '');
  const factor = UNIT_PX[(match?.[2] ?? '').toLowerCase()];
  if (!match || factor === undefined) return null;
  const n = Number(match[1]) * factor;
  return Number.isFinite(n) && n > 0 ? n : null;
}
