/**
 * An image the engine can store: PNG, JPEG and GIF as they come (docs/payload-pictures.md), upright, with
 * its displayed pixel size. Other formats (BMP, TIFF, WebP, AVIF, SVG, a JPEG turned by EXIF) need decoding,
 * which is the image preparation step's work outside the engine; it hands the result over as a PreparedImage.
 */
import { bmpRleProblem } from './bmp-rle.js';
import { displaySize, readImageHeader, type ImageFormat, type ImageHeader } from './image-header.js';

export type StoredImageType = 'png' | 'jpeg' | 'gif';

export interface PreparedImage {
  /** The raster to store: for an SVG, its PNG rendition (the fallback older viewers show). */
  bytes: Uint8Array;
  type: StoredImageType;
  /** Displayed pixel size of `bytes`. */
  width: number;
  height: number;
  /** The SVG source, stored beside its rendition (docs/powerpoint-rules.md "SVG pictures"). */
  svg?: Uint8Array;
  /** What preparing it changed that the user should know (an SVG's removed scripts), naming the source. */
  warnings?: string[];
}

/** Why a source cannot be a picture, as a sentence naming the source; the engine adds the shape's path. */
export interface ImageRefusal {
  refused: string;
}

export type ImageOutcome = PreparedImage | ImageRefusal;

export interface ImageLimits {
  /** Width × height of any one image (decompression bombs are refused on their header). */
  maxPixels: number;
  /** Bytes of any one image file. */
  maxBytes: number;
}

export const DEFAULT_IMAGE_LIMITS: ImageLimits = Object.freeze({
  maxPixels: 50_000_000,
  maxBytes: 25 * 1024 * 1024,
});

export type ImageAssessment =
  | { kind: 'stored'; image: PreparedImage }
  | { kind: 'convert'; format: ImageFormat; header: ImageHeader }
  | { kind: 'refused'; message: string };

const FORMAT_NAMES: Record<ImageFormat, string> = {
  png: 'PNG',
  jpeg: 'JPEG',
  gif: 'GIF',
  bmp: 'BMP',
  tiff: 'TIFF',
  webp: 'WebP',
  avif: 'AVIF',
  heic: 'HEIC',
  svg: 'SVG',
};

export function formatName(format: ImageFormat): string {
  return FORMAT_NAMES[format];
}

export function isRefusal(outcome: ImageOutcome): outcome is ImageRefusal {
  return 'refused' in outcome;
}

/**
 * Whether `bytes` can be stored as they are, need converting first, or are refused (not an image, cut short,
 * too large). `label` names the source in messages (`"logo.png"`, `the data: URI`).
 */
export function assessImage(bytes: Uint8Array, label: string, limits: ImageLimits): ImageAssessment {
  if (bytes.byteLength > limits.maxBytes) {
    return {
      kind: 'refused',
      message: `${label} is ${size(bytes.byteLength)}, over the ${size(limits.maxBytes)} limit for one image`,
    };
  }
  const header = readImageHeader(bytes);
  if (!header) {
    return {
      kind: 'refused',
      message: `${label} is not an image PowerPoint can show (PNG, JPEG, GIF, BMP, TIFF, WebP, AVIF or SVG expected)`,
    };
  }
  if (header.truncated)
    return { kind: 'refused', message: `${label} is a truncated ${formatName(header.format)} file` };
  const pixels = header.width * header.height;
  if (pixels > limits.maxPixels) {
    return {
      kind: 'refused',
      message: `${label} is ${header.width} × ${header.height} pixels, over the limit of ${limits.maxPixels.toLocaleString('en-US')} pixels for one image`,
    };
  }
  if (header.format === 'bmp') {
    const problem = bmpRleProblem(bytes, header.width, header.height);
    if (problem) return { kind: 'refused', message: `${label} is a BMP that cannot be read: ${problem}` };
  }
  const storable = header.format === 'png' || header.format === 'jpeg' || header.format === 'gif';
  if (!storable || header.orientation !== 1) return { kind: 'convert', format: header.format, header };
  if (header.width === 0 || header.height === 0)
    return {
      kind: 'refused',
      message: `${label} has no pixels (its header says ${header.width} × ${header.height})`,
    };
  return {
    kind: 'stored',
    image: { bytes, type: header.format as StoredImageType, ...displaySize(header) },
  };
}

function size(bytes: number): string {
  const MiB = 1024 * 1024;
  if (bytes < MiB) return `${Math.ceil(bytes / 1024)} KB`;
  return `${Math.round((bytes / MiB) * 10) / 10} MB`;
}
