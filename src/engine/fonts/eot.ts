/**
 * The `.fntdata` part of an embedded font: an Embedded OpenType structure (W3C Member Submission "Embedded
 * OpenType (EOT) File Format", 2008, version 0x00020002) around the font file, unchanged. ECMA-376 Part 1
 * §15.2.13 says a font part of content type `application/x-fontdata` holds this format. PowerPoint writes the
 * font data MicroType-Express compressed (flag 0x4); the format's default, and what LibreOffice and other
 * producers write, is the raw font with no flag set, which is what this writes (docs/powerpoint-rules.md
 * "Embedded fonts"). All values little-endian, but the font data.
 */
import type { FontFace } from './font-file.js';

const VERSION = 0x00020002;
const MAGIC = 0x504c;
/** The checksum of an empty root string: 0 XOR 0x50475342 (EOT "RootStringCheckSum"). */
const EMPTY_ROOT_STRING_CHECKSUM = 0x50475342;
/** "DEFAULT_CHARSET: no preference" (EOT "Charset"). */
const DEFAULT_CHARSET = 0x01;

export function eotFontData(font: Uint8Array, face: FontFace): Uint8Array {
  const names = [face.family, face.subfamily, face.version, face.fullName].map(utf16le);
  // Fixed fields (80 bytes), four names each after a padding and its size (4 bytes + the name), then
  // Padding5, RootStringSize (0), RootStringCheckSum, EUDCCodePage, Padding6, SignatureSize (0), EUDCFlags and
  // EUDCFontSize (24 bytes).
  const headerSize = 80 + names.reduce((sum, name) => sum + 4 + name.byteLength, 0) + 24;
  const out = new Uint8Array(headerSize + font.byteLength);
  const view = new DataView(out.buffer);
  view.setUint32(0, out.byteLength, true); // EOTSize
  view.setUint32(4, font.byteLength, true); // FontDataSize
  view.setUint32(8, VERSION, true);
  view.setUint32(12, 0, true); // Flags: not subset, not compressed, not XOR-encrypted
  face.panose.forEach((b, i) => view.setUint8(16 + i, b));
  view.setUint8(26, DEFAULT_CHARSET);
  view.setUint8(27, face.italic ? 0x01 : 0x00);
  view.setUint32(28, face.weight, true);
  view.setUint16(32, face.fsType, true);
  view.setUint16(34, MAGIC, true);
  face.unicodeRanges.forEach((range, i) => view.setUint32(36 + 4 * i, range, true));
  view.setUint32(52, face.codePageRanges[0], true);
  view.setUint32(56, face.codePageRanges[1], true);
  view.setUint32(60, face.checkSumAdjustment, true);
  // 64–79: Reserved1–4 (zero). Each name follows a padding (the first, Padding1, at 80) and its size.
  let at = 80;
  for (const name of names) {
    at += 2; // padding
    view.setUint16(at, name.byteLength, true);
    out.set(name, at + 2);
    at += 2 + name.byteLength;
  }
  at += 2; // Padding5
  at += 2; // RootStringSize: 0, no root string
  view.setUint32(at, EMPTY_ROOT_STRING_CHECKSUM, true);
  at += 4;
  at += 4; // EUDCCodePage: 0
  at += 2; // Padding6
  at += 2; // SignatureSize: 0
  at += 4; // EUDCFlags: 0
  at += 4; // EUDCFontSize: 0
  out.set(font, at);
  return out;
}

function utf16le(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out[2 * i] = code & 0xff;
    out[2 * i + 1] = code >> 8;
  }
  return out;
}

/** EOT Flags: the font data is MicroType Express compressed (TTEMBED_TTCOMPRESSED), or XORed with 0x50. */
const FLAG_COMPRESSED = 0x00000004;
const FLAG_XOR_ENCRYPTED = 0x10000000;
/** The versions of the W3C Member Submission. */
const VERSIONS = new Set([0x00010000, 0x00020001, 0x00020002]);
/** The fixed fields and four empty names of the smallest (version 0x00010000) header. */
const MIN_HEADER = 82;

/** Why a font part's bytes give no font file; the caller names the part. */
export class FontPartError extends Error {
  override readonly name = 'FontPartError';
}

/**
 * The font file inside a `.fntdata` part: the data an Embedded OpenType structure ends with (its FontData comes
 * last, after the header and any EUDC font), un-XORed when the header says so; or the part itself when it is a
 * plain TrueType or OpenType file, as some producers write it. Every size is checked against the part; a
 * compressed font (MicroType Express, what PowerPoint saves) is not unpacked here. The font is a copy, read by
 * nothing yet: the caller checks it (font-file.ts) like an uploaded one.
 */
export function fontOfPart(part: Uint8Array): Uint8Array {
  const view = new DataView(part.buffer, part.byteOffset, part.byteLength);
  const signature = part.byteLength >= 4 ? view.getUint32(0) : 0;
  if (signature === 0x00010000 || signature === 0x4f54544f /* OTTO */ || signature === 0x74727565 /* true */)
    return part.slice();
  if (part.byteLength < MIN_HEADER || view.getUint16(34, true) !== MAGIC)
    throw new FontPartError('is neither an Embedded OpenType font nor a TrueType or OpenType file');
  const eotSize = view.getUint32(0, true);
  const fontDataSize = view.getUint32(4, true);
  const version = view.getUint32(8, true);
  const flags = view.getUint32(12, true);
  if (!VERSIONS.has(version))
    throw new FontPartError(`is an Embedded OpenType font of unknown version 0x${version.toString(16)}`);
  if (eotSize !== part.byteLength)
    throw new FontPartError(`says it is ${eotSize} bytes long, but the part holds ${part.byteLength}`);
  if (fontDataSize === 0 || fontDataSize > eotSize - MIN_HEADER)
    throw new FontPartError(
      `says its font data is ${fontDataSize} bytes, which its ${eotSize} bytes cannot hold`,
    );
  if ((flags & FLAG_COMPRESSED) !== 0)
    throw new FontPartError(
      'is compressed (MicroType Express, as PowerPoint saves embedded fonts), which previews do not unpack',
    );
  const font = part.slice(eotSize - fontDataSize);
  if ((flags & FLAG_XOR_ENCRYPTED) !== 0)
    for (let i = 0; i < font.length; i++) font[i] = (font[i] as number) ^ 0x50;
  return font;
}
