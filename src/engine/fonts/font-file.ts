/**
 * What a font file is, read from its table directory and the few tables embedding needs (`head`, `OS/2`,
 * `name`, `post`), never from its glyphs: the family and style it answers to, its embedding permission, and the
 * header fields an Embedded OpenType wrapper copies (eot.ts). Uploaded fonts are hostile input like images:
 * every offset and length is checked against the bytes before it is read, the table count is bounded, and a
 * file that is not one static TrueType or CFF OpenType font is refused with the reason (OpenType 1.9 "The
 * Table Directory"; docs/powerpoint-rules.md "Embedded fonts").
 */

/** Why a file cannot be embedded; the caller names the file and the payload field. */
export class FontFileError extends Error {
  override readonly name = 'FontFileError';
}

export interface FontFace {
  /** Name ID 1, the family Office matches a run's typeface against (GDI's family, not name ID 16). */
  family: string;
  /** Name ID 2 ("Regular", "Bold Italic"). */
  subfamily: string;
  /** Name ID 4 and 5, for the EOT header. */
  fullName: string;
  version: string;
  bold: boolean;
  italic: boolean;
  /** OS/2 usWeightClass. */
  weight: number;
  /** OS/2 fsType: the licence's embedding permission bits. */
  fsType: number;
  /** OS/2 PANOSE, ten bytes. */
  panose: readonly number[];
  /** OS/2 ulUnicodeRange1–4 and ulCodePageRange1–2 (0 for an OS/2 table of version 0). */
  unicodeRanges: readonly [number, number, number, number];
  codePageRanges: readonly [number, number];
  /** head checkSumAdjustment. */
  checkSumAdjustment: number;
  /** post isFixedPitch. */
  fixedPitch: boolean;
  outlines: 'truetype' | 'cff';
}

/** The most tables a font may list: real fonts have 10 to 30; the bound keeps a hostile directory cheap. */
const MAX_TABLES = 128;
const HEAD_MAGIC = 0x5f0f3cf5;
const REQUIRED_TABLES = ['head', 'name', 'OS/2', 'cmap', 'maxp', 'hhea', 'hmtx'];

interface TableRecord {
  offset: number;
  length: number;
}

/** Reads a font file; throws FontFileError saying what is wrong with it. */
export function readFontFile(bytes: Uint8Array): FontFace {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const signature = bytes.byteLength >= 4 ? view.getUint32(0) : 0;
  const tag = tagAt(bytes, 0);
  if (tag === 'ttcf')
    throw new FontFileError(
      'is a TrueType collection (.ttc), which a presentation cannot embed (ECMA-376 Part 1 §15.2.13); give one face as a .ttf or .otf file',
    );
  if (tag === 'wOFF' || tag === 'wOF2')
    throw new FontFileError('is a WOFF web font; give the font as a .ttf or .otf file');
  if (signature !== 0x00010000 && tag !== 'OTTO' && tag !== 'true')
    throw new FontFileError('is not a font: a .ttf or .otf file starts with an sfnt version or "OTTO"');
  const tables = readDirectory(bytes, view);
  for (const required of REQUIRED_TABLES)
    if (!tables.has(required)) throw new FontFileError(`has no "${required}" table`);
  const cff = tables.has('CFF ') || tables.has('CFF2');
  if (!cff && !(tables.has('glyf') && tables.has('loca')))
    throw new FontFileError('has no glyph outlines ("glyf" and "loca", or "CFF ")');
  if (tables.has('fvar'))
    throw new FontFileError(
      'is a variable font, which PowerPoint does not show once embedded; give a static instance of each style',
    );
  const head = readHead(view, tables.get('head') as TableRecord);
  const os2 = readOs2(view, tables.get('OS/2') as TableRecord);
  const names = readNames(bytes, view, tables.get('name') as TableRecord);
  const post = tables.get('post');
  const family = names.get(1);
  if (!family) throw new FontFileError('names no family (name ID 1 of its "name" table)');
  return {
    family,
    subfamily: names.get(2) ?? '',
    fullName: names.get(4) ?? family,
    version: names.get(5) ?? '',
    // fsSelection is what Windows reads; macStyle is the older flag some fonts set alone.
    bold: (os2.fsSelection & 0x20) !== 0 || (head.macStyle & 0x01) !== 0,
    italic: (os2.fsSelection & 0x01) !== 0 || (head.macStyle & 0x02) !== 0,
    weight: os2.weight,
    fsType: os2.fsType,
    panose: os2.panose,
    unicodeRanges: os2.unicodeRanges,
    codePageRanges: os2.codePageRanges,
    checkSumAdjustment: head.checkSumAdjustment,
    fixedPitch: post !== undefined && post.length >= 16 && view.getUint32(post.offset + 12) !== 0,
    outlines: cff ? 'cff' : 'truetype',
  };
}

function readDirectory(bytes: Uint8Array, view: DataView): Map<string, TableRecord> {
  if (bytes.byteLength < 12) throw new FontFileError('is cut short: its table directory is missing');
  const count = view.getUint16(4);
  if (count === 0 || count > MAX_TABLES)
    throw new FontFileError(`lists ${count} tables (a font has 1 to ${MAX_TABLES})`);
  if (12 + count * 16 > bytes.byteLength)
    throw new FontFileError('is cut short: its table directory runs past the end of the file');
  const tables = new Map<string, TableRecord>();
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    const tag = tagAt(bytes, at);
    const offset = view.getUint32(at + 8);
    const length = view.getUint32(at + 12);
    if (offset + length > bytes.byteLength || offset < 12 + count * 16)
      throw new FontFileError(`is cut short or damaged: its "${printable(tag)}" table lies outside the file`);
    if (tables.has(tag)) throw new FontFileError(`lists its "${printable(tag)}" table twice`);
    tables.set(tag, { offset, length });
  }
  return tables;
}

function readHead(view: DataView, table: TableRecord): { checkSumAdjustment: number; macStyle: number } {
  if (table.length < 54) throw new FontFileError('has a "head" table too short to be one');
  if (view.getUint32(table.offset + 12) !== HEAD_MAGIC)
    throw new FontFileError('has a damaged "head" table (its magic number is wrong)');
  return {
    checkSumAdjustment: view.getUint32(table.offset + 8),
    macStyle: view.getUint16(table.offset + 44),
  };
}

interface Os2 {
  weight: number;
  fsType: number;
  fsSelection: number;
  panose: number[];
  unicodeRanges: [number, number, number, number];
  codePageRanges: [number, number];
}

/** OS/2 version 0 is 78 bytes; version 1 and later add the code page ranges (86 bytes and more). */
function readOs2(view: DataView, table: TableRecord): Os2 {
  const at = table.offset;
  if (table.length < 78) throw new FontFileError('has an "OS/2" table too short to be one');
  const version = view.getUint16(at);
  const hasCodePages = version >= 1 && table.length >= 86;
  const panose: number[] = [];
  for (let i = 0; i < 10; i++) panose.push(view.getUint8(at + 32 + i));
  return {
    weight: view.getUint16(at + 4),
    fsType: view.getUint16(at + 8),
    fsSelection: view.getUint16(at + 62),
    panose,
    unicodeRanges: [
      view.getUint32(at + 42),
      view.getUint32(at + 46),
      view.getUint32(at + 50),
      view.getUint32(at + 54),
    ],
    codePageRanges: hasCodePages ? [view.getUint32(at + 78), view.getUint32(at + 82)] : [0, 0],
  };
}

/**
 * Name IDs 1, 2, 4 and 5, each from the best record for it: Windows Unicode in US English, then any Windows
 * Unicode language, then the Unicode platform, then Macintosh Roman (ASCII only). Strings are bounded by the
 * table and by 256 characters.
 */
function readNames(bytes: Uint8Array, view: DataView, table: TableRecord): Map<number, string> {
  const at = table.offset;
  if (table.length < 6) throw new FontFileError('has a "name" table too short to be one');
  const count = view.getUint16(at + 2);
  const storage = at + view.getUint16(at + 4);
  const end = at + table.length;
  if (6 + count * 12 > table.length)
    throw new FontFileError('has a damaged "name" table (its records run past the table)');
  const best = new Map<number, { rank: number; text: string }>();
  for (let i = 0; i < count; i++) {
    const record = at + 6 + i * 12;
    const platform = view.getUint16(record);
    const encoding = view.getUint16(record + 2);
    const language = view.getUint16(record + 4);
    const nameId = view.getUint16(record + 6);
    if (nameId !== 1 && nameId !== 2 && nameId !== 4 && nameId !== 5) continue;
    const rank = recordRank(platform, encoding, language);
    if (rank === 0 || (best.get(nameId)?.rank ?? 0) >= rank) continue;
    const length = view.getUint16(record + 8);
    const start = storage + view.getUint16(record + 10);
    if (start + length > end)
      throw new FontFileError('has a damaged "name" table (a string lies outside the table)');
    const raw = bytes.subarray(start, start + Math.min(length, 512));
    // Control characters cannot go into XML 1.0 (the typeface attribute): a name holding them loses them.
    const text = (platform === 1 ? macRoman(raw) : utf16be(raw))
      // eslint-disable-next-line no-control-regex -- control characters are what is removed
      .replace(/[\u0000-\u001f\u007f\ufffe\uffff]/g, '')
      .trim();
    if (text !== '') best.set(nameId, { rank, text });
  }
  return new Map([...best].map(([id, { text }]) => [id, text]));
}

function recordRank(platform: number, encoding: number, language: number): number {
  if (platform === 3 && (encoding === 1 || encoding === 10)) return language === 0x409 ? 4 : 3;
  if (platform === 0) return 2;
  if (platform === 1 && encoding === 0 && language === 0) return 1;
  return 0;
}

function utf16be(raw: Uint8Array): string {
  let text = '';
  for (let i = 0; i + 1 < raw.length; i += 2)
    text += String.fromCharCode((raw[i] as number) * 256 + (raw[i + 1] as number));
  return text.replace(/[\uD800-\uDFFF]/g, '\uFFFD');
}

/** Mac Roman, ASCII part only (names of Latin fonts); other bytes become U+FFFD. */
function macRoman(raw: Uint8Array): string {
  return String.fromCharCode(...[...raw].map((b) => (b < 0x80 ? b : 0xfffd)));
}

function tagAt(bytes: Uint8Array, at: number): string {
  if (at + 4 > bytes.byteLength) return '';
  return String.fromCharCode(
    bytes[at] as number,
    bytes[at + 1] as number,
    bytes[at + 2] as number,
    bytes[at + 3] as number,
  );
}

function printable(tag: string): string {
  return tag.replace(/[^\x20-\x7e]/g, '?');
}

/**
 * Why the licence of a font forbids embedding it, or null when it allows it (OpenType "OS/2" fsType): usage
 * bits 0–3 give one level (with several set, the least restrictive counts), bit 9 allows bitmaps only, and
 * PowerPoint embeds outlines.
 */
export function embeddingRefusal(fsType: number): string | null {
  const usage = fsType & 0x000f;
  const allowsOutlines = (fsType & 0x0200) === 0;
  if (usage !== 0 && (usage & 0x000c) === 0)
    return `its licence forbids embedding (OS/2 fsType 0x${hex4(fsType)}: Restricted License embedding)`;
  if (!allowsOutlines)
    return `its licence allows embedding bitmaps only (OS/2 fsType 0x${hex4(fsType)}: Bitmap embedding only), and a presentation embeds outlines`;
  return null;
}

/** Preview & Print embedding (fsType bit 2 without bit 3): PowerPoint opens such a deck read-only. */
export function isPreviewAndPrintOnly(fsType: number): boolean {
  return (fsType & 0x0004) !== 0 && (fsType & 0x0008) === 0;
}

function hex4(n: number): string {
  return n.toString(16).toUpperCase().padStart(4, '0');
}
