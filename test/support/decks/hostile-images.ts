/**
 * Images that probe the image budgets, made in code: tiny files that cost a renderer or a decoder far more than
 * their size (an SVG filter bomb, an SVG carrying a huge PNG, an RLE BMP whose runs overwrite one row), and an
 * SVG carrying scripts and outside references.
 */
import { deflateSync } from 'node:zlib';

const encoder = new TextEncoder();

/** The probe's 677-byte SVG: one rect under twelve feMorphology radius 3 (hours of librsvg at 2000 px). */
export function filterBombSvg(): Uint8Array {
  const ops = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? 'dilate' : 'erode'));
  const primitives = ops.map((op) => `<feMorphology radius="3" operator="${op}"/>`).join('');
  return encoder.encode(
    `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><filter id="f">${primitives}</filter>` +
      '<rect width="100" height="100" fill="red" filter="url(#f)"/></svg>',
  );
}

/**
 * One filtered rect drawn `copies` times by `<use>`: each copy runs the filter again, so rendering takes minutes.
 * makeSvgSafe counts the copies; sent unchecked, it stands for a cost no estimate sees (only a time limit).
 */
export function filterThroughUsesSvg(copies: number): Uint8Array {
  const uses = Array.from({ length: copies }, (_, i) => `<use href="#r" x="${i % 50}"/>`).join('');
  return encoder.encode(
    '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><defs><filter id="f">' +
      '<feMorphology radius="1"/></filter><rect id="r" width="150" height="80" fill="red" filter="url(#f)"/>' +
      `</defs>${uses}</svg>`,
  );
}

/** A one-colour PNG (1-bit grey) of any size: 20 000 × 20 000 deflates to ~65 KB. */
export function hugeFlatPng(width: number, height: number): Uint8Array {
  const row = new Uint8Array(1 + Math.ceil(width / 8)); // filter byte 0, then black pixels
  const raw = new Uint8Array(row.length * height); // all zeros: every row is `row`
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter, no interlace
  return concat([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', new Uint8Array()),
  ]);
}

/** The smuggled raster: a `width` × `height` SVG whose only child is an `<image>` with `png` as a data: URI. */
export function svgEmbedding(png: Uint8Array, width = 100, height = 100): Uint8Array {
  const uri = `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
  return encoder.encode(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<image width="${width}" height="${height}" href="${uri}"/></svg>`,
  );
}

/**
 * The probe's BMP: BITMAPINFOHEADER 50 000 000 × 1, 8 bits, BI_RLE8, 256 greys, then `lines` times 150 000 runs
 * of 255 pixels and an end of line (each end of line sends bmp-ts back over the same row). 40 lines: 12 MB.
 */
export function overwritingRleBmp(lines = 40): Uint8Array {
  const runs = new Uint8Array(150_000 * 2 + 2);
  for (let i = 0; i < 150_000; i++) runs[i * 2] = 0xff; // count 255, colour 0; then 00 00 (end of line)
  return rleBmp(50_000_000, 1, [...Array.from({ length: lines }, () => runs), new Uint8Array([0, 1])]);
}

/** A sound RLE8 BMP, 4 × 2: each row one run of 4 pixels, then end of line; end of bitmap. */
export function smallRleBmp(): Uint8Array {
  return rleBmp(4, 2, [new Uint8Array([4, 200, 0, 0, 4, 50, 0, 0, 0, 1])]);
}

function rleBmp(width: number, height: number, data: Uint8Array[]): Uint8Array {
  const palette = new Uint8Array(256 * 4);
  for (let i = 0; i < 256; i++) palette.set([i, i, i, 0], i * 4);
  const pixels = concat(data);
  const offset = 14 + 40 + palette.length;
  const header = new Uint8Array(54);
  const view = new DataView(header.buffer);
  header.set([0x42, 0x4d]); // "BM"
  view.setUint32(2, offset + pixels.length, true);
  view.setUint32(10, offset, true);
  view.setUint32(14, 40, true); // BITMAPINFOHEADER
  view.setInt32(18, width, true);
  view.setInt32(22, height, true);
  view.setUint16(26, 1, true); // planes
  view.setUint16(28, 8, true); // bits per pixel
  view.setUint32(30, 1, true); // BI_RLE8
  view.setUint32(34, pixels.length, true);
  view.setUint32(46, 256, true); // colours used
  return concat([header, palette, pixels]);
}

/** An SVG with everything a stored SVG must not carry, around a red square that must survive. */
export function activeSvg(): Uint8Array {
  return encoder.encode(
    '<?xml version="1.0"?>\n' +
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n' +
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" ' +
      'height="100" onload="alert(1)"><script>alert(2)</script>' +
      '<style>@import url(http://attacker.test/x.css); .s { fill: url(#g) }</style>' +
      '<image xlink:href="file:///etc/passwd" width="10" height="10"/>' +
      '<image href="http://attacker.test/track.png" width="10" height="10"/>' +
      '<a href="javascript:alert(3)"><circle r="1"/></a>' +
      '<rect id="sq" width="100" height="100" fill="red" onclick="steal()"/><use href="#sq"/>' +
      '<circle r="2" fill="url(\'#g\')" stroke="url(http://attacker.test/p)"/></svg>',
  );
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(encoder.encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
