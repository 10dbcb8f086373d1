/**
 * Writes a ZIP archive the way PowerPoint does (docs/powerpoint-rules.md "The ZIP container"): no directory
 * entries, version needed 2.0, Stored or Deflate, sizes in the local headers (no data descriptors).
 * Deterministic: a fixed DOS timestamp, so identical input gives identical bytes. Entries taken `from` another
 * archive are copied as their compressed bytes, never inflated.
 *
 * It streams: an entry's local header and data go to the sink when the entry is added, the central directory
 * when the archive is finished, so no archive is ever whole in memory. ZIP64 records appear only where a value
 * does not fit (65 535 entries or more, an offset past 4 GiB; APPNOTE §4.4.1.4), never otherwise.
 */
import { crc32 } from 'node:zlib';
import { EngineError } from '../errors.js';
import { deflateRaw, type DeflatedHead } from './deflate.js';
import type { ZipArchive } from './zip-reader.js';
import {
  CONTENT_TYPES_ITEM,
  END_OF_CENTRAL_DIRECTORY_SIZE,
  FLAG_UTF8,
  METHOD_DEFLATE,
  METHOD_STORED,
  ZIP64_MARKER_32,
} from './zip-format.js';
import {
  centralRecordLength,
  endNeedsZip64,
  localHeaderLength,
  writeCentralRecord,
  writeEndOfCentralDirectory,
  writeLocalHeader,
  writeZip64End,
  ZIP64_END_SIZE,
  type EntryFields,
  type EntryName,
} from './zip-records.js';

/**
 * Where an archive goes, chunk after chunk, in order. A chunk is the sink's only during the call: the writer
 * reuses its buffer afterwards (a deck of 20 000 slides would otherwise leave a trail of garbage buffers),
 * unless the sink says it keeps what it is given.
 */
export interface ByteSink {
  write(chunk: Uint8Array): void;
  /** True for a sink that keeps the chunks (ChunkCollector): it then gets buffers nobody reuses, to keep as they are. */
  readonly keepsChunks?: boolean;
}

export type ZipOutputEntry =
  | { name: string; data: Uint8Array; compress: boolean }
  /** A raw copy of entry `source` of `from`: its compressed bytes, method and CRC as they are. */
  | { name: string; from: ZipArchive; source: string }
  /** A deflated part whose long head is shared with other parts and deflated once (deflateHead). */
  | { name: string; head: DeflatedHead; tail: Uint8Array };

export interface ZipWriteOptions {
  /** zlib level for entries with `compress: true`; see DEFAULT_DEFLATE_LEVEL. */
  level?: number;
}

/**
 * Measured on the corpus's 691 XML parts (2.4 MB): level 1 deflates them in ~15 ms CPU to 18.0 % of their size,
 * the default level 6 in ~25 ms to 16.2 %. Latency matters more here than 11 % of output size.
 */
export const DEFAULT_DEFLATE_LEVEL = 1;

/** An entry's data as it goes into the archive: what the headers say of it, and its bytes in pieces. */
interface Payload extends EntryFields {
  pieces: readonly Uint8Array[];
}

/** Small writes (headers, small parts) are gathered into chunks of this size before they reach the sink. */
const CHUNK_SIZE = 256 * 1024;
/** The central directory grows by ~80 bytes an entry: kept in pieces of this size until the end. */
const DIRECTORY_CHUNK_SIZE = 64 * 1024;

export class ZipStreamWriter {
  private readonly level: number;
  private offset = 0;
  private entryCount = 0;
  /** The same buffer given twice (identical rels parts of cloned slides) is compressed once. */
  private readonly compressed = new WeakMap<Uint8Array, Payload>();
  private chunk = Buffer.allocUnsafe(CHUNK_SIZE);
  private used = 0;
  /** Central directory records, packed as they will be written. */
  private readonly directory: Buffer[] = [];
  private directoryChunk = Buffer.allocUnsafe(DIRECTORY_CHUNK_SIZE);
  private directoryUsed = 0;
  private directorySize = 0;
  private finished = false;

  constructor(
    private readonly sink: ByteSink,
    options: ZipWriteOptions = {},
  ) {
    this.level = options.level ?? DEFAULT_DEFLATE_LEVEL;
  }

  /** Bytes written so far. */
  get size(): number {
    return this.offset;
  }

  /**
   * Adds an entry. Names are the caller's to keep unique (case-insensitively, as OPC compares them): the
   * package builder's parts are by construction, and writeZip checks its list.
   */
  add(entry: ZipOutputEntry): void {
    if (this.finished) throw new RangeError('the zip archive is already finished');
    if (entry.name.length === 0 || entry.name.startsWith('/') || entry.name.endsWith('/')) {
      throw new RangeError(`zip item name must be relative and name a file: "${entry.name}"`);
    }
    const payload = this.payloadOf(entry);
    if (payload.compressedSize >= ZIP64_MARKER_32 || payload.uncompressedSize >= ZIP64_MARKER_32)
      throw new EngineError('LIMIT_EXCEEDED', `part ${entry.name} would be 4 GiB or more`, `/${entry.name}`);
    // The name is written straight into the headers' chunks (no buffer per name: a deck has 40 000 of them).
    const name = { text: entry.name, length: Buffer.byteLength(entry.name, 'utf8') };
    const flags = name.length === entry.name.length ? 0 : FLAG_UTF8;
    const localOffset = this.offset;
    const header = this.reserve(localHeaderLength(name));
    writeLocalHeader(header.buffer, header.at, payload, name, flags);
    for (const piece of payload.pieces) this.put(piece);
    this.addDirectoryRecord(payload, name, flags, localOffset);
    this.entryCount += 1;
  }

  /** Writes the central directory (and the ZIP64 end records when needed); returns the archive's size. */
  finish(): number {
    if (this.finished) return this.offset;
    this.finished = true;
    const directoryOffset = this.offset;
    this.directory.push(this.directoryChunk.subarray(0, this.directoryUsed));
    for (const records of this.directory) this.put(records);
    const count = this.entryCount;
    const size = this.directorySize;
    if (endNeedsZip64(count, size, directoryOffset)) {
      const recordOffset = this.offset;
      const record = this.reserve(ZIP64_END_SIZE);
      writeZip64End(record.buffer, record.at, recordOffset, count, size, directoryOffset);
    }
    const end = this.reserve(END_OF_CENTRAL_DIRECTORY_SIZE);
    writeEndOfCentralDirectory(end.buffer, end.at, count, size, directoryOffset);
    this.flush();
    return this.offset;
  }

  private payloadOf(entry: ZipOutputEntry): Payload {
    if ('from' in entry) return copied(entry.from, entry.source);
    if ('head' in entry) return continued(entry.head, entry.tail, this.level);
    let payload = this.compressed.get(entry.data);
    if (!payload) {
      payload = fresh(entry.data, entry.compress, this.level);
      this.compressed.set(entry.data, payload);
    }
    return payload;
  }

  private addDirectoryRecord(payload: Payload, name: EntryName, flags: number, localOffset: number): void {
    const length = centralRecordLength(name, localOffset);
    if (this.directoryUsed + length > this.directoryChunk.length) {
      this.directory.push(this.directoryChunk.subarray(0, this.directoryUsed));
      this.directoryChunk = Buffer.allocUnsafe(Math.max(DIRECTORY_CHUNK_SIZE, length));
      this.directoryUsed = 0;
    }
    writeCentralRecord(this.directoryChunk, this.directoryUsed, payload, name, flags, localOffset);
    this.directoryUsed += length;
    this.directorySize += length;
  }

  /** Room for `length` bytes of header in the current chunk. */
  private reserve(length: number): { buffer: Buffer; at: number } {
    if (this.used + length > this.chunk.length) this.flush();
    if (length > this.chunk.length) this.chunk = Buffer.allocUnsafe(length);
    const at = this.used;
    this.used += length;
    this.offset += length;
    return { buffer: this.chunk, at };
  }

  /** Data: copied into the current chunk when small, handed to the sink as it is when large. */
  private put(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (bytes.length >= CHUNK_SIZE / 2) {
      this.flush();
      this.sink.write(bytes);
      this.offset += bytes.length;
      return;
    }
    if (this.used + bytes.length > this.chunk.length) this.flush();
    this.chunk.set(bytes, this.used);
    this.used += bytes.length;
    this.offset += bytes.length;
  }

  private flush(): void {
    if (this.used === 0) return;
    this.sink.write(this.chunk.subarray(0, this.used));
    if (this.sink.keepsChunks) this.chunk = Buffer.allocUnsafe(CHUNK_SIZE);
    this.used = 0;
  }
}

/** Keeps every chunk; `bytes()` joins them. For callers that want the archive in memory. */
export class ChunkCollector implements ByteSink {
  readonly keepsChunks = true;
  private readonly chunks: Uint8Array[] = [];
  private length = 0;

  write(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** One buffer of exactly the archive's size (a worker thread can then transfer it instead of copying). */
  bytes(): Uint8Array {
    const joined = Buffer.allocUnsafeSlow(this.length);
    let at = 0;
    for (const chunk of this.chunks) {
      joined.set(chunk, at);
      at += chunk.length;
    }
    return joined;
  }
}

/** The whole archive in memory, [Content_Types].xml first as PowerPoint writes it. */
export function writeZip(entries: Iterable<ZipOutputEntry>, options: ZipWriteOptions = {}): Uint8Array {
  const collector = new ChunkCollector();
  const writer = new ZipStreamWriter(collector, options);
  const names = new Set<string>();
  for (const entry of contentTypesFirst(entries)) {
    const key = entry.name.toLowerCase();
    if (names.has(key)) throw new RangeError(`duplicate zip item name "${entry.name}"`);
    names.add(key);
    writer.add(entry);
  }
  writer.finish();
  return collector.bytes();
}

function contentTypesFirst(entries: Iterable<ZipOutputEntry>): ZipOutputEntry[] {
  const list = [...entries];
  const index = list.findIndex((entry) => entry.name === CONTENT_TYPES_ITEM);
  if (index > 0) list.unshift(...list.splice(index, 1));
  return list;
}

function copied(from: ZipArchive, source: string): Payload {
  const entry = from.entries.get(source);
  if (!entry) throw new RangeError(`no entry "${source}" in the source archive`);
  return {
    method: entry.method,
    crc: entry.crc32,
    compressedSize: entry.compressedSize,
    uncompressedSize: entry.uncompressedSize,
    pieces: [from.verifiedRawData(source)],
  };
}

/** The shared head's blocks, then the tail as a stream of its own (its last block is the final one). */
function continued(head: DeflatedHead, tail: Uint8Array, level: number): Payload {
  const deflatedTail = deflateRaw(tail, level);
  return {
    method: METHOD_DEFLATE,
    crc: crc32(tail, head.crc),
    compressedSize: head.deflated.length + deflatedTail.length,
    uncompressedSize: head.length + tail.length,
    pieces: [head.deflated, deflatedTail],
  };
}

function fresh(data: Uint8Array, compress: boolean, level: number): Payload {
  const crc = crc32(data);
  if (compress && data.length > 0) {
    const deflated = deflateRaw(data, level);
    // Deflate can expand incompressible data; Stored is then both smaller and cheaper to read.
    if (deflated.length < data.length) {
      return {
        method: METHOD_DEFLATE,
        crc,
        compressedSize: deflated.length,
        uncompressedSize: data.length,
        pieces: [deflated],
      };
    }
  }
  return {
    method: METHOD_STORED,
    crc,
    compressedSize: data.length,
    uncompressedSize: data.length,
    pieces: [data],
  };
}
