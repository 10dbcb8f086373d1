/**
 * The raster formats a renderer decodes, known by their first bytes, with the pixels each holds read from its
 * header alone: PNG, JPEG, GIF and BMP as image-header.ts reads them, TIFF (every image file directory, the
 * largest counts) and WebP (VP8, VP8L and VP8X headers). What a decoder would allocate is known before
 * anything decodes the picture, whatever the part is named or typed.
 */
import { displaySize, readImageHeader } from './image-header.js';

export type RasterFormat = 'png' | 'jpeg' | 'gif' | 'bmp' | 'tiff' | 'webp';

export interface StoredPixels {
  format: RasterFormat;
  width: number;
  height: number;
}

/** TIFF files chain their image directories; a hostile one may loop or chain thousands. */
const MAX_TIFF_DIRECTORIES = 256;

/** The raster picture `bytes` is, with its size; null when it is no raster picture of these formats. */
export function storedPixels(bytes: Uint8Array): StoredPixels | null {
  const header = readImageHeader(bytes);
  if (!header) return null;
  switch (header.format) {
    case 'png':
    case 'jpeg':
    case 'gif':
    case 'bmp':
      return { format: header.format, ...displaySize(header) };
    case 'tiff':
      return { format: 'tiff', ...tiffSize(bytes) };
    case 'webp':
      return { format: 'webp', ...webpSize(bytes) };
    default:
      return null;
  }
}

/** TIFF 6.0 §2: IFDs of 12-byte entries; ImageWidth (256) and ImageLength (257), SHORT or LONG. */
function tiffSize(bytes: Uint8Array): { width: number; height: number } {
  const little = bytes[0] === 0x49;
  const u16 = (at: number): number =>
    little ? (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) : ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
  const u32 = (at: number): number =>
    (little ? u16(at) + u16(at + 2) * 65536 : u16(at) * 65536 + u16(at + 2)) >>> 0;
  let largest = { width: 0, height: 0 };
  const seen = new Set<number>();
  let ifd = u32(4);
  while (ifd > 0 && ifd + 2 <= bytes.length && !seen.has(ifd) && seen.size < MAX_TIFF_DIRECTORIES) {
    seen.add(ifd);
    const count = u16(ifd);
    const size = { width: 0, height: 0 };
    for (let i = 0; i < count; i++) {
      const entry = ifd + 2 + i * 12;
      if (entry + 12 > bytes.length) break;
      const tag = u16(entry);
      if (tag !== 256 && tag !== 257) continue;
      const value = u16(entry + 2) === 3 ? u16(entry + 8) : u32(entry + 8);
      if (tag === 256) size.width = value;
      else size.height = value;
    }
    if (size.width * size.height > largest.width * largest.height) largest = size;
    ifd = u32(ifd + 2 + count * 12);
  }
  return largest;
}

/** WebP container (RFC 9649): the first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended, a canvas). */
function webpSize(bytes: Uint8Array): { width: number; height: number } {
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  const at = (i: number): number => bytes[i] ?? 0;
  if (chunk === 'VP8 ') {
    // The key frame's start code (9D 01 2A), then 14-bit width and height (RFC 6386 §9.1).
    return { width: (at(26) | (at(27) << 8)) & 0x3fff, height: (at(28) | (at(29) << 8)) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    // The signature 0x2F, then width - 1 and height - 1 in 14 bits each.
    const bits = (at(21) | (at(22) << 8) | (at(23) << 16) | (at(24) << 24)) >>> 0;
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    return {
      width: (at(24) | (at(25) << 8) | (at(26) << 16)) + 1,
      height: (at(27) | (at(28) << 8) | (at(29) << 16)) + 1,
    };
  }
  return { width: 0, height: 0 };
}
