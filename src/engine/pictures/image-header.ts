/**
 * What an image file is, read from its first bytes and its header alone (never its pixels): the format, the
 * pixel size as a viewer displays it (EXIF orientation 5–8 swaps width and height), and whether the file ends
 * where its format says it must (a truncated upload or download). Enough to fit the image and to refuse a
 * decompression bomb before anything decodes it.
 */
export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'bmp' | 'tiff' | 'webp' | 'avif' | 'heic' | 'svg';

export interface ImageHeader {
  format: ImageFormat;
  /** Pixels as stored (before EXIF orientation); 0 when the header does not say (TIFF, WebP, AVIF, SVG). */
  width: number;
  height: number;
  /** EXIF orientation 1–8 (1: upright). */
  orientation: number;
  /** The file stops before its end marker, or a header is cut short. */
  truncated: boolean;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The format by its magic bytes, or null when the bytes are no image we know. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return 'gif';
  if (ascii(bytes, 0, 2) === 'BM' && bytes.length >= 26) return 'bmp';
  if (ascii(bytes, 0, 4) === 'II*\0' || ascii(bytes, 0, 4) === 'MM\0*') return 'tiff';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  if (ascii(bytes, 4, 8) === 'ftyp') {
    // ISO base media (HEIF): the major brand, then the compatible brands, name what is inside.
    const size = Math.min(readU32BE(bytes, 0), bytes.length, 256);
    const brands = ascii(bytes, 8, Math.max(12, size));
    if (/avif|avis/.test(brands)) return 'avif';
    if (/heic|heix|heim|heis|mif1/.test(brands)) return 'heic';
    return null;
  }
  if (looksLikeSvg(bytes)) return 'svg';
  return null;
}

/** Reads the header of an image whose format sniffImageFormat named; null when it is no image at all. */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  const format = sniffImageFormat(bytes);
  switch (format) {
    case null:
      return null;
    case 'png':
      return readPng(bytes);
    case 'jpeg':
      return readJpeg(bytes);
    case 'gif':
      return readGif(bytes);
    case 'bmp':
      return readBmp(bytes);
    default:
      // Sizes of these come from the image library that converts them (it checks the pixel count first).
      return { format, width: 0, height: 0, orientation: 1, truncated: false };
  }
}

/** The size as displayed: orientations 5–8 turn the picture a quarter (EXIF 2.3 §4.6.4, tag 0x0112). */
export function displaySize(header: ImageHeader): { width: number; height: number } {
  return header.orientation >= 5 && header.orientation <= 8
    ? { width: header.height, height: header.width }
    : { width: header.width, height: header.height };
}

/** PNG (ISO/IEC 15948): IHDR first; chunks walked by their lengths up to IEND; eXIf may hold an orientation. */
function readPng(bytes: Uint8Array): ImageHeader {
  const header: ImageHeader = { format: 'png', width: 0, height: 0, orientation: 1, truncated: true };
  if (bytes.length < 33 || ascii(bytes, 12, 16) !== 'IHDR') return header;
  header.width = readU32BE(bytes, 16);
  header.height = readU32BE(bytes, 20);
  let pos = 8;
  while (pos + 12 <= bytes.length) {
    const length = readU32BE(bytes, pos);
    const type = ascii(bytes, pos + 4, pos + 8);
    const end = pos + 12 + length;
    if (end > bytes.length) return header;
    if (type === 'eXIf') header.orientation = exifOrientation(bytes, pos + 8, pos + 8 + length);
    if (type === 'IEND') {
      header.truncated = false;
      return header;
    }
    pos = end;
  }
  return header;
}

/**
 * JPEG (ITU-T T.81 Annex B): marker segments up to the start of scan; the frame header (SOFn) holds the size,
 * APP1 "Exif" the orientation. The scan data must be followed by the end-of-image marker.
 */
function readJpeg(bytes: Uint8Array): ImageHeader {
  const header: ImageHeader = { format: 'jpeg', width: 0, height: 0, orientation: 1, truncated: true };
  let pos = 2;
  while (pos + 4 <= bytes.length) {
    if (bytes[pos] !== 0xff) return header;
    const marker = bytes[pos + 1] ?? 0;
    if (marker === 0xff) {
      pos++; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      pos += 2;
      continue;
    }
    const length = readU16BE(bytes, pos + 2);
    const segment = pos + 4;
    if (pos + 2 + length > bytes.length) return header;
    if (isStartOfFrame(marker) && length >= 7) {
      header.height = readU16BE(bytes, segment + 1);
      header.width = readU16BE(bytes, segment + 3);
    } else if (marker === 0xe1 && ascii(bytes, segment, segment + 6) === 'Exif\0\0') {
      header.orientation = exifOrientation(bytes, segment + 6, pos + 2 + length);
    } else if (marker === 0xda) {
      // The scan: entropy-coded data up to EOI (FF D9). A thumbnail's EOI sits before this point.
      header.truncated = lastEndOfImage(bytes) < pos + 2 + length;
      return header;
    }
    pos += 2 + length;
  }
  return header;
}

function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function lastEndOfImage(bytes: Uint8Array): number {
  for (let i = bytes.length - 2; i >= 0; i--) if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) return i;
  return -1;
}

/** GIF89a: logical screen size at 6; the file ends with the trailer 0x3B. */
function readGif(bytes: Uint8Array): ImageHeader {
  return {
    format: 'gif',
    width: readU16LE(bytes, 6),
    height: readU16LE(bytes, 8),
    orientation: 1,
    truncated: bytes.length < 14 || !trailerWithin(bytes, 0x3b),
  };
}

/** Some writers pad a GIF after its trailer; a few bytes of padding are tolerated. */
function trailerWithin(bytes: Uint8Array, trailer: number): boolean {
  for (let i = bytes.length - 1; i >= Math.max(13, bytes.length - 16); i--) {
    if (bytes[i] === trailer) return true;
    if (bytes[i] !== 0) return false;
  }
  return false;
}

/** BMP: BITMAPCOREHEADER (12 bytes: 16-bit sizes) or BITMAPINFOHEADER and later (32-bit; height < 0 = top-down). */
function readBmp(bytes: Uint8Array): ImageHeader {
  const dibSize = readU32LE(bytes, 14);
  const core = dibSize === 12;
  const width = core ? readU16LE(bytes, 18) : Math.abs(readI32LE(bytes, 18));
  const height = core ? readU16LE(bytes, 20) : Math.abs(readI32LE(bytes, 22));
  const pixelOffset = readU32LE(bytes, 10);
  return { format: 'bmp', width, height, orientation: 1, truncated: pixelOffset >= bytes.length };
}

/**
 * The Orientation tag (0x0112) of IFD0 in a TIFF-structured EXIF block at [start, end). Anything malformed
 * reads as 1 (upright): orientation is a hint, and a broken one must not refuse an otherwise good picture.
 */
function exifOrientation(bytes: Uint8Array, start: number, end: number): number {
  const order = ascii(bytes, start, start + 2);
  if (order !== 'II' && order !== 'MM') return 1;
  const little = order === 'II';
  const u16 = (at: number): number => (at + 2 <= end ? (little ? readU16LE : readU16BE)(bytes, at) : 0);
  const u32 = (at: number): number => (at + 4 <= end ? (little ? readU32LE : readU32BE)(bytes, at) : 0);
  const ifd = start + u32(start + 4);
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > end) return 1;
    if (u16(entry) === 0x0112) {
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}

/** SVG is text: an `<svg` root within the first KiB, after an optional declaration, comments or doctype. */
function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder('utf-8').decode(bytes.subarray(0, 1024)).replace(/^\uFEFF/, '');
  if (!/^\s*</.test(head)) return false;
  return /<svg[\s>]/i.test(head);
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((value, i) => bytes[i] === value);
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  let out = '';
  for (let i = from; i < Math.min(to, bytes.length); i++) out += String.fromCharCode(bytes[i] ?? 0);
  return out;
}

function readU16BE(b: Uint8Array, at: number): number {
  return ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
}

function readU16LE(b: Uint8Array, at: number): number {
  return (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
}

function readU32BE(b: Uint8Array, at: number): number {
  return (((b[at] ?? 0) << 24) | ((b[at + 1] ?? 0) << 16) | ((b[at + 2] ?? 0) << 8) | (b[at + 3] ?? 0)) >>> 0;
}

function readU32LE(b: Uint8Array, at: number): number {
  return readI32LE(b, at) >>> 0;
}

function readI32LE(b: Uint8Array, at: number): number {
  return (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16) | ((b[at + 3] ?? 0) << 24);
}
