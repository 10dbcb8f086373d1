/**
 * Writing an image into a blip fill: `p:blipFill` of a picture or `a:blipFill` of a shape's properties
 * (CT_BlipFillProperties: blip, srcRect?, tile | stretch). The blip's effects (alpha, duotone, …) stay; what
 * pointed at the old image goes: `r:link`, an SVG extension, an artistic-effect layer (docs/powerpoint-rules.md
 * "Picture XML and cropping").
 */
import {
  child,
  childElements,
  descendants,
  element,
  insertInOrder,
  removeNode,
  type XmlElement,
} from '../xml/index.js';
import type { RectInsets } from './fit.js';

export interface ImageRelIds {
  /** The raster (for an SVG, its PNG rendition). */
  embed: string;
  /** The SVG itself, when the image is one. */
  svg: string | null;
}

const BLIP_FILL_ORDER = ['a:blip', 'a:srcRect', 'a:tile', 'a:stretch'];
/** [MS-ODRAWXML] 2.3.1.31: the extension PowerPoint 2016+ stores an SVG blip in. */
const SVG_EXT_URI = '{96DAC541-7B7A-43D3-8B79-37D633B846F1}';
const ASVG_NS = 'http://schemas.microsoft.com/office/drawing/2016/SVG/main';

export function newBlipFill(name: 'p:blipFill' | 'a:blipFill'): XmlElement {
  return element(name, { rotWithShape: '1' }, [element('a:blip')]);
}

/**
 * Points the fill at the new image and sets its crop (`a:srcRect`, none for null) and placement in the box
 * (`a:stretch/a:fillRect` insets, none for null). A tiled fill becomes a stretched one: fit decides placement.
 */
export function writeBlipFill(
  blipFill: XmlElement,
  ids: ImageRelIds,
  srcRect: RectInsets | null,
  fillRect: RectInsets | null,
): void {
  let blip = child(blipFill, 'a:blip');
  if (!blip) {
    blip = element('a:blip');
    insertInOrder(blipFill, blip, BLIP_FILL_ORDER);
  }
  delete blip.attrs['r:link'];
  blip.attrs['r:embed'] = ids.embed;
  rewriteExtensions(blip, ids.svg);
  for (const name of ['a:srcRect', 'a:tile', 'a:stretch']) {
    const old = child(blipFill, name);
    if (old) removeNode(blipFill, old);
  }
  if (srcRect) insertInOrder(blipFill, element('a:srcRect', insetAttrs(srcRect)), BLIP_FILL_ORDER);
  const fill = element('a:fillRect', fillRect ? insetAttrs(fillRect) : {});
  insertInOrder(blipFill, element('a:stretch', {}, [fill]), BLIP_FILL_ORDER);
}

/** Extensions that reference a relationship belonged to the old image; the SVG one is written anew. */
function rewriteExtensions(blip: XmlElement, svg: string | null): void {
  let extLst = child(blip, 'a:extLst');
  if (extLst) {
    for (const ext of childElements(extLst, 'a:ext')) if (referencesPart(ext)) removeNode(extLst, ext);
  }
  if (svg) {
    if (!extLst) {
      extLst = element('a:extLst');
      blip.children.push(extLst);
    }
    extLst.children.push(
      element('a:ext', { uri: SVG_EXT_URI }, [
        element('asvg:svgBlip', { 'xmlns:asvg': ASVG_NS, 'r:embed': svg }),
      ]),
    );
  }
  if (extLst && childElements(extLst).length === 0) removeNode(blip, extLst);
}

function referencesPart(el: XmlElement): boolean {
  for (const node of [el, ...descendants(el)])
    for (const name of Object.keys(node.attrs))
      if (name === 'r:embed' || name === 'r:link' || name === 'r:id') return true;
  return false;
}

/** Zero edges are left out: each defaults to 0 (CT_RelativeRect). */
function insetAttrs(rect: RectInsets): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const side of ['l', 't', 'r', 'b'] as const) if (rect[side] !== 0) attrs[side] = String(rect[side]);
  return attrs;
}
