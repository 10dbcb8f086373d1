/**
 * Test images made in code (sharp writes them; bmp-ts the BMP), so that no binary is committed: solid colours
 * of a chosen size in every format the picture filler takes, EXIF-turned JPEGs, SVG, and broken files.
 */
import { encode as encodeBmp } from 'bmp-ts';
import sharp, { type Sharp } from 'sharp';

export type Rgb = { r: number; g: number; b: number };

export const RED: Rgb = { r: 230, g: 20, b: 20 };
export const GREEN: Rgb = { r: 20, g: 200, b: 40 };
export const BLUE: Rgb = { r: 20, g: 40, b: 220 };

function solid(width: number, height: number, colour: Rgb): Sharp {
  return sharp({ create: { width, height, channels: 3, background: colour } });
}

export async function png(width: number, height: number, colour: Rgb = RED): Promise<Uint8Array> {
  return new Uint8Array(await solid(width, height, colour).png().toBuffer());
}

export async function jpeg(
  width: number,
  height: number,
  colour: Rgb = RED,
  orientation?: number,
): Promise<Uint8Array> {
  const image = solid(width, height, colour).jpeg({ quality: 90 });
  return new Uint8Array(await (orientation ? image.withMetadata({ orientation }) : image).toBuffer());
}

export async function gif(width: number, height: number, colour: Rgb = RED): Promise<Uint8Array> {
  return new Uint8Array(await solid(width, height, colour).gif().toBuffer());
}

export async function webp(width: number, height: number, colour: Rgb = RED): Promise<Uint8Array> {
  return new Uint8Array(await solid(width, height, colour).webp({ lossless: true }).toBuffer());
}

export async function avif(width: number, height: number, colour: Rgb = RED): Promise<Uint8Array> {
  return new Uint8Array(await solid(width, height, colour).avif({ lossless: true }).toBuffer());
}

export async function tiff(width: number, height: number, colour: Rgb = RED): Promise<Uint8Array> {
  return new Uint8Array(await solid(width, height, colour).tiff().toBuffer());
}

/** A 24-bit BMP (BITMAPINFOHEADER), the kind Paint writes. */
export function bmp(width: number, height: number, colour: Rgb = RED): Uint8Array {
  // bmp-ts takes ABGR bytes per pixel.
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([0xff, colour.b, colour.g, colour.r], i * 4);
  return new Uint8Array(encodeBmp({ width, height, data, bitPP: 24 }).data);
}

export function svg(width: number, height: number, colour: Rgb = RED): Uint8Array {
  const fill = `rgb(${colour.r},${colour.g},${colour.b})`;
  return new TextEncoder().encode(
    `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="${width}" height="${height}" fill="${fill}"/></svg>`,
  );
}

/**
 * A PNG whose header claims `width × height` pixels around a tiny body: what a decompression bomb looks like
 * to anything that reads the header first. (Checksums are not filled in: nothing may get as far as decoding.)
 */
export function pngClaiming(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: number[]): number[] => [
    ...u32(data.length),
    ...[...type].map((c) => c.charCodeAt(0)),
    ...data,
    0,
    0,
    0,
    0,
  ];
  return Uint8Array.from([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...chunk('IHDR', [...u32(width), ...u32(height), 8, 2, 0, 0, 0]),
    ...chunk('IDAT', [0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]),
    ...chunk('IEND', []),
  ]);
}

function u32(n: number): number[] {
  return [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
}

/** The pixel at (x, y) of an image file (any format sharp reads). */
export async function pixelAt(bytes: Uint8Array, x: number, y: number): Promise<Rgb> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return { r: data[at] ?? 0, g: data[at + 1] ?? 0, b: data[at + 2] ?? 0 };
}

export function dataUri(bytes: Uint8Array, type: string): string {
  return `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;
}
