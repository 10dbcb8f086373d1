/**
 * Rendered pages as pixels, for comparing a deck's render with its template's (renderToPngs in render.ts makes
 * the PNGs): colours at slide positions given in EMU, pixels of a colour counted, and the pixels that differ
 * between two renders outside the boxes where a change is expected.
 */
import sharp from 'sharp';
import type { Rgb } from '../decks/test-images.js';

export interface Page {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

/** A box on the slide in EMU, from its top left corner. */
export interface SlideBox {
  x: number;
  y: number;
  cx: number;
  cy: number;
}

export async function pagePixels(png: Uint8Array): Promise<Page> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

function rgbAt(page: Page, px: number, py: number): Rgb {
  const at = (py * page.width + px) * page.channels;
  return { r: page.data[at] ?? 0, g: page.data[at + 1] ?? 0, b: page.data[at + 2] ?? 0 };
}

/** The colour at a point given in EMU on a slide `slideCx` EMU wide. */
export function colourAt(page: Page, slideCx: number, x: number, y: number): Rgb {
  const scale = page.width / slideCx;
  return rgbAt(
    page,
    Math.min(page.width - 1, Math.round(x * scale)),
    Math.min(page.height - 1, Math.round(y * scale)),
  );
}

export function near(a: Rgb, b: Rgb, tolerance = 24): boolean {
  return (
    Math.abs(a.r - b.r) <= tolerance && Math.abs(a.g - b.g) <= tolerance && Math.abs(a.b - b.b) <= tolerance
  );
}

export function hexColour(hex: string): Rgb {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  return { r: (n >> 16) & 0xff, g: (n >> 8) & 0xff, b: n & 0xff };
}

/** Pixels of `page` within `tolerance` of `colour`, in `box` (EMU) or on the whole page. */
export function countNear(page: Page, colour: Rgb, slideCx: number, box?: SlideBox, tolerance = 24): number {
  const scale = page.width / slideCx;
  const x0 = box ? Math.max(0, Math.floor(box.x * scale)) : 0;
  const y0 = box ? Math.max(0, Math.floor(box.y * scale)) : 0;
  const x1 = box ? Math.min(page.width, Math.ceil((box.x + box.cx) * scale)) : page.width;
  const y1 = box ? Math.min(page.height, Math.ceil((box.y + box.cy) * scale)) : page.height;
  let count = 0;
  for (let py = y0; py < y1; py++)
    for (let px = x0; px < x1; px++) if (near(rgbAt(page, px, py), colour, tolerance)) count++;
  return count;
}

/**
 * Pixels that differ between two renders of the same page, outside `boxes` (EMU, each widened by `margin` EMU
 * for anti-aliasing): what moved where nothing should have.
 */
export function changedOutside(
  a: Page,
  b: Page,
  slideCx: number,
  boxes: readonly SlideBox[],
  margin = 60_000,
): number {
  if (a.width !== b.width || a.height !== b.height) return a.width * a.height;
  const scale = a.width / slideCx;
  const inside = (px: number, py: number): boolean =>
    boxes.some(
      (box) =>
        px >= (box.x - margin) * scale &&
        px <= (box.x + box.cx + margin) * scale &&
        py >= (box.y - margin) * scale &&
        py <= (box.y + box.cy + margin) * scale,
    );
  let changed = 0;
  for (let py = 0; py < a.height; py++)
    for (let px = 0; px < a.width; px++) {
      if (inside(px, py)) continue;
      if (!near(rgbAt(a, px, py), rgbAt(b, px, py), 2)) changed++;
    }
  return changed;
}
