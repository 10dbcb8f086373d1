/**
 * Run-length-encoded BMP (BI_RLE8 = 1, BI_RLE4 = 2): the pixel data is a stream of runs, line ends and moves.
 * A stream from a real encoder writes each pixel at most once, so the pixels it writes never exceed width ×
 * height. A hostile one (a 50 000 000 × 1 header, then runs that a decoder's line-end handling sends back over
 * the same row) makes a decoder write billions of pixels from a few megabytes. One pass over the stream,
 * linear in its bytes and decoding nothing, tells the two apart before any decoder sees it.
 */

const BI_RLE8 = 1;
const BI_RLE4 = 2;

/** Why the RLE stream of a BMP cannot be decoded in bounded work, or null (not RLE, or a sound stream). */
export function bmpRleProblem(bytes: Uint8Array, width: number, height: number): string | null {
  if (readU32LE(bytes, 14) < 40) return null; // BITMAPCOREHEADER has no compression field
  const compression = readU32LE(bytes, 30);
  if (compression !== BI_RLE8 && compression !== BI_RLE4) return null;
  const capacity = width * height;
  let written = 0;
  let row = 0;
  let pos = readU32LE(bytes, 10);
  while (pos + 1 < bytes.length) {
    const count = bytes[pos] ?? 0;
    const code = bytes[pos + 1] ?? 0;
    pos += 2;
    if (count > 0) {
      written += count;
    } else if (code === 0) {
      row += 1; // end of line
    } else if (code === 1) {
      break; // end of bitmap
    } else if (code === 2) {
      row += bytes[pos + 1] ?? 0; // delta: right, then down
      pos += 2;
    } else {
      // Absolute run of `code` pixels, padded to a 16-bit boundary.
      written += code;
      const dataBytes = compression === BI_RLE8 ? code : Math.ceil(code / 2);
      pos += dataBytes + (dataBytes % 2);
    }
    if (written > capacity || row > height)
      return `its run-length data writes more pixels than its ${width} × ${height} header holds`;
  }
  return null;
}

function readU32LE(b: Uint8Array, at: number): number {
  return ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16) | ((b[at + 3] ?? 0) << 24)) >>> 0;
}
