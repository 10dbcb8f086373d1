/**
 * Reading pictures back out of a generated deck, as a person checking it would: which bytes a picture shows,
 * its crop, and its frame on the slide (through every enclosing group).
 */
import { unzipSync } from 'fflate';
import { child, childElements, parseXml, type XmlElement } from '../../../src/engine/xml/index.js';

export interface Box {
  x: number;
  y: number;
  cx: number;
  cy: number;
}

export interface PictureView {
  element: XmlElement;
  /** The bytes `a:blip/@r:embed` (or a shape fill's blip) points at. */
  raster: Uint8Array | undefined;
  rasterPart: string | undefined;
  /** The SVG part of the asvg:svgBlip extension, if any. */
  svg: Uint8Array | undefined;
  srcRect: { l: number; t: number; r: number; b: number };
  fillRect: { l: number; t: number; r: number; b: number };
  /** The frame in slide coordinates, or null when it is inherited from the layout. */
  box: Box | null;
  descr: string | undefined;
}

export class DeckReader {
  readonly files: Record<string, Uint8Array>;

  constructor(bytes: Uint8Array) {
    this.files = unzipSync(bytes);
  }

  text(part: string): string {
    const data = this.files[part.replace(/^\//, '')];
    if (!data) throw new Error(`no part ${part}`);
    return new TextDecoder().decode(data);
  }

  /** The slide parts in presentation order. */
  slideParts(): string[] {
    const rels = this.relationships('ppt/presentation.xml');
    const root = parseXml(this.text('ppt/presentation.xml')).root;
    const list = child(root, 'p:sldIdLst');
    return (list ? childElements(list, 'p:sldId') : []).map((id) => rels.get(id.attrs['r:id'] ?? '') ?? '');
  }

  /** rId → part name (no leading slash) for a part's internal relationships. */
  relationships(part: string): Map<string, string> {
    const dir = part.slice(0, part.lastIndexOf('/'));
    const relsPart = `${dir}/_rels/${part.slice(part.lastIndexOf('/') + 1)}.rels`;
    const map = new Map<string, string>();
    if (!this.files[relsPart]) return map;
    for (const m of this.text(relsPart).matchAll(/<Relationship\b[^>]*>/g)) {
      const id = /Id="([^"]+)"/.exec(m[0])?.[1];
      const target = /Target="([^"]+)"/.exec(m[0])?.[1];
      if (!id || !target || /TargetMode="External"/.test(m[0])) continue;
      map.set(id, resolve(dir, target));
    }
    return map;
  }

  /** The first shape named `name` (or with that id) on a slide, with what its picture or image fill shows. */
  picture(slidePart: string, name: string | number): PictureView {
    const root = parseXml(this.text(slidePart)).root;
    const matches = (props: XmlElement): boolean =>
      typeof name === 'number' ? props.attrs.id === String(name) : props.attrs.name === name;
    const found = findShape(root, matches, []);
    if (!found) throw new Error(`${slidePart}: no shape ${typeof name === 'number' ? '#' : ''}${name}`);
    return this.view(slidePart, found.shape, found.groups);
  }

  view(slidePart: string, shape: XmlElement, groups: XmlElement[]): PictureView {
    const rels = this.relationships(slidePart);
    const blipFill =
      child(shape, 'p:blipFill') ?? (child(shape, 'p:spPr') && child(child(shape, 'p:spPr')!, 'a:blipFill'));
    const blip = blipFill ? child(blipFill, 'a:blip') : undefined;
    const rasterPart = rels.get(blip?.attrs['r:embed'] ?? '');
    let svgPart: string | undefined;
    for (const ext of blip && child(blip, 'a:extLst')
      ? childElements(child(blip, 'a:extLst')!, 'a:ext')
      : []) {
      const svgBlip = child(ext, 'asvg:svgBlip');
      if (svgBlip) svgPart = rels.get(svgBlip.attrs['r:embed'] ?? '');
    }
    const rect = (el: XmlElement | undefined) => ({
      l: Number(el?.attrs.l ?? 0),
      t: Number(el?.attrs.t ?? 0),
      r: Number(el?.attrs.r ?? 0),
      b: Number(el?.attrs.b ?? 0),
    });
    const stretch = blipFill ? child(blipFill, 'a:stretch') : undefined;
    const nv = childElements(shape).find((c) => /^p:nv.*Pr$/.test(c.name));
    return {
      element: shape,
      raster: rasterPart ? this.files[rasterPart] : undefined,
      rasterPart,
      svg: svgPart ? this.files[svgPart] : undefined,
      srcRect: rect(blipFill ? child(blipFill, 'a:srcRect') : undefined),
      fillRect: rect(stretch ? child(stretch, 'a:fillRect') : undefined),
      box: boxOf(shape, groups),
      descr: nv ? child(nv, 'p:cNvPr')?.attrs.descr : undefined,
    };
  }
}

/** Shapes in document order, into groups and the first branch of mc:AlternateContent. */
function findShape(
  el: XmlElement,
  matches: (cNvPr: XmlElement) => boolean,
  groups: XmlElement[],
): { shape: XmlElement; groups: XmlElement[] } | null {
  for (const c of childElements(el)) {
    if (c.name === 'mc:Fallback') continue;
    const nv = childElements(c).find((n) => /^p:nv.*Pr$/.test(n.name));
    const props = nv && child(nv, 'p:cNvPr');
    if (props && matches(props)) return { shape: c, groups };
    const inner = findShape(c, matches, c.name === 'p:grpSp' ? [c, ...groups] : groups);
    if (inner) return inner;
  }
  return null;
}

/** The shape's own box mapped through its groups (innermost first) onto the slide. */
export function boxOf(shape: XmlElement, groups: readonly XmlElement[]): Box | null {
  let box = xfrmBox(shape);
  if (!box) return null;
  for (const group of groups) {
    const props = child(group, 'p:grpSpPr');
    const xfrm = props && child(props, 'a:xfrm');
    const num = (name: string, a: string) => Number(xfrm && child(xfrm, name)?.attrs[a]);
    const [x, y, cx, cy] = [num('a:off', 'x'), num('a:off', 'y'), num('a:ext', 'cx'), num('a:ext', 'cy')];
    const [chx, chy, chcx, chcy] = [
      num('a:chOff', 'x'),
      num('a:chOff', 'y'),
      num('a:chExt', 'cx'),
      num('a:chExt', 'cy'),
    ];
    if (![x, y, cx, cy, chx, chy, chcx, chcy].every(Number.isFinite) || !chcx || !chcy) continue;
    const sx = cx / chcx;
    const sy = cy / chcy;
    box = { x: x + (box.x - chx) * sx, y: y + (box.y - chy) * sy, cx: box.cx * sx, cy: box.cy * sy };
  }
  return box;
}

function xfrmBox(shape: XmlElement): Box | null {
  const spPr = child(shape, 'p:spPr');
  const xfrm = spPr && child(spPr, 'a:xfrm');
  const off = xfrm && child(xfrm, 'a:off');
  const ext = xfrm && child(xfrm, 'a:ext');
  if (!off || !ext) return null;
  return {
    x: Number(off.attrs.x),
    y: Number(off.attrs.y),
    cx: Number(ext.attrs.cx),
    cy: Number(ext.attrs.cy),
  };
}

function resolve(dir: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = dir.split('/').filter(Boolean);
  for (const piece of target.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.') parts.push(piece);
  }
  return parts.join('/');
}

/** Aspect of the part of the image a picture shows: its pixel aspect corrected by the crop. */
export function visibleAspect(
  image: { width: number; height: number },
  srcRect: PictureView['srcRect'],
): number {
  const w = image.width * (1 - (srcRect.l + srcRect.r) / 100_000);
  const h = image.height * (1 - (srcRect.t + srcRect.b) / 100_000);
  return w / h;
}
