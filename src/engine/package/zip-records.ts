/**
 * The byte layout of the ZIP records the writer produces (PKWARE APPNOTE 6.3.x §4.3): local file header, central
 * directory header (with the ZIP64 extended information field when its entry starts past 4 GiB), ZIP64 end of
 * central directory record and locator, end of central directory record. Fixed DOS timestamp, version needed
 * 2.0 unless the record uses ZIP64 (docs/powerpoint-rules.md "The ZIP container").
 */
import {
  CENTRAL_HEADER_SIGNATURE,
  CENTRAL_HEADER_SIZE,
  END_OF_CENTRAL_DIRECTORY_SIGNATURE,
  FIXED_DOS_DATE,
  FIXED_DOS_TIME,
  LOCAL_HEADER_SIGNATURE,
  LOCAL_HEADER_SIZE,
  VERSION_NEEDED,
  VERSION_ZIP64,
  ZIP64_EXTRA_ID,
  ZIP64_LOCATOR_SIGNATURE,
  ZIP64_LOCATOR_SIZE,
  ZIP64_MARKER_16,
  ZIP64_MARKER_32,
  ZIP64_RECORD_MIN_SIZE,
  ZIP64_RECORD_SIGNATURE,
} from './zip-format.js';

/** An item name and its length in UTF-8 bytes (written straight into the record: no buffer per name). */
export interface EntryName {
  text: string;
  length: number;
}

/** What the headers say of an entry's data. */
export interface EntryFields {
  method: number;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
}

/** The ZIP64 extended information field: id, size, and the three 8-byte values. */
const ZIP64_EXTRA_SIZE = 4 + 24;
export const ZIP64_END_SIZE = ZIP64_RECORD_MIN_SIZE + ZIP64_LOCATOR_SIZE;

/** An entry starting at or past 4 GiB needs ZIP64 in its central record (the offset field is 32 bits). */
export function needsZip64(localOffset: number): boolean {
  return localOffset >= ZIP64_MARKER_32;
}

export function localHeaderLength(name: EntryName): number {
  return LOCAL_HEADER_SIZE + name.length;
}

export function centralRecordLength(name: EntryName, localOffset: number): number {
  return CENTRAL_HEADER_SIZE + name.length + (needsZip64(localOffset) ? ZIP64_EXTRA_SIZE : 0);
}

/** A local file header: sizes in it, no data descriptor, no extra field (no part reaches 4 GiB). */
export function writeLocalHeader(
  out: Buffer,
  pos: number,
  payload: EntryFields,
  name: EntryName,
  flags: number,
): void {
  out.writeUInt32LE(LOCAL_HEADER_SIGNATURE, pos);
  out.writeUInt16LE(VERSION_NEEDED, pos + 4);
  out.writeUInt16LE(flags, pos + 6);
  out.writeUInt16LE(payload.method, pos + 8);
  out.writeUInt16LE(FIXED_DOS_TIME, pos + 10);
  out.writeUInt16LE(FIXED_DOS_DATE, pos + 12);
  out.writeUInt32LE(payload.crc, pos + 14);
  out.writeUInt32LE(payload.compressedSize, pos + 18);
  out.writeUInt32LE(payload.uncompressedSize, pos + 22);
  out.writeUInt16LE(name.length, pos + 26);
  out.writeUInt16LE(0, pos + 28); // extra field length
  out.write(name.text, pos + LOCAL_HEADER_SIZE, name.length, 'utf8');
}

/**
 * A central directory record. One at an offset past 4 GiB carries the ZIP64 extra field with all three values
 * and all three header fields set to the marker: APPNOTE allows it (each value present is one whose field says
 * so), and LibreOffice reads the field's values by position, not by which fields are marked.
 */
export function writeCentralRecord(
  out: Buffer,
  pos: number,
  payload: EntryFields,
  name: EntryName,
  flags: number,
  localOffset: number,
): void {
  const zip64 = needsZip64(localOffset);
  const version = zip64 ? VERSION_ZIP64 : VERSION_NEEDED;
  out.writeUInt32LE(CENTRAL_HEADER_SIGNATURE, pos);
  out.writeUInt16LE(version, pos + 4); // version made by: MS-DOS attribute compatibility
  out.writeUInt16LE(version, pos + 6);
  out.writeUInt16LE(flags, pos + 8);
  out.writeUInt16LE(payload.method, pos + 10);
  out.writeUInt16LE(FIXED_DOS_TIME, pos + 12);
  out.writeUInt16LE(FIXED_DOS_DATE, pos + 14);
  out.writeUInt32LE(payload.crc, pos + 16);
  out.writeUInt32LE(zip64 ? ZIP64_MARKER_32 : payload.compressedSize, pos + 20);
  out.writeUInt32LE(zip64 ? ZIP64_MARKER_32 : payload.uncompressedSize, pos + 24);
  out.writeUInt16LE(name.length, pos + 28);
  out.writeUInt16LE(zip64 ? ZIP64_EXTRA_SIZE : 0, pos + 30); // extra field length
  out.writeUInt16LE(0, pos + 32); // comment length
  out.writeUInt16LE(0, pos + 34); // disk number start
  out.writeUInt16LE(0, pos + 36); // internal attributes
  out.writeUInt32LE(0, pos + 38); // external attributes
  out.writeUInt32LE(zip64 ? ZIP64_MARKER_32 : localOffset, pos + 42);
  out.write(name.text, pos + CENTRAL_HEADER_SIZE, name.length, 'utf8');
  if (!zip64) return;
  const extra = pos + CENTRAL_HEADER_SIZE + name.length;
  out.writeUInt16LE(ZIP64_EXTRA_ID, extra);
  out.writeUInt16LE(ZIP64_EXTRA_SIZE - 4, extra + 2);
  out.writeBigUInt64LE(BigInt(payload.uncompressedSize), extra + 4);
  out.writeBigUInt64LE(BigInt(payload.compressedSize), extra + 12);
  out.writeBigUInt64LE(BigInt(localOffset), extra + 20);
}

/** Whether the end of central directory record cannot hold these values (APPNOTE §4.4.1.4). */
export function endNeedsZip64(count: number, directorySize: number, directoryOffset: number): boolean {
  return count >= ZIP64_MARKER_16 || directorySize >= ZIP64_MARKER_32 || directoryOffset >= ZIP64_MARKER_32;
}

/**
 * APPNOTE §4.3.14 (ZIP64 end of central directory record, no extensible data) and §4.3.15 (its locator), at
 * archive offset `recordOffset`.
 */
export function writeZip64End(
  out: Buffer,
  pos: number,
  recordOffset: number,
  count: number,
  directorySize: number,
  directoryOffset: number,
): void {
  out.writeUInt32LE(ZIP64_RECORD_SIGNATURE, pos);
  out.writeBigUInt64LE(BigInt(ZIP64_RECORD_MIN_SIZE - 12), pos + 4); // size of the rest of the record
  out.writeUInt16LE(VERSION_ZIP64, pos + 12); // version made by
  out.writeUInt16LE(VERSION_ZIP64, pos + 14); // version needed
  out.writeUInt32LE(0, pos + 16); // this disk
  out.writeUInt32LE(0, pos + 20); // disk with the central directory
  out.writeBigUInt64LE(BigInt(count), pos + 24);
  out.writeBigUInt64LE(BigInt(count), pos + 32);
  out.writeBigUInt64LE(BigInt(directorySize), pos + 40);
  out.writeBigUInt64LE(BigInt(directoryOffset), pos + 48);
  const locator = pos + ZIP64_RECORD_MIN_SIZE;
  out.writeUInt32LE(ZIP64_LOCATOR_SIGNATURE, locator);
  out.writeUInt32LE(0, locator + 4); // disk with the ZIP64 end record
  out.writeBigUInt64LE(BigInt(recordOffset), locator + 8);
  out.writeUInt32LE(1, locator + 16); // total number of disks
}

/** The end of central directory record; a value that does not fit is the marker (the ZIP64 record has it). */
export function writeEndOfCentralDirectory(
  out: Buffer,
  pos: number,
  count: number,
  directorySize: number,
  directoryOffset: number,
): void {
  out.writeUInt32LE(END_OF_CENTRAL_DIRECTORY_SIGNATURE, pos);
  out.writeUInt16LE(0, pos + 4); // this disk
  out.writeUInt16LE(0, pos + 6); // disk with the central directory
  out.writeUInt16LE(Math.min(count, ZIP64_MARKER_16), pos + 8);
  out.writeUInt16LE(Math.min(count, ZIP64_MARKER_16), pos + 10);
  out.writeUInt32LE(Math.min(directorySize, ZIP64_MARKER_32), pos + 12);
  out.writeUInt32LE(Math.min(directoryOffset, ZIP64_MARKER_32), pos + 16);
  out.writeUInt16LE(0, pos + 20); // comment length
}
