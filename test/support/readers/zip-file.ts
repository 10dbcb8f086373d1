/**
 * Reads a .pptx on disk entry by entry, without loading it: for decks too large for the in-memory checks
 * (hundreds of megabytes, gigabytes of XML). Central directory (ZIP64 end records followed), then any entry
 * by name. Independent of src/engine/package, as the other test-side readers are.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { inflateSync } from 'fflate';

export interface FileEntry {
  name: string;
  method: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

export interface ZipFile {
  /** Entries by name, in central directory order. */
  entries: Map<string, FileEntry>;
  /** The entry's uncompressed bytes. */
  read(name: string): Uint8Array;
  text(name: string): string;
  close(): void;
}

export function openZipFile(path: string): ZipFile {
  const fd = openSync(path, 'r');
  const size = fstatSync(fd).size;
  const bytesAt = (offset: number, length: number): Buffer => {
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, offset);
    return buffer;
  };
  const tailLength = Math.min(size, 22 + 20 + 56 + 0xffff);
  const tail = bytesAt(size - tailLength, tailLength);
  const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error(`${path}: no end of central directory record`);
  let count = tail.readUInt16LE(eocd + 10);
  let directorySize = tail.readUInt32LE(eocd + 12);
  let directoryOffset = tail.readUInt32LE(eocd + 16);
  if (eocd >= 20 && tail.readUInt32LE(eocd - 20) === 0x07064b50) {
    const record = bytesAt(Number(tail.readBigUInt64LE(eocd - 20 + 8)), 56);
    count = Number(record.readBigUInt64LE(32));
    directorySize = Number(record.readBigUInt64LE(40));
    directoryOffset = Number(record.readBigUInt64LE(48));
  }
  const directory = bytesAt(directoryOffset, directorySize);
  const entries = new Map<string, FileEntry>();
  for (let i = 0, pos = 0; i < count; i++) {
    if (directory.readUInt32LE(pos) !== 0x02014b50)
      throw new Error(`${path}: bad central directory record ${i}`);
    const nameLength = directory.readUInt16LE(pos + 28);
    const extraLength = directory.readUInt16LE(pos + 30);
    const name = directory.toString('utf8', pos + 46, pos + 46 + nameLength);
    const entry: FileEntry = {
      name,
      method: directory.readUInt16LE(pos + 10),
      crc32: directory.readUInt32LE(pos + 16),
      compressedSize: directory.readUInt32LE(pos + 20),
      uncompressedSize: directory.readUInt32LE(pos + 24),
      localHeaderOffset: directory.readUInt32LE(pos + 42),
    };
    // ZIP64 extended information: the marked fields, in order (APPNOTE §4.5.3).
    for (let extra = pos + 46 + nameLength; extra < pos + 46 + nameLength + extraLength;) {
      const id = directory.readUInt16LE(extra);
      const length = directory.readUInt16LE(extra + 2);
      if (id === 1) {
        let field = extra + 4;
        for (const key of ['uncompressedSize', 'compressedSize', 'localHeaderOffset'] as const) {
          if (entry[key] !== 0xffffffff) continue;
          entry[key] = Number(directory.readBigUInt64LE(field));
          field += 8;
        }
      }
      extra += 4 + length;
    }
    entries.set(name, entry);
    pos += 46 + nameLength + extraLength + directory.readUInt16LE(pos + 32);
  }
  const read = (name: string): Uint8Array => {
    const entry = entries.get(name);
    if (!entry) throw new Error(`${path}: no entry ${name}`);
    const local = bytesAt(entry.localHeaderOffset, 30);
    const data = bytesAt(
      entry.localHeaderOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28),
      entry.compressedSize,
    );
    return entry.method === 0 ? data : inflateSync(data, { out: new Uint8Array(entry.uncompressedSize) });
  };
  return {
    entries,
    read,
    text: (name) => new TextDecoder().decode(read(name)),
    close: () => closeSync(fd),
  };
}

/** The slide part names in presentation order (presentation.xml and its rels), from parts read by name. */
export function slidePartsInOrder(text: (name: string) => string): string[] {
  const rels = text('ppt/_rels/presentation.xml.rels');
  const targets = new Map<string, string>();
  for (const m of rels.matchAll(/<Relationship [^>]*>/g)) {
    const id = /Id="([^"]+)"/.exec(m[0])?.[1];
    const target = /Target="([^"]+)"/.exec(m[0])?.[1];
    if (id && target) targets.set(id, `ppt/${target}`);
  }
  return [...text('ppt/presentation.xml').matchAll(/<p:sldId [^>]*r:id="([^"]+)"/g)].map(
    (m) => targets.get(m[1] ?? '') ?? '',
  );
}
