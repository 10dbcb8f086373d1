/**
 * Reads a ZIP archive from its central directory, lazily: nothing is inflated until asked for, and
 * `verifiedRawData` hands out an entry's compressed bytes so unchanged parts can be copied into the output
 * without being recompressed (they are inflated once, to check them). Hostile input is refused with an EngineError, never a crash and never
 * unbounded memory: declared sizes are checked against the limits up front, and inflation is capped at the
 * declared size, because declared sizes may lie.
 */
import { crc32, inflateRawSync } from 'node:zlib';
import { EngineError } from '../errors.js';
import type { PackageLimits } from './limits.js';
import {
  checkCompressionRatio,
  checkDeclaredSize,
  checkItemName,
  checkNoOverlap,
  decodeName,
  invalid,
  tooLarge,
} from './zip-entry-checks.js';
import {
  CENTRAL_HEADER_SIGNATURE,
  CENTRAL_HEADER_SIZE,
  END_OF_CENTRAL_DIRECTORY_SIGNATURE,
  END_OF_CENTRAL_DIRECTORY_SIZE,
  FLAG_ENCRYPTED,
  FLAG_STRONG_ENCRYPTION,
  LOCAL_HEADER_SIGNATURE,
  LOCAL_HEADER_SIZE,
  MAX_COMMENT_SIZE,
  METHOD_DEFLATE,
  METHOD_STORED,
  ZIP64_MARKER_16,
  ZIP64_MARKER_32,
  ZIP64_LOCATOR_SIGNATURE,
  ZIP64_LOCATOR_SIZE,
  ZIP64_RECORD_MIN_SIZE,
  ZIP64_RECORD_SIGNATURE,
} from './zip-format.js';
import type { ZipEntry } from './zip-format.js';

export type { ZipEntry };

/** The first bytes of an OLE compound file: what an encrypted Office document is instead of a ZIP. */
const CFB_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

export const ENCRYPTED_MESSAGE =
  'password-protected (encrypted) presentation: remove the password in PowerPoint and upload again';

export class ZipArchive {
  private inflatedBytes = 0;
  /** Entries whose stored bytes were inflated and checked once. */
  private readonly verified = new Set<string>();

  constructor(
    private readonly bytes: Uint8Array,
    readonly entries: ReadonlyMap<string, ZipEntry>,
    readonly limits: PackageLimits,
  ) {}

  /** Total uncompressed bytes inflated so far (counted against `maxTotalBytes`). */
  get totalInflated(): number {
    return this.inflatedBytes;
  }

  private entry(name: string): ZipEntry {
    const entry = this.entries.get(name);
    if (!entry) throw invalid('no such entry in the archive', `/${name}`);
    return entry;
  }

  /** The entry's bytes as stored in the archive (compressed when `method` is 8). A view: do not modify. */
  rawData(name: string): Uint8Array {
    const entry = this.entry(name);
    return this.bytes.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  }

  /**
   * The entry's bytes as stored, once it is known that they inflate to what the archive declares (checked on
   * first use, then remembered): a part whose compressed data is corrupt is refused, not copied into a deck
   * that would then not open. Nothing is counted against `maxTotalBytes`: the inflated bytes are dropped at
   * once, and inflation is capped at the declared size, which the limits checked when the archive was read.
   */
  verifiedRawData(name: string): Uint8Array {
    if (!this.verified.has(name)) {
      this.decode(name);
      this.verified.add(name);
    }
    return this.rawData(name);
  }

  /** The entry's uncompressed bytes, size and CRC verified. A stored entry is returned as a view. */
  inflate(name: string): Uint8Array {
    const entry = this.entry(name);
    const { maxTotalBytes } = this.limits;
    if (this.inflatedBytes + entry.uncompressedSize > maxTotalBytes) {
      throw tooLarge(
        `inflating this part would exceed the limit of ${maxTotalBytes} bytes in total (maxTotalBytes)`,
        `/${name}`,
      );
    }
    checkCompressionRatio(entry, this.limits);
    const data = this.decode(name);
    this.verified.add(name);
    this.inflatedBytes += data.length;
    return data;
  }

  private decode(name: string): Uint8Array {
    const entry = this.entry(name);
    const path = `/${name}`;
    const raw = this.rawData(name);
    let data: Uint8Array;
    if (entry.method === METHOD_STORED) {
      data = raw;
    } else {
      try {
        // Cap at the declared size: a lying header cannot make us allocate more than it claims, and the
        // declared size was already checked against maxEntryBytes (at open).
        data = inflateRawSync(raw, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
          throw tooLarge(
            `part inflates to more than its declared ${entry.uncompressedSize} bytes (a zip bomb or a corrupt archive)`,
            path,
          );
        }
        throw invalid(`corrupt compressed data (${(error as Error).message})`, path);
      }
    }
    if (data.length !== entry.uncompressedSize) {
      throw invalid(`part is ${data.length} bytes but the archive declares ${entry.uncompressedSize}`, path);
    }
    if (crc32(data) !== entry.crc32) throw invalid('CRC-32 mismatch: the archive is corrupt', path);
    return data;
  }
}

export function readZip(bytes: Uint8Array, limits: PackageLimits): ZipArchive {
  if (bytes.length > limits.maxArchiveBytes) {
    throw tooLarge(
      `the template is ${bytes.length} bytes, over the limit of ${limits.maxArchiveBytes} (maxArchiveBytes)`,
    );
  }
  if (bytes.length === 0) throw invalid('the file is empty (0 bytes)');
  if (CFB_SIGNATURE.every((b, i) => bytes[i] === b)) throw invalid(ENCRYPTED_MESSAGE);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndOfCentralDirectory(bytes, view);
  if (eocd < 0) {
    const looksLikeZip = bytes[0] === 0x50 && bytes[1] === 0x4b;
    throw invalid(
      looksLikeZip
        ? 'truncated or corrupt zip archive: no end of central directory record'
        : 'not a .pptx file (not a zip archive)',
    );
  }
  const disk = view.getUint16(eocd + 4, true);
  const cdDisk = view.getUint16(eocd + 6, true);
  const entriesOnDisk = view.getUint16(eocd + 8, true);
  const entryCount = view.getUint16(eocd + 10, true);
  const cdSize = view.getUint32(eocd + 12, true);
  const cdOffset = view.getUint32(eocd + 16, true);
  if (entryCount === ZIP64_MARKER_16 || cdSize === ZIP64_MARKER_32 || cdOffset === ZIP64_MARKER_32) {
    const zip64Count = zip64EntryCount(view, eocd);
    if (zip64Count !== undefined && zip64Count > limits.maxEntries) {
      throw tooLarge(
        `the archive has ${zip64Count} entries, over the limit of ${limits.maxEntries} (maxEntries)`,
      );
    }
    throw zip64Refusal();
  }
  if (disk !== 0 || cdDisk !== 0 || entriesOnDisk !== entryCount) {
    throw invalid('multi-volume (split) zip archives are not supported');
  }
  if (entryCount > limits.maxEntries) {
    throw tooLarge(
      `the archive has ${entryCount} entries, over the limit of ${limits.maxEntries} (maxEntries)`,
    );
  }
  if (cdOffset + cdSize > eocd) throw invalid('corrupt zip archive: central directory out of bounds');

  const entries = new Map<string, ZipEntry>();
  const folded = new Set<string>();
  let pos = cdOffset;
  const cdEnd = cdOffset + cdSize;
  for (let i = 0; i < entryCount; i++) {
    if (pos + CENTRAL_HEADER_SIZE > cdEnd || view.getUint32(pos, true) !== CENTRAL_HEADER_SIGNATURE) {
      throw invalid('corrupt zip archive: bad central directory record');
    }
    const flags = view.getUint16(pos + 8, true);
    const method = view.getUint16(pos + 10, true);
    const crc = view.getUint32(pos + 16, true);
    const compressedSize = view.getUint32(pos + 20, true);
    const uncompressedSize = view.getUint32(pos + 24, true);
    const nameLength = view.getUint16(pos + 28, true);
    const extraLength = view.getUint16(pos + 30, true);
    const commentLength = view.getUint16(pos + 32, true);
    const localHeaderOffset = view.getUint32(pos + 42, true);
    const next = pos + CENTRAL_HEADER_SIZE + nameLength + extraLength + commentLength;
    if (next > cdEnd) throw invalid('corrupt zip archive: central directory record overruns');
    const name = decodeName(
      bytes.subarray(pos + CENTRAL_HEADER_SIZE, pos + CENTRAL_HEADER_SIZE + nameLength),
      flags,
    );
    pos = next;
    const path = `/${name}`;

    // Directory entries are not parts (docs/powerpoint-rules.md "The ZIP container"); never copied out.
    if (name.endsWith('/')) continue;
    checkItemName(name);
    if (flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION)) {
      throw invalid(
        'encrypted zip entry: OPC packages may not use zip encryption (ECMA-376 Part 2 Annex C)',
        path,
      );
    }
    if (method !== METHOD_STORED && method !== METHOD_DEFLATE) {
      throw invalid(
        `unsupported zip compression method ${method} (only Stored and Deflate are allowed)`,
        path,
      );
    }
    if (
      compressedSize === ZIP64_MARKER_32 ||
      uncompressedSize === ZIP64_MARKER_32 ||
      localHeaderOffset === ZIP64_MARKER_32
    ) {
      throw zip64Refusal(path);
    }
    const key = name.toLowerCase();
    if (folded.has(key)) throw invalid('duplicate entry name (names must be unique, ignoring case)', path);
    folded.add(key);
    checkDeclaredSize(path, method, compressedSize, uncompressedSize, limits);

    if (
      localHeaderOffset + LOCAL_HEADER_SIZE > cdOffset ||
      view.getUint32(localHeaderOffset, true) !== LOCAL_HEADER_SIGNATURE
    ) {
      throw invalid('corrupt zip archive: bad local file header', path);
    }
    const dataOffset =
      localHeaderOffset +
      LOCAL_HEADER_SIZE +
      view.getUint16(localHeaderOffset + 26, true) +
      view.getUint16(localHeaderOffset + 28, true);
    if (dataOffset + compressedSize > cdOffset)
      throw invalid('truncated zip archive: entry data out of bounds', path);
    entries.set(name, {
      name,
      method: method === METHOD_STORED ? 0 : 8,
      crc32: crc,
      compressedSize,
      uncompressedSize,
      flags,
      localHeaderOffset,
      dataOffset,
    });
  }
  checkNoOverlap(entries);
  return new ZipArchive(bytes, entries, limits);
}

function findEndOfCentralDirectory(bytes: Uint8Array, view: DataView): number {
  const last = bytes.length - END_OF_CENTRAL_DIRECTORY_SIZE;
  const first = Math.max(0, last - MAX_COMMENT_SIZE);
  for (let pos = last; pos >= first; pos--) {
    if (bytes[pos] !== 0x50 || view.getUint32(pos, true) !== END_OF_CENTRAL_DIRECTORY_SIGNATURE) continue;
    const commentLength = view.getUint16(pos + 20, true);
    if (pos + END_OF_CENTRAL_DIRECTORY_SIZE + commentLength <= bytes.length) return pos;
  }
  return -1;
}

/** The entry count of the ZIP64 end of central directory record (APPNOTE §4.3.14–15), if one is there. */
function zip64EntryCount(view: DataView, eocd: number): number | undefined {
  const locator = eocd - ZIP64_LOCATOR_SIZE;
  if (locator < 0 || view.getUint32(locator, true) !== ZIP64_LOCATOR_SIGNATURE) return undefined;
  const record = Number(view.getBigUint64(locator + 8, true));
  if (record + ZIP64_RECORD_MIN_SIZE > locator || view.getUint32(record, true) !== ZIP64_RECORD_SIGNATURE)
    return undefined;
  return Number(view.getBigUint64(record + 32, true));
}

function zip64Refusal(path: string | null = null): EngineError {
  // Below 65 535 entries and 4 GiB ZIP64 is never needed, and PowerPoint never writes it; above, the limits apply.
  return new EngineError(
    'UNSUPPORTED_TEMPLATE',
    'ZIP64 archives are not supported: open the template in PowerPoint and save it again',
    path,
  );
}
