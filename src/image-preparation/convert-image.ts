/**
 * Decoding and converting pictures the engine cannot store as they are, with sharp (libvips, shipped for this
 * platform in its npm package; loaded by load-sharp.ts) and bmp-ts for BMP, which libvips does not read. The
 * only user of both.
 *
 * - BMP, TIFF, WebP, AVIF → PNG (lossless; shown by every viewer; multi-page or animated: the first frame).
 * - SVG → kept, plus a PNG rendition for the `a:blip` every viewer reads (docs/powerpoint-rules.md "SVG pictures").
 * - A JPEG (or PNG) turned by its EXIF orientation → the same format with the pixels turned upright, since
 *   PowerPoint ignores EXIF orientation (docs/powerpoint-rules.md "Image formats and orientation").
 *
 * The pixel count is checked on the header before anything decodes (decompression bombs), and again by
 * sharp's own `limitInputPixels`. This runs in the conversion process (conversion-child.ts), never in the
 * server: there a time or memory limit can stop libvips.
 */
import type { ImageLimits, PreparedImage } from '../engine/index.js';
import { formatName, SVG_RENDITION_LONG_SIDE } from '../engine/index.js';
import type { Conversion } from './conversion-protocol.js';
import { loadSharp, type Sharp } from './load-sharp.js';
const JPEG_QUALITY = 92;

export class ImageConversionError extends Error {
  override readonly name = 'ImageConversionError';
}

/**
 * Converts an image `assessImage` said needs it (an SVG: as makeSvgSafe cleaned it, at the rendition size it
 * chose). Throws ImageConversionError with a sentence about `label`.
 */
export async function convertImage(
  bytes: Uint8Array,
  conversion: Conversion,
  label: string,
  limits: ImageLimits,
  renditionLongSide = SVG_RENDITION_LONG_SIDE,
): Promise<PreparedImage> {
  const sharp = loadSharp();
  const options = { limitInputPixels: limits.maxPixels, failOn: 'error' as const };
  try {
    switch (conversion.format) {
      case 'svg':
        return await renderSvg(sharp, bytes, label, limits, renditionLongSide);
      case 'bmp':
        return await toPng(sharp(await decodeBmp(bytes), options));
      case 'jpeg': {
        const { data, info } = await sharp(bytes, options)
          .rotate()
          .jpeg({ quality: JPEG_QUALITY })
          .toBuffer({ resolveWithObject: true });
        return { bytes: new Uint8Array(data), type: 'jpeg', width: info.width, height: info.height };
      }
      default: {
        // The header alone (no decoding), read without the limit so that the refusal can give the size.
        const metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
        checkPixels(metadata.width, metadata.height, label, limits);
        return await toPng(sharp(bytes, options).rotate());
      }
    }
  } catch (error) {
    if (error instanceof ImageConversionError) throw error;
    throw new ImageConversionError(describeFailure(error, conversion, label, limits));
  }
}

async function toPng(image: import('sharp').Sharp): Promise<PreparedImage> {
  const { data, info } = await image.png().toBuffer({ resolveWithObject: true });
  return { bytes: new Uint8Array(data), type: 'png', width: info.width, height: info.height };
}

async function renderSvg(
  sharp: Sharp,
  svg: Uint8Array,
  label: string,
  limits: ImageLimits,
  renditionLongSide: number,
): Promise<PreparedImage> {
  // At sharp's default 72 dpi the metadata is the SVG's own size in CSS pixels (width/height or viewBox).
  const metadata = await sharp(svg).metadata();
  const longSide = Math.max(metadata.width ?? 0, metadata.height ?? 0);
  if (!longSide)
    throw new ImageConversionError(`${label} is an SVG without a size (no width, height or viewBox)`);
  let scale = renditionLongSide / longSide;
  const pixels = (metadata.width ?? 0) * (metadata.height ?? 0) * scale * scale;
  if (pixels > limits.maxPixels) scale *= Math.sqrt(limits.maxPixels / pixels);
  const density = Math.min(100_000, Math.max(1, 72 * scale));
  const rendition = await toPng(sharp(svg, { density, limitInputPixels: limits.maxPixels }));
  return { ...rendition, svg };
}

/** BMP through bmp-ts into raw RGBA; below 32 bits per pixel the alpha byte means nothing and is dropped. */
async function decodeBmp(bytes: Uint8Array): Promise<Buffer> {
  const { decode } = await import('bmp-ts');
  const bitmap = decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { toRGBA: true });
  const sharp = loadSharp();
  const raw = sharp(bitmap.data, { raw: { width: bitmap.width, height: bitmap.height, channels: 4 } });
  return (bitmap.bitPP === 32 ? raw : raw.removeAlpha()).png().toBuffer();
}

function checkPixels(
  width: number | undefined,
  height: number | undefined,
  label: string,
  limits: ImageLimits,
): void {
  if ((width ?? 0) * (height ?? 0) > limits.maxPixels) {
    throw new ImageConversionError(
      `${label} is ${width} × ${height} pixels, over the limit of ${limits.maxPixels.toLocaleString('en-US')} pixels for one image`,
    );
  }
}

function describeFailure(error: unknown, conversion: Conversion, label: string, limits: ImageLimits): string {
  const message = error instanceof Error ? error.message : String(error);
  const kind = formatName(conversion.format);
  if (/pixel limit/i.test(message))
    return `${label} is over the limit of ${limits.maxPixels.toLocaleString('en-US')} pixels for one image`;
  if (conversion.format === 'heic')
    return `${label} is a HEIC image, which cannot be converted here; send it as JPEG or PNG`;
  if (/truncat|premature|unexpected end|end of (file|stream)|short read/i.test(message))
    return `${label} is a truncated ${kind} file`;
  return `${label} could not be read as a ${kind} image (${firstLine(message)})`;
}

function firstLine(message: string): string {
  return message.split('\n')[0]?.trim() ?? message;
}
