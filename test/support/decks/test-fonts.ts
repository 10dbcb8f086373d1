/**
 * Fonts for the tests of embedded fonts, from the Debian packages the suite already needs (fonts-liberation2,
 * fonts-crosextra-carlito: README, .ci/run), never committed; and the same files changed the way a test needs
 * (a licence bit set, a table renamed, a signature replaced), by patching bytes of their table directory with
 * code of its own, not the engine's.
 */
import { existsSync, readFileSync } from 'node:fs';

const FOLDERS = ['/usr/share/fonts/truetype/liberation2', '/usr/share/fonts/truetype/crosextra'];

/** A font file by its file name (`LiberationSerif-Bold.ttf`, `Carlito-Regular.ttf`). */
export function systemFont(fileName: string): Uint8Array {
  for (const folder of FOLDERS) {
    const path = `${folder}/${fileName}`;
    if (existsSync(path)) return new Uint8Array(readFileSync(path));
  }
  throw new Error(
    `${fileName} is not installed: the suite needs fonts-liberation2 and fonts-crosextra-carlito (README)`,
  );
}

interface Table {
  /** Where the table's record is in the directory. */
  record: number;
  offset: number;
  length: number;
}

/** The table directory, read here (big-endian sfnt: 12-byte header, 16-byte records). */
export function tables(font: Uint8Array): Map<string, Table> {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const found = new Map<string, Table>();
  for (let i = 0; i < view.getUint16(4); i++) {
    const record = 12 + 16 * i;
    const tag = String.fromCharCode(...font.subarray(record, record + 4));
    found.set(tag, { record, offset: view.getUint32(record + 8), length: view.getUint32(record + 12) });
  }
  return found;
}

function table(font: Uint8Array, tag: string): Table {
  const found = tables(font).get(tag);
  if (!found) throw new Error(`the font has no "${tag}" table`);
  return found;
}

/** A copy of `font` with OS/2 fsType (its embedding permission) set to `fsType`. */
export function withFsType(font: Uint8Array, fsType: number): Uint8Array {
  const copy = font.slice();
  new DataView(copy.buffer).setUint16(table(copy, 'OS/2').offset + 8, fsType);
  return copy;
}

/** A copy of `font` whose table `from` is listed under the tag `to` (a variable font's `fvar`, a CFF font's `CFF `). */
export function withTableRenamed(font: Uint8Array, from: string, to: string): Uint8Array {
  const copy = font.slice();
  copy.set(
    [...to].map((c) => c.charCodeAt(0)),
    table(copy, from).record,
  );
  return copy;
}

/** A copy of `font` with its first four bytes (the sfnt version) replaced. */
export function withSignature(font: Uint8Array, signature: string | number): Uint8Array {
  const copy = font.slice();
  if (typeof signature === 'number') new DataView(copy.buffer).setUint32(0, signature);
  else copy.set([...signature].map((c) => c.charCodeAt(0)));
  return copy;
}

/** A copy of `font` whose record for table `tag` says it is `length` bytes long. */
export function withTableLength(font: Uint8Array, tag: string, length: number): Uint8Array {
  const copy = font.slice();
  new DataView(copy.buffer).setUint32(table(copy, tag).record + 12, length);
  return copy;
}

/** A copy of `font` with the OS/2 fsSelection bits (bold 0x20, italic 0x01, regular 0x40) set to `bits`. */
export function withStyleBits(font: Uint8Array, bits: number): Uint8Array {
  const copy = font.slice();
  const view = new DataView(copy.buffer);
  view.setUint16(table(copy, 'OS/2').offset + 62, bits);
  const head = table(copy, 'head').offset;
  // macStyle (head + 44) says the same for older readers: bit 0 bold, bit 1 italic.
  view.setUint16(head + 44, ((bits & 0x20) !== 0 ? 1 : 0) | ((bits & 0x01) !== 0 ? 2 : 0));
  return copy;
}

/**
 * A copy of `font` that answers to another family: its `name` table replaced by one of Windows Unicode records
 * (family, subfamily, unique, full and PostScript name, version; OpenType "name" table, format 0), appended at the
 * end of the file, its directory record pointing there. The family then is one fontconfig does not know.
 */
export function withFamilyName(font: Uint8Array, family: string, subfamily = 'Regular'): Uint8Array {
  const postscript = `${family}-${subfamily}`.replace(/[^A-Za-z0-9-]/g, '');
  const names: [id: number, text: string][] = [
    [1, family],
    [2, subfamily],
    [3, `${postscript};1.0`],
    [4, `${family} ${subfamily}`],
    [5, 'Version 1.0'],
    [6, postscript],
  ];
  const strings = names.map(([, text]) => {
    const bytes = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) new DataView(bytes.buffer).setUint16(2 * i, text.charCodeAt(i));
    return bytes;
  });
  const headerSize = 6 + 12 * names.length;
  const table = new Uint8Array(headerSize + strings.reduce((sum, s) => sum + s.length, 0));
  const view = new DataView(table.buffer);
  view.setUint16(2, names.length);
  view.setUint16(4, headerSize);
  let offset = 0;
  names.forEach(([id], i) => {
    const record = 6 + 12 * i;
    const text = strings[i] as Uint8Array;
    view.setUint16(record, 3); // Windows
    view.setUint16(record + 2, 1); // Unicode BMP
    view.setUint16(record + 4, 0x409); // English (United States)
    view.setUint16(record + 6, id);
    view.setUint16(record + 8, text.length);
    view.setUint16(record + 10, offset);
    table.set(text, headerSize + offset);
    offset += text.length;
  });
  const start = Math.ceil(font.byteLength / 4) * 4;
  const copy = new Uint8Array(start + table.byteLength);
  copy.set(font);
  copy.set(table, start);
  const directory = new DataView(copy.buffer);
  const record = tables(copy).get('name')?.record;
  if (record === undefined) throw new Error('the font has no "name" table');
  directory.setUint32(record + 8, start);
  directory.setUint32(record + 12, table.byteLength);
  return copy;
}
