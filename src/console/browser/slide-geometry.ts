/**
 * Where each shape of a slide goes in its drawing: the SVG's coordinates are the slide's own, in points (12,700 EMU
 * each), so a box is drawn at exactly the position and size `inspect` reports and the drawing keeps the slide's
 * aspect ratio. Points rather than EMU because browsers cap font sizes (Chromium at 10,000 px), and a label sized in
 * EMU would be far past that. Labels are sized for the width the drawing is shown at, so that they read at
 * LABEL_PIXELS however large the slide, and cut to what fits the box. Pure (no DOM), so it is tested without a
 * browser.
 */
import { DEFAULT_SLIDE_SIZE, type InspectedShape, type InspectResult } from './inspect-types.js';

export interface PlacedShape {
  shape: InspectedShape;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Lines to write inside the box: name and kind, then the start of the text. */
  lines: string[];
  fontSize: number;
  /** The width of the first line's backing (the name and kind, over a slide's picture), within the box. */
  labelWidth: number;
}

export interface SlidePlan {
  width: number;
  height: number;
  placed: PlacedShape[];
  /** Shapes the inspection gave no position (nothing to draw): listed beside the drawing instead. */
  unplaced: InspectedShape[];
}

export const EMU_PER_POINT = 12_700;

/** The smallest label height on screen, in CSS pixels: what reads at arm's length (the page's small print). */
export const LABEL_PIXELS = 12;

/** The width a drawing is shown at when the page cannot tell (an inspector column on a laptop). */
const DEFAULT_DRAWN_WIDTH = 480;

/** Average glyph width as a share of the font size, for cutting labels (a sans-serif's is about half). */
const GLYPH_WIDTH = 0.55;

export function slideSize(result: Pick<InspectResult, 'slideSize'>): { cx: number; cy: number } {
  const size = result.slideSize;
  return size && size.cx > 0 && size.cy > 0 ? size : DEFAULT_SLIDE_SIZE;
}

/** `drawnWidth`: the CSS pixels across the drawing as the page shows it. */
export function planSlide(
  shapes: InspectedShape[],
  size: { cx: number; cy: number },
  drawnWidth = DEFAULT_DRAWN_WIDTH,
): SlidePlan {
  const width = size.cx / EMU_PER_POINT;
  const fontSize = Math.max(size.cy / EMU_PER_POINT / 40, (LABEL_PIXELS * width) / Math.max(1, drawnWidth));
  const placed: PlacedShape[] = [];
  const unplaced: InspectedShape[] = [];
  for (const shape of shapes) {
    const box = shape.box;
    if (!box || !(box.cx >= 0 && box.cy >= 0) || !Number.isFinite(box.x) || !Number.isFinite(box.y)) {
      unplaced.push(shape);
      continue;
    }
    // A line (a connector) has no height or width: give it a hairline to click.
    const width = Math.max(box.cx / EMU_PER_POINT, fontSize / 4);
    const height = Math.max(box.cy / EMU_PER_POINT, fontSize / 4);
    const maxChars = Math.max(4, Math.floor(width / (fontSize * GLYPH_WIDTH)) - 1);
    const maxLines = Math.max(1, Math.floor(height / (fontSize * 1.25)));
    const textLines = shape.text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    const lines = [`${shape.name} · ${kindLabel(shape)}`, ...textLines]
      .slice(0, maxLines)
      .map((line) => cut(line, maxChars));
    placed.push({
      shape,
      x: box.x / EMU_PER_POINT,
      y: box.y / EMU_PER_POINT,
      width,
      height,
      lines,
      fontSize,
      labelWidth: Math.min(width, ((lines[0]?.length ?? 0) * GLYPH_WIDTH + 0.7) * fontSize),
    });
  }
  return { width, height: size.cy / EMU_PER_POINT, placed, unplaced };
}

export function kindLabel(shape: InspectedShape): string {
  return shape.placeholder?.type === 'pic' && shape.kind !== 'picture' ? 'picture placeholder' : shape.kind;
}

function cut(line: string, maxChars: number): string {
  const chars = [...line];
  return chars.length <= maxChars ? line : `${chars.slice(0, maxChars - 1).join('')}…`;
}
