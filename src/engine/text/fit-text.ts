/**
 * Text that no longer fits its box (docs/payload.md "Text"). PowerPoint stores the result of its
 * shrink-on-overflow fit in `a:normAutofit` and does not recompute it on open (docs/powerpoint-rules.md
 * "Autofit is not recomputed on open"), so where the template asks for shrinking we write our own estimate;
 * elsewhere an obvious overflow gets a warning.
 *
 * The estimate is deliberately simple: average glyph widths per script, 1.2 line height, no font metrics.
 * It aims at "looks right before anyone edits it", not at PowerPoint's exact numbers.
 */
import type { Warning } from '../errors.js';
import type { FoundShape } from '../shapes/find-shape.js';
import { shapeVariants } from '../shapes/find-shape.js';
import { child, childElements, element, insertInOrder, type XmlElement } from '../xml/index.js';
import { clamp } from './run-properties.js';
import { isWideCodePoint } from './wide-characters.js';

const EMU_PER_HUNDREDTH_PT = 127;
/** CT_TextBodyProperties default insets: 0.1" left/right, 0.05" top/bottom. */
const DEFAULT_INSETS = { l: 91440, r: 91440, t: 45720, b: 45720 };
/** Default sizes (1/100 pt) of the default Office master's text styles when nothing on the slide says. */
const PLACEHOLDER_SIZES: Record<string, number> = {
  title: 4400,
  ctrTitle: 4400,
  subTitle: 2400,
  body: 2800,
  obj: 2800,
};
const DEFAULT_SIZE = 1800;
const LINE_HEIGHT = 1.2;
/** Widths in em of an average glyph. */
const WIDE_GLYPH = 1.0;
const NARROW_GLYPH = 0.5;
/** An estimate is only an estimate: warn when it overflows clearly, not at the margin. */
const OVERFLOW_TOLERANCE = 1.15;
/** ST_TextFontScalePercent 1 %–100 % in 1/1000 %; PowerPoint itself shrinks in steps. */
const MIN_FONT_SCALE = 25000;
const FONT_SCALE_STEP = 2500;
/** CT_TextBodyProperties: prstTxWarp, (noAutofit | normAutofit | spAutoFit), scene3d, (sp3d | flatTx), extLst. */
const AUTOFIT_CHOICE = ['a:noAutofit', 'a:normAutofit', 'a:spAutoFit'];
const BODY_PROPERTIES_ORDER = [
  'a:prstTxWarp',
  ...AUTOFIT_CHOICE,
  'a:scene3d',
  'a:sp3d',
  'a:flatTx',
  'a:extLst',
];

export interface ParagraphMetrics {
  /** Text width in EMU at 100 % (the sum of estimated glyph widths), per line of an explicit a:br break. */
  lineWidths: number[];
  /** Font size in 1/100 pt. */
  size: number;
  /** Left margin (EMU) taken from the paragraph. */
  marL: number;
  /** Line spacing factor (1 = single). */
  spacing: number;
}

/** What the estimate works from: one variant's body properties, its box inside the insets, its paragraphs. */
export interface Measured {
  bodyPr: XmlElement;
  width: number;
  height: number;
  wrap: boolean;
  metrics: ParagraphMetrics[];
  /** The height the text needs at 100 %. */
  needed: number;
}

/** Also what a box's text capacity is worked out from (text-capacity.ts), so both give the same answer. */
export function measure(
  shape: FoundShape,
  shapeEl: XmlElement,
  box: { cx: number; cy: number },
  inheritedBodyPr: XmlElement | null,
): Measured | null {
  const txBody = child(shapeEl, 'p:txBody');
  const bodyPr = txBody ? child(txBody, 'a:bodyPr') : undefined;
  if (!txBody || !bodyPr) return null;
  const attr = (name: string): string | undefined => bodyPr.attrs[name] ?? inheritedBodyPr?.attrs[name];
  // Vertical text and WordArt warps have geometry this estimate does not model.
  if ((attr('vert') ?? 'horz') !== 'horz' || child(bodyPr, 'a:prstTxWarp')) return null;
  const width = box.cx - inset(attr, 'l') - inset(attr, 'r');
  const height = box.cy - inset(attr, 't') - inset(attr, 'b');
  if (width <= 0 || height <= 0) return null;
  const wrap = attr('wrap') !== 'none';
  const metrics = childElements(txBody, 'a:p').map((p) => paragraphMetrics(p, txBody, shape));
  return { bodyPr, width, height, wrap, metrics, needed: textHeight(metrics, width, wrap, 1, 0) };
}

/**
 * The height the shape's text needs by this estimate (the most of its variants), or null when it cannot say.
 * Taken from the template before the shape is filled: text that needs no more than the template's own did is
 * not said to overflow, since the template's designer laid the box out around that text and the estimate
 * (average glyph widths) is what would be wrong.
 */
export function estimatedTextHeight(
  shape: FoundShape,
  box: { cx: number; cy: number } | null,
  inheritedBodyPr: XmlElement | null = null,
): number | null {
  if (!box) return null;
  const heights = shapeVariants(shape).flatMap(
    (el) => measure(shape, el, box, inheritedBodyPr)?.needed ?? [],
  );
  return heights.length > 0 ? Math.max(...heights) : null;
}

/**
 * `inheritedBodyPr` is the layout/master placeholder's a:bodyPr, when the caller knows it: a body placeholder
 * usually says nothing itself and inherits shrink-on-overflow (`a:normAutofit`) and insets from the master.
 * `templateHeight` is what the template's own text needed (estimatedTextHeight, before filling): no warning for
 * text that needs no more.
 */
export function checkTextFit(
  shape: FoundShape,
  box: { cx: number; cy: number } | null,
  warnings: Warning[],
  path: string,
  inheritedBodyPr: XmlElement | null = null,
  templateHeight: number | null = null,
): void {
  if (!box) return;
  const messages = new Set<string>();
  for (const shapeEl of shapeVariants(shape)) {
    const measured = measure(shape, shapeEl, box, inheritedBodyPr);
    if (!measured) continue;
    const { bodyPr, width, height, wrap, metrics, needed } = measured;
    const asInTemplate = templateHeight !== null && needed <= templateHeight;

    let autofit = child(bodyPr, 'a:normAutofit');
    const ownChoice = AUTOFIT_CHOICE.some((name) => child(bodyPr, name) !== undefined);
    if (!ownChoice && needed > height && inheritedBodyPr && child(inheritedBodyPr, 'a:normAutofit')) {
      // The slide inherits shrink-on-overflow; the stored scale has to sit on the slide's own bodyPr.
      autofit = element('a:normAutofit');
      insertInOrder(bodyPr, autofit, BODY_PROPERTIES_ORDER);
    }
    if (autofit) {
      delete autofit.attrs['fontScale'];
      delete autofit.attrs['lnSpcReduction'];
      if (needed <= height) continue;
      let scale = 100000 - FONT_SCALE_STEP;
      for (; scale > MIN_FONT_SCALE; scale -= FONT_SCALE_STEP) {
        if (textHeight(metrics, width, wrap, scale / 100000, spacingReduction(scale) / 100000) <= height)
          break;
      }
      scale = clamp(scale, MIN_FONT_SCALE, 100000);
      autofit.attrs['fontScale'] = String(scale);
      const reduction = spacingReduction(scale);
      if (reduction > 0) autofit.attrs['lnSpcReduction'] = String(reduction);
      if (
        !asInTemplate &&
        textHeight(metrics, width, wrap, scale / 100000, reduction / 100000) > height * OVERFLOW_TOLERANCE
      ) {
        messages.add(`text of shape "${shape.name}" overflows its box even when shrunk to ${scale / 1000}%`);
      }
    } else if (!asInTemplate && needed > height * OVERFLOW_TOLERANCE) {
      messages.add(
        `text of shape "${shape.name}" probably overflows its box (about ${Math.round((needed / height) * 100)}% of its height); shorten it or let the box shrink text on overflow`,
      );
    }
  }
  for (const message of messages) warnings.push({ path, message });
}

/** PowerPoint pairs font scaling with up to 20 % less line spacing. */
function spacingReduction(fontScale: number): number {
  if (fontScale >= 100000) return 0;
  return fontScale > 90000 ? 10000 : 20000;
}

function inset(attr: (name: string) => string | undefined, side: 'l' | 'r' | 't' | 'b'): number {
  const value = Number.parseInt(attr(`${side}Ins`) ?? '', 10);
  return Number.isFinite(value) ? value : DEFAULT_INSETS[side];
}

function textHeight(
  metrics: readonly ParagraphMetrics[],
  width: number,
  wrap: boolean,
  scale: number,
  reduction: number,
): number {
  let total = 0;
  for (const m of metrics) {
    const lineHeight = lineHeightOf(m) * scale * (1 - reduction);
    const room = lineRoom(width, m.marL);
    for (const lineWidth of m.lineWidths) {
      const lines = wrap ? Math.max(1, Math.ceil((lineWidth * scale) / room)) : 1;
      total += lines * lineHeight;
    }
  }
  return total;
}

/** The width a paragraph's lines wrap in: the box less the paragraph's left margin, never under a quarter of it. */
export function lineRoom(width: number, marL: number): number {
  return Math.max(width - marL, width / 4);
}

/** The width (EMU) of one narrow (Latin) character at a paragraph's size, as the estimate counts it. */
export function narrowGlyphWidth(m: ParagraphMetrics): number {
  return NARROW_GLYPH * m.size * EMU_PER_HUNDREDTH_PT;
}

/** The height of one line of a paragraph at 100 % (EMU). */
export function lineHeightOf(m: ParagraphMetrics): number {
  return m.size * EMU_PER_HUNDREDTH_PT * LINE_HEIGHT * m.spacing;
}

function paragraphMetrics(p: XmlElement, txBody: XmlElement, shape: FoundShape): ParagraphMetrics {
  const pPr = child(p, 'a:pPr');
  const level = Number.parseInt(pPr?.attrs['lvl'] ?? '0', 10) || 0;
  const listLevel = levelStyle(txBody, level);
  const size =
    firstSize(p) ??
    sizeOf(pPr ? child(pPr, 'a:defRPr') : undefined) ??
    sizeOf(listLevel ? child(listLevel, 'a:defRPr') : undefined) ??
    PLACEHOLDER_SIZES[shape.placeholder?.type ?? ''] ??
    DEFAULT_SIZE;
  const lineWidths: number[] = [0];
  for (const el of childElements(p)) {
    if (el.name === 'a:br') lineWidths.push(0);
    const t = el.name === 'a:r' || el.name === 'a:fld' ? child(el, 'a:t') : undefined;
    if (!t) continue;
    const runSize = sizeOf(child(el, 'a:rPr')) ?? size;
    const chars = t.children.map((n) => (n.kind === 'text' ? n.text : '')).join('');
    lineWidths[lineWidths.length - 1]! += glyphEms(chars) * runSize * EMU_PER_HUNDREDTH_PT;
  }
  const marL = Number.parseInt(pPr?.attrs['marL'] ?? listLevel?.attrs['marL'] ?? '0', 10) || 0;
  return { lineWidths, size, marL, spacing: lineSpacing(pPr) };
}

function levelStyle(txBody: XmlElement, level: number): XmlElement | undefined {
  const lstStyle = child(txBody, 'a:lstStyle');
  return lstStyle ? child(lstStyle, `a:lvl${level + 1}pPr`) : undefined;
}

function firstSize(p: XmlElement): number | undefined {
  for (const el of childElements(p)) {
    if (el.name === 'a:r' || el.name === 'a:fld') return sizeOf(child(el, 'a:rPr'));
  }
  return sizeOf(child(p, 'a:endParaRPr'));
}

function sizeOf(rPr: XmlElement | undefined): number | undefined {
  const value = Number.parseInt(rPr?.attrs['sz'] ?? '', 10);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

function lineSpacing(pPr: XmlElement | undefined): number {
  const lnSpc = pPr ? child(pPr, 'a:lnSpc') : undefined;
  const pct = lnSpc ? child(lnSpc, 'a:spcPct') : undefined;
  const value = Number.parseInt(pct?.attrs['val'] ?? '', 10);
  return Number.isFinite(value) && value > 0 ? value / 100000 : 1;
}

/** East Asian and other wide glyphs take about a full em; everything else about half. */
function glyphEms(value: string): number {
  let ems = 0;
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    ems += isWideCodePoint(code) ? WIDE_GLYPH : NARROW_GLYPH;
  }
  return ems;
}
