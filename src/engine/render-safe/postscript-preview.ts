/**
 * The picture a PostScript file carries for programs that do not run PostScript: the TIFF or WMF preview of a
 * DOS EPS binary file (Adobe Technical Note #5002, "Encapsulated PostScript File Format Specification" §5).
 * LibreOffice renders an EPS without one by handing it to Ghostscript, a PostScript interpreter that reads
 * files; the render-safe copy gives LibreOffice the preview instead, or refuses the picture.
 */
import { isMetafile } from './part-kinds.js';
import { storedPixels } from '../pictures/stored-pixels.js';

const DOS_EPS = [0xc5, 0xd0, 0xd3, 0xc6];

/** The TIFF (preferred: a raster) or WMF preview of `bytes`, or null when it carries none. */
export function postscriptPreview(bytes: Uint8Array): Uint8Array | null {
  if (!DOS_EPS.every((value, i) => bytes[i] === value) || bytes.length < 30) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const section = (at: number): Uint8Array | null => {
    const start = view.getUint32(at, true);
    const length = view.getUint32(at + 4, true);
    if (length === 0 || start < 30 || start + length > bytes.length) return null;
    return bytes.subarray(start, start + length);
  };
  const tiff = section(20);
  if (tiff && storedPixels(tiff)?.format === 'tiff') return tiff;
  const wmf = section(12);
  return wmf && isMetafile(wmf) ? wmf : null;
}
