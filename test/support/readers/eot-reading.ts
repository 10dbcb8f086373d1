/**
 * Reads an embedded font part (`.fntdata`) back as an Embedded OpenType structure, field by field from the W3C
 * Member Submission's table (version 0x00010000, 0x00020001 and 0x00020002, little-endian), with code of its own:
 * what a reader of the deck (PowerPoint, Apache POI, libeot) finds in it.
 */
export interface EotStructure {
  eotSize: number;
  fontDataSize: number;
  version: number;
  flags: number;
  panose: number[];
  charset: number;
  italic: number;
  weight: number;
  fsType: number;
  magic: number;
  familyName: string;
  styleName: string;
  versionName: string;
  fullName: string;
  rootStringCheckSum: number | null;
  /** Where the header says the font data starts, and the data itself. */
  fontDataOffset: number;
  fontData: Uint8Array;
}

export function readEot(part: Uint8Array): EotStructure {
  const view = new DataView(part.buffer, part.byteOffset, part.byteLength);
  let at = 0;
  const u8 = (): number => view.getUint8(at++);
  const u16 = (): number => {
    const v = view.getUint16(at, true);
    at += 2;
    return v;
  };
  const u32 = (): number => {
    const v = view.getUint32(at, true);
    at += 4;
    return v;
  };
  const name = (): string => {
    u16(); // padding
    const size = u16();
    if (size % 2 !== 0) throw new Error(`a name of odd size ${size} at ${at}`);
    let text = '';
    for (let i = 0; i < size; i += 2) text += String.fromCharCode(view.getUint16(at + i, true));
    at += size;
    return text;
  };
  /** A size, then as many bytes skipped (`at += u16()` would lose the size's own two bytes). */
  const skipSized = (size: () => number): void => {
    const length = size();
    at += length;
  };
  const eotSize = u32();
  const fontDataSize = u32();
  const version = u32();
  const flags = u32();
  const panose = Array.from({ length: 10 }, u8);
  const charset = u8();
  const italic = u8();
  const weight = u32();
  const fsType = u16();
  const magic = u16();
  at += 16 + 8 + 4 + 16; // UnicodeRange1-4, CodePageRange1-2, CheckSumAdjustment, Reserved1-4
  // The first name's padding is Padding1.
  const familyName = name();
  const styleName = name();
  const versionName = name();
  const fullName = name();
  let rootStringCheckSum: number | null = null;
  if (version >= 0x00020001) {
    u16(); // Padding5
    skipSized(u16); // RootStringSize, RootString
  }
  if (version === 0x00020002) {
    rootStringCheckSum = u32();
    u32(); // EUDCCodePage
    u16(); // Padding6
    skipSized(u16); // SignatureSize, Signature
    u32(); // EUDCFlags
    skipSized(u32); // EUDCFontSize, EUDCFontData
  }
  return {
    eotSize,
    fontDataSize,
    version,
    flags,
    panose,
    charset,
    italic,
    weight,
    fsType,
    magic,
    familyName,
    styleName,
    versionName,
    fullName,
    rootStringCheckSum,
    fontDataOffset: at,
    fontData: part.subarray(at, at + fontDataSize),
  };
}
