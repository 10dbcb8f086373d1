/**
 * Constants of the ZIP file format (PKWARE APPNOTE 6.3.x) as far as OPC uses it: Stored or Deflate only, no
 * encryption, no ZIP64 below its thresholds, version needed 2.0 (ECMA-376 Part 2 Annex C;
 * docs/powerpoint-rules.md "The ZIP container"). ZIP64 (APPNOTE §4.3.14–15, §4.5.3) only where a count or an
 * offset does not fit: docs/large-decks.md.
 */
export const LOCAL_HEADER_SIGNATURE = 0x04034b50;
export const CENTRAL_HEADER_SIGNATURE = 0x02014b50;
export const END_OF_CENTRAL_DIRECTORY_SIGNATURE = 0x06054b50;

export const LOCAL_HEADER_SIZE = 30;
export const CENTRAL_HEADER_SIZE = 46;
export const END_OF_CENTRAL_DIRECTORY_SIZE = 22;
/** The EOCD record ends the file, followed only by a comment of at most 65 535 bytes. */
export const MAX_COMMENT_SIZE = 0xffff;

export const METHOD_STORED = 0;
export const METHOD_DEFLATE = 8;

export const FLAG_ENCRYPTED = 0x0001;
export const FLAG_STRONG_ENCRYPTION = 0x0040;
/** General purpose bit 11: the name is UTF-8 (APPNOTE appendix D). */
export const FLAG_UTF8 = 0x0800;

/** "Version needed to extract" 2.0: Deflate, no ZIP64. Office rejects archives that claim 4.5 needlessly. */
export const VERSION_NEEDED = 20;
/** 4.5: the record uses ZIP64 extensions (APPNOTE §4.4.3.2); written only on records that do. */
export const VERSION_ZIP64 = 45;

/** MS-DOS date 1980-01-01 (the epoch of the format) and time 00:00, so output bytes depend only on content. */
export const FIXED_DOS_DATE = (0 << 9) | (1 << 5) | 1;
export const FIXED_DOS_TIME = 0;

/** Values that mean "look in the ZIP64 extra field". */
export const ZIP64_MARKER_16 = 0xffff;
export const ZIP64_MARKER_32 = 0xffffffff;
export const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
export const ZIP64_LOCATOR_SIZE = 20;
export const ZIP64_RECORD_SIGNATURE = 0x06064b50;
export const ZIP64_RECORD_MIN_SIZE = 56;
/** Header id of the ZIP64 extended information extra field (APPNOTE §4.5.3). */
export const ZIP64_EXTRA_ID = 0x0001;

/** Item names of the [Content_Types].xml stream (not a part; ECMA-376 Part 2 §10.1.2.1). */
export const CONTENT_TYPES_ITEM = '[Content_Types].xml';

/** One entry of the central directory. */
export interface ZipEntry {
  /** The ZIP item name as stored (no leading '/'). */
  name: string;
  method: 0 | 8;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  /** General purpose bit flags from the central directory. */
  flags: number;
  localHeaderOffset: number;
  /** Offset of the entry's (compressed) data in the archive. */
  dataOffset: number;
}
