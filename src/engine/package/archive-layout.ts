/**
 * Whether a file is one ZIP archive and nothing else (PKWARE APPNOTE §4.3.6: local records, then the central
 * directory, then its end record and comment). Readers disagree on a file that is more: Deckforge's reader takes
 * the last end record that fits, LibreOffice 7.4 the last `PK\5\6` in the file; a reader that walks local headers
 * sees entries the central directory does not list. So a file is refused when it has
 * - bytes before its first entry or between entries (another file, a second archive, a hidden entry),
 * - an end-of-central-directory signature after the central directory other than the one read (a second
 *   directory, in a comment or after it),
 * - a local header that disagrees with its central record (name, method, flags, CRC or sizes),
 * - bytes after the end record's comment other than white space or zeros (the padding some downloads add).
 * Used on decks sent for rendering; generation writes every deck afresh, so no reader ever sees such a file.
 */
import {
  CENTRAL_HEADER_SIGNATURE,
  CENTRAL_HEADER_SIZE,
  END_OF_CENTRAL_DIRECTORY_SIGNATURE,
  END_OF_CENTRAL_DIRECTORY_SIZE,
  LOCAL_HEADER_SIGNATURE,
  LOCAL_HEADER_SIZE,
  MAX_COMMENT_SIZE,
} from './zip-format.js';
import { invalid } from './zip-entry-checks.js';

/** General purpose bit 3: CRC and sizes follow the data in a data descriptor, the local header has zeros. */
const FLAG_DESCRIPTOR = 0x0008;
/** The flags a local header must repeat: encryption, the data descriptor, UTF-8 names. */
const FLAGS_COMPARED = 0x0001 | 0x0040 | FLAG_DESCRIPTOR | 0x0800;
const DESCRIPTOR_SIGNATURE = 0x08074b50;

interface CentralRecord {
  name: Uint8Array;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
  offset: number;
}

/** Throws INVALID_TEMPLATE unless `bytes` is exactly one archive (readZip has read it already). */
export function refuseAmbiguousArchive(bytes: Uint8Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = endRecord(bytes, view);
  const cdSize = view.getUint32(end + 12, true);
  const cdOffset = view.getUint32(end + 16, true);
  const commentEnd = end + END_OF_CENTRAL_DIRECTORY_SIZE + view.getUint16(end + 20, true);
  if (cdOffset + cdSize !== end) throw ambiguous('bytes lie between its central directory and its end');
  for (let pos = cdOffset + cdSize; pos + 4 <= bytes.length; pos++) {
    if (
      pos !== end &&
      bytes[pos] === 0x50 &&
      view.getUint32(pos, true) === END_OF_CENTRAL_DIRECTORY_SIGNATURE
    )
      throw ambiguous('it has two end-of-central-directory records');
  }
  for (let pos = commentEnd; pos < bytes.length; pos++) {
    const byte = bytes[pos];
    if (byte !== 0 && byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d)
      throw ambiguous('data follows the archive');
  }
  const records = centralRecords(bytes, view, cdOffset, cdSize).sort((a, b) => a.offset - b.offset);
  let expected = 0;
  for (const record of records) {
    if (record.offset !== expected) {
      throw ambiguous(expected === 0 ? 'data comes before the archive' : 'data lies between its entries');
    }
    expected = localRecordEnd(bytes, view, record);
  }
  if (expected !== cdOffset) throw ambiguous('data lies between its entries and its central directory');
}

/** The end record readZip takes: the last signature whose comment fits in the file. */
function endRecord(bytes: Uint8Array, view: DataView): number {
  const last = bytes.length - END_OF_CENTRAL_DIRECTORY_SIZE;
  for (let pos = last; pos >= Math.max(0, last - MAX_COMMENT_SIZE); pos--) {
    if (bytes[pos] !== 0x50 || view.getUint32(pos, true) !== END_OF_CENTRAL_DIRECTORY_SIGNATURE) continue;
    if (pos + END_OF_CENTRAL_DIRECTORY_SIZE + view.getUint16(pos + 20, true) <= bytes.length) return pos;
  }
  throw invalid('truncated or corrupt zip archive: no end of central directory record');
}

function centralRecords(bytes: Uint8Array, view: DataView, offset: number, size: number): CentralRecord[] {
  const records: CentralRecord[] = [];
  let pos = offset;
  while (pos < offset + size) {
    if (view.getUint32(pos, true) !== CENTRAL_HEADER_SIGNATURE)
      throw ambiguous('its central directory is corrupt');
    const nameLength = view.getUint16(pos + 28, true);
    records.push({
      flags: view.getUint16(pos + 8, true),
      method: view.getUint16(pos + 10, true),
      crc: view.getUint32(pos + 16, true),
      compressedSize: view.getUint32(pos + 20, true),
      uncompressedSize: view.getUint32(pos + 24, true),
      offset: view.getUint32(pos + 42, true),
      name: bytes.subarray(pos + CENTRAL_HEADER_SIZE, pos + CENTRAL_HEADER_SIZE + nameLength),
    });
    pos += CENTRAL_HEADER_SIZE + nameLength + view.getUint16(pos + 30, true) + view.getUint16(pos + 32, true);
  }
  return records;
}

/** Where the local record of `record` ends (header, name, extra field, data, descriptor); throws where it disagrees. */
function localRecordEnd(bytes: Uint8Array, view: DataView, record: CentralRecord): number {
  const at = record.offset;
  if (at + LOCAL_HEADER_SIZE > bytes.length || view.getUint32(at, true) !== LOCAL_HEADER_SIGNATURE)
    throw ambiguous('an entry has no local header');
  const flags = view.getUint16(at + 6, true);
  const nameLength = view.getUint16(at + 26, true);
  const name = bytes.subarray(at + LOCAL_HEADER_SIZE, at + LOCAL_HEADER_SIZE + nameLength);
  const descriptor = (record.flags & FLAG_DESCRIPTOR) !== 0;
  const sizes: [number, number, number] = [
    view.getUint32(at + 14, true),
    view.getUint32(at + 18, true),
    view.getUint32(at + 22, true),
  ];
  const disagrees =
    (flags & FLAGS_COMPARED) !== (record.flags & FLAGS_COMPARED) ||
    view.getUint16(at + 8, true) !== record.method ||
    !sameBytes(name, record.name) ||
    (!descriptor && !sameSizes(sizes, record));
  if (disagrees) throw ambiguous('a local header disagrees with the central directory');
  const dataEnd = at + LOCAL_HEADER_SIZE + nameLength + view.getUint16(at + 28, true) + record.compressedSize;
  if (!descriptor) return dataEnd;
  // A data descriptor: its signature is optional (APPNOTE §4.3.9.3); its CRC and sizes must be the directory's.
  const signed = dataEnd + 4 <= bytes.length && view.getUint32(dataEnd, true) === DESCRIPTOR_SIGNATURE;
  const fields = signed ? dataEnd + 4 : dataEnd;
  if (fields + 12 > bytes.length) throw ambiguous('an entry is cut short');
  const written: [number, number, number] = [
    view.getUint32(fields, true),
    view.getUint32(fields + 4, true),
    view.getUint32(fields + 8, true),
  ];
  if (!sameSizes(written, record)) throw ambiguous('a data descriptor disagrees with the central directory');
  return fields + 12;
}

function sameSizes(
  [crc, compressed, uncompressed]: [number, number, number],
  record: CentralRecord,
): boolean {
  return (
    crc === record.crc && compressed === record.compressedSize && uncompressed === record.uncompressedSize
  );
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

function ambiguous(why: string): Error {
  return invalid(
    `the file is not one zip archive (${why}): readers could each see another deck in it; save it again in PowerPoint`,
  );
}
